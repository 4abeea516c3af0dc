import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';

/**
 * Starting a state machine's execution from a function (the admin's billing run). The endpoint comes
 * from the standard variable AWS_ENDPOINT_URL_SFN, so the same code reaches AWS and the twin's Step
 * Functions endpoint (infra/local/emulators/step-functions.ts). The execution's name is the caller's
 * id of the run: a retried start with the same name starts nothing twice.
 */
let sfn: SFNClient | undefined;

export async function startExecution(stateMachineArn: string, name: string, input: unknown): Promise<void> {
  sfn ??= new SFNClient({});
  try {
    await sfn.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
  } catch (error) {
    // The same name and input: the run is already started.
    if (error instanceof ExecutionAlreadyExists) return;
    throw error;
  }
}
