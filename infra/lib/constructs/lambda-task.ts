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

export function lambdaTask(scope: Construct, name: string, fn: lambda.Function, payload: Record<string, unknown>, options: LambdaTaskOptions = {}): tasks.LambdaInvoke {
  if (!fn.timeout) throw new Error(`${fn.node.path} has no timeout: its Task could not state one`);
  return new tasks.LambdaInvoke(scope, name, {
    lambdaFunction: fn,
    payload: sfn.TaskInput.fromObject(payload),
    payloadResponseOnly: true,
    retryOnServiceExceptions: options.retryOnServiceExceptions ?? true,
    taskTimeout: sfn.Timeout.duration(fn.timeout.plus(MARGEM_DA_TAREFA)),
    ...(options.resultPath ? { resultPath: options.resultPath } : {}),
  });
}
