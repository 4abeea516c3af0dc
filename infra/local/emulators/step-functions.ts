/**
 * The twin's Step Functions endpoint: the AWS JSON 1.0 protocol of StartExecution and DescribeExecution,
 * enough for a function that starts a state machine through the AWS SDK (functions/platform/
 * step-functions.ts, AWS_ENDPOINT_URL_SFN). Executions run in this process on the local runner
 * (state-machines.ts), the same CDK-synthesized definitions as everywhere in the twin. A second start
 * with the same name starts nothing (ExecutionAlreadyExists), as in AWS. Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalStateMachine } from '../state-machines';

export interface StepFunctionsEndpoint {
  url: string;
  /** The execution of that name, once started (tests wait on it). */
  execution(name: string): Promise<unknown> | undefined;
  /**
   * Starts the machine of that local name as StartExecution does, under a new name, so DescribeExecution
   * knows it (the twin's schedules: a billing run judges the month's lock by its execution).
   */
  start(localName: string, input: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

interface Execution {
  arn: string;
  stateMachineArn: string;
  name: string;
  startDate: number;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  output?: string;
  done: Promise<unknown>;
}

/** `arn:aws:states:<region>:<account>:stateMachine:<localName>` → the machine of that local name. */
export function localStateMachineArn(localName: string, region = process.env.AWS_REGION ?? 'us-east-1'): string {
  return `arn:aws:states:${region}:000000000000:stateMachine:${localName}`;
}

export async function startStepFunctionsEndpoint(machinesByLocalName: ReadonlyMap<string, LocalStateMachine>): Promise<StepFunctionsEndpoint> {
  const executions = new Map<string, Execution>();

  const iniciar = (machine: LocalStateMachine, stateMachineArn: string, name: string, input: never): Execution => {
    const arn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    const execution: Execution = { arn, stateMachineArn, name, startDate: Date.now() / 1000, status: 'RUNNING', done: Promise.resolve() };
    execution.done = machine.execute(input, { name }).then(
      ({ output }) => {
        execution.status = 'SUCCEEDED';
        execution.output = JSON.stringify(output);
        return output;
      },
      (error: unknown) => {
        execution.status = 'FAILED';
        console.error(`[step-functions] ${machine.id} ${name} failed:`, (error as Error).message);
      },
    );
    executions.set(arn, execution);
    return execution;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '').replace(/^AWSStepFunctions\./, '');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      return answer(res, 400, { __type: 'SerializationException', message: 'invalid JSON' });
    }
    if (target === 'StartExecution') {
      const stateMachineArn = String(body.stateMachineArn ?? '');
      const machine = machinesByLocalName.get(stateMachineArn.split(':').at(-1) ?? '');
      if (!machine) return answer(res, 400, { __type: 'StateMachineDoesNotExist', message: `State Machine Does Not Exist: '${stateMachineArn}'` });
      const name = typeof body.name === 'string' && body.name ? body.name : crypto.randomUUID();
      const arn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
      const existing = executions.get(arn);
      if (existing) return answer(res, 400, { __type: 'ExecutionAlreadyExists', message: `Execution Already Exists: '${arn}'` });
      const execution = iniciar(machine, stateMachineArn, name, JSON.parse(typeof body.input === 'string' ? body.input : '{}') as never);
      return answer(res, 200, { executionArn: execution.arn, startDate: execution.startDate });
    }
    if (target === 'DescribeExecution') {
      const execution = executions.get(String(body.executionArn ?? ''));
      if (!execution) return answer(res, 400, { __type: 'ExecutionDoesNotExist', message: 'Execution Does Not Exist' });
      const { arn, stateMachineArn, name, status, startDate, output } = execution;
      return answer(res, 200, { executionArn: arn, stateMachineArn, name, status, startDate, ...(output ? { output } : {}) });
    }
    return answer(res, 400, { __type: 'UnknownOperationException', message: `not emulated: ${target}` });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => answer(res, 500, { __type: 'InternalFailure', message: (error as Error).message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    execution: (name) => [...executions.values()].find((e) => e.name === name)?.done,
    start: (localName, input) => {
      const machine = machinesByLocalName.get(localName);
      if (!machine) return Promise.reject(new Error(`no state machine ${localName}`));
      return iniciar(machine, localStateMachineArn(localName), crypto.randomUUID(), input as never).done;
    },
    stop: async () => {
      await Promise.allSettled([...executions.values()].map((e) => e.done));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
  res.end(JSON.stringify(body));
}
