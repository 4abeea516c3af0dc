/**
 * A scheduled load that fans out over a list: List → Map (inline, with Retry on each item's task) →
 * Summarise → Succeed, one task Lambda for every step, started by EventBridge Scheduler. Written so
 * that the same ASL runs in AWS and in aws-local-stepfunctions: JSONPath only, an inline Map over a
 * small list, no ItemReader or JSONata, and Tasks whose Resource is the function ARN
 * (payloadResponseOnly), which the twin binds to the handler module by state name.
 * The reference-data load and the Sefaz load are both this shape.
 */
import { type TarefaContract } from '@plac/shared/contracts/tarefas';
import { RemovalPolicy, type Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { FanOutStates } from '../state-machines';
import { lambdaTask } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';
import { scheduleMachine } from './machine-schedule';

export interface FanOutLoadProps {
  /** Construct id of the state machine, and its EventBridge schedule (cron, time zone). */
  readonly machine: { readonly id: string; readonly schedule: { readonly expression: string; readonly timezone: string } };
  readonly description: string;
  readonly states: FanOutStates;
  /** The contract of each step's task (shared/src/contracts/tarefas.ts): its payload's `task` and fields. */
  readonly tasks: { readonly list: TarefaContract; readonly each: TarefaContract; readonly summarise: TarefaContract };
  /** The list's field in the List step's output, and the item's field in the per-item payload. */
  readonly itemsField: string;
  readonly itemField: string;
  readonly maxConcurrency: number;
  readonly timeout: Duration;
  readonly retry: sfn.RetryProps;
  /** false: the machine exists but no schedule starts it (e.g. the Sefaz load before its service is configured). */
  readonly scheduled?: boolean;
}

export function fanOutLoad(scope: Construct, task: lambda.Function, props: FanOutLoadProps): sfn.StateMachine {
  const S = props.states;
  // States get their names from their construct ids; a scope of their own keeps those ids free.
  const steps = new Construct(scope, `${props.machine.id}Steps`);
  // The contracts are the machine's own (props.tasks): their fields are the item's and the results.
  const invoke = (name: string, contrato: TarefaContract, campos: Record<string, unknown>, defaultRetry = true) =>
    lambdaTask(steps, name, task, contrato, campos as never, { retryOnServiceExceptions: defaultRetry });

  const list = invoke(S.list, props.tasks.list, {});
  // The per-item task has the explicit retry policy instead of CDK's default service-exception retry.
  const one = invoke(S.one, props.tasks.each, { [props.itemField]: sfn.JsonPath.stringAt('$') }, false).addRetry(props.retry);
  const each = new sfn.Map(steps, S.each, { itemsPath: `$.${props.itemsField}`, maxConcurrency: props.maxConcurrency, resultPath: '$.results' }).itemProcessor(one);
  const summarise = invoke(S.summarise, props.tasks.summarise, { results: sfn.JsonPath.listAt('$.results') });
  const definition = list.next(each).next(summarise).next(new sfn.Succeed(steps, S.done));

  const machine = new sfn.StateMachine(scope, props.machine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(definition),
    stateMachineType: sfn.StateMachineType.STANDARD,
    timeout: props.timeout,
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${props.machine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition (which step ran, how long, which failed), never the payloads: they carry
      // CNPJs and amounts, and the step's own function logs what it did.
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);

  if (props.scheduled === false) return machine;
  scheduleMachine(scope, props.machine.id, machine, props.machine.schedule, props.description);
  return machine;
}
