/**
 * The reference-data load: ListUfs → Map LoadEachUf (inline, 5 at a time, with Retry) → Summarise.
 * Written so that the same ASL runs in AWS and in aws-local-stepfunctions: JSONPath only, an inline
 * Map over a small list, no ItemReader or JSONata, and Tasks whose Resource is the function ARN
 * (payloadResponseOnly), which the twin binds to the handler module by state name.
 * Started monthly by EventBridge Scheduler in Bahia time.
 */
import { Duration, RemovalPolicy, TimeZone } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as schedulerTargets from 'aws-cdk-lib/aws-scheduler-targets';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { REFERENCE_LOAD_STATES as S } from '../state-machines';
import { referenceLoadStateMachine } from '../topology';
import { LOG_RETENTION } from './plac-function';

export const REFERENCE_LOAD_RETRY = {
  errors: ['States.TaskFailed', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'],
  interval: Duration.seconds(2),
  maxAttempts: 3,
  backoffRate: 2,
};

export function referenceLoadMachine(scope: Construct, task: lambda.IFunction): sfn.StateMachine {
  // States get their names from their construct ids; a scope of their own keeps those ids free.
  const steps = new Construct(scope, 'ReferenceLoadSteps');
  const invoke = (name: string, payload: Record<string, unknown>, defaultRetry = true) =>
    new tasks.LambdaInvoke(steps, name, {
      lambdaFunction: task,
      payload: sfn.TaskInput.fromObject(payload),
      payloadResponseOnly: true,
      retryOnServiceExceptions: defaultRetry,
    });

  const listUfs = invoke(S.listUfs, { task: 'listUfs' });
  // LoadUf has the explicit retry policy below instead of CDK's default service-exception retry.
  const loadUf = invoke(S.loadUf, { task: 'loadUf', uf: sfn.JsonPath.stringAt('$') }, false).addRetry(REFERENCE_LOAD_RETRY);
  const loadEach = new sfn.Map(steps, S.loadEach, { itemsPath: '$.ufs', maxConcurrency: 5, resultPath: '$.results' }).itemProcessor(loadUf);
  const summarise = invoke(S.summarise, { task: 'summarise', results: sfn.JsonPath.listAt('$.results') });
  const definition = listUfs.next(loadEach).next(summarise).next(new sfn.Succeed(steps, S.done));

  const machine = new sfn.StateMachine(scope, referenceLoadStateMachine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(definition),
    stateMachineType: sfn.StateMachineType.STANDARD,
    timeout: Duration.minutes(15),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${referenceLoadStateMachine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      level: sfn.LogLevel.ERROR,
    },
  });

  new scheduler.Schedule(scope, `${referenceLoadStateMachine.id}Schedule`, {
    description: 'Monthly refresh of the UF and municipality reference data',
    schedule: scheduler.ScheduleExpression.expression(
      referenceLoadStateMachine.schedule.expression,
      TimeZone.of(referenceLoadStateMachine.schedule.timezone),
    ),
    target: new schedulerTargets.StepFunctionsStartExecution(machine, {
      input: scheduler.ScheduleTargetInput.fromObject({ trigger: 'schedule' }),
      retryAttempts: 2,
      maxEventAge: Duration.hours(1),
    }),
  });
  return machine;
}
