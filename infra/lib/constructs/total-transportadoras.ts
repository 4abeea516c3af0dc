/**
 * The carrier report's filtered grand total (functions/consulta/total-transportadoras.ts, issue 38): Passo
 * (one bounded part of the carrier registry: at most 4,000 items read and 400 matching carriers' month
 * counters added, written with the sum and the next position in one conditional write) → the Choice
 * Concluido, back to Passo until the registry ends → Done. Started by the consulta API (grant
 * totalTransportadoras:start) when a filter's carriers do not fit in the request, named after the
 * total's record and its run. Everything a step needs is in the record, so a step retried after a crash
 * resumes from the last written position and counts nothing twice. The retorno machine's shape.
 */
import { totalTransportadoras } from '@plac/shared/contracts/tarefas';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { TOTAL_TRANSPORTADORAS_STATES as S } from '../state-machines';
import { totalTransportadorasStateMachine } from '../topology';
import { FATURAMENTO_RETRY } from './faturamento';
import { lambdaTask } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';

export function totalTransportadorasMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  const steps = new Construct(scope, `${totalTransportadorasStateMachine.id}Steps`);
  const step = lambdaTask(steps, S.step, task, totalTransportadoras.passo, { 'totalId.$': '$.totalId', 'execucao.$': '$.execucao' }, { retryOnServiceExceptions: false }).addRetry(FATURAMENTO_RETRY);
  const done = new sfn.Choice(steps, S.done).when(sfn.Condition.booleanEquals('$.concluido', true), new sfn.Succeed(steps, S.finished)).otherwise(step);
  const machine = new sfn.StateMachine(scope, totalTransportadorasStateMachine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(step.next(done)),
    stateMachineType: sfn.StateMachineType.STANDARD,
    // A registry of a million carriers is 250 steps of seconds each (about 1,750 history events of the
    // 25,000); an hour bounds a stuck loop, and the record's next request takes a stopped job over.
    timeout: Duration.hours(1),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${totalTransportadorasStateMachine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition, never the payloads (the record's id and run only, but kept alike).
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);
  return machine;
}
