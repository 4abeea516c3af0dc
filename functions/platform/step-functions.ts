import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from './aws-direto/step-functions';

/**
 * Starting a state machine's execution from a function (the admin's billing run). The endpoint comes
 * from the standard variable AWS_ENDPOINT_URL_SFN, so the same code reaches AWS and the twin's Step
 * Functions endpoint (infra/local/emulators/step-functions.ts). The execution's name is the caller's
 * id of the run: a retried start with the same name starts nothing twice.
 */
let sfn: SFNClient | undefined;

export async function startExecution(stateMachineArn: string, name: string, input: unknown): Promise<void> {
  sfn ??= new SFNClient();
  try {
    await sfn.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
  } catch (error) {
    // The same name and input: the run is already started.
    if ((error as { name?: string }).name === 'ExecutionAlreadyExists') return;
    throw error;
  }
}

/**
 * Whether the execution `name` of a state machine still runs (DescribeExecution: RUNNING or
 * PENDING_REDRIVE). One that ended (SUCCEEDED, FAILED, TIMED_OUT, ABORTED) or that the service does not
 * know (the twin restarted: its executions died with its process) does not: a lock it holds is stale.
 */
export async function execucaoAtiva(stateMachineArn: string, name: string): Promise<boolean> {
  sfn ??= new SFNClient();
  const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
  try {
    const { status } = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    return status === 'RUNNING' || status === 'PENDING_REDRIVE';
  } catch (error) {
    if ((error as { name?: string }).name === 'ExecutionDoesNotExist') return false;
    throw error;
  }
}
