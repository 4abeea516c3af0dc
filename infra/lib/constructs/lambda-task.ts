/**
 * A state machine's Task that invokes one of the platform's functions (the function ARN as its
 * Resource, payloadResponseOnly: the twin binds it to the handler module by state name).
 *
 * Its TimeoutSeconds comes from the function's own timeout plus a margin (issue 42). Without one the
 * States Language's runners differ: AWS waits for the function, aws-local-stepfunctions gave up after
 * 60 s while the work went on (a slow Sefaz load or billing shard failed with States.Timeout and its
 * Retry ran beside the first attempt). With it, AWS and the twin read the same limit, and the margin
 * lets the function's own timeout end an attempt before the Task gives up on it, so a Retry never
 * starts beside a running attempt. No heartbeat: a request-response Lambda invocation cannot send one
 * (that needs a task token), and the function's timeout already bounds the silence.
 */
import { ERROS_DEFINITIVOS, type EntradaDe, type TarefaContract } from '@plac/shared/contracts/tarefas';
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';

/** What the Task waits past the function's own timeout (the invocation's return trip). */
export const MARGEM_DA_TAREFA = Duration.seconds(30);

export interface LambdaTaskOptions {
  /** CDK's default retry on Lambda service exceptions (false where the Task states its own Retry). */
  readonly retryOnServiceExceptions?: boolean;
  readonly resultPath?: string;
}

/**
 * The payload's fields, as the task's contract names them (shared/src/contracts/tarefas.ts): each
 * one given as a value or, with the `.$` suffix, as a JSONPath. A field the contract does not have
 * does not compile; the function checks the values (functions/platform/tarefa.ts).
 */
export type CamposDaTarefa<C extends TarefaContract> = {
  [K in Exclude<keyof EntradaDe<C>, 'task'> & string as K | `${K}.$`]?: unknown;
};

/**
 * The Task of a contract's task: its payload the contract's `task` and the fields given, and its first
 * Retry the contract errors (ERROS_DEFINITIVOS) with no attempt, ahead of any Retry the machine adds,
 * so that a payload the function refuses fails the execution at once.
 */
export function lambdaTask<C extends TarefaContract>(
  scope: Construct,
  name: string,
  fn: lambda.Function,
  contrato: C,
  campos: CamposDaTarefa<C>,
  options: LambdaTaskOptions = {},
): tasks.LambdaInvoke {
  if (!fn.timeout) throw new Error(`${fn.node.path} has no timeout: its Task could not state one`);
  const task = new tasks.LambdaInvoke(scope, name, {
    lambdaFunction: fn,
    payload: sfn.TaskInput.fromObject({ ...(contrato.tarefa ? { task: contrato.tarefa } : {}), ...campos }),
    payloadResponseOnly: true,
    retryOnServiceExceptions: options.retryOnServiceExceptions ?? true,
    taskTimeout: sfn.Timeout.duration(fn.timeout.plus(MARGEM_DA_TAREFA)),
    ...(options.resultPath ? { resultPath: options.resultPath } : {}),
  });
  task.addRetry({ errors: [...ERROS_DEFINITIVOS], maxAttempts: 0 });
  return task;
}
