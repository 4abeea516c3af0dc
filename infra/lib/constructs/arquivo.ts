/**
 * The archive job (functions/arquivo/job.ts, docs/arquivo.md): Iniciar (the month, a new attempt, or
 * nothing when one runs) → the Choice Iniciado → Passo, again until the month is done (the Choice
 * Concluido) → Done, or Divergente (a failed execution: its alarm) when a client's month could not be
 * archived whole, with a Catch on Passo to MarcarFalha → Failed. Each Passo writes Parquet parts
 * for at most two minutes; everything the next step needs is in the job's item, so the execution's
 * state is only the month. JSONPath, Task and Choice only: the same definition runs in AWS and in the
 * twin. Scheduled on the 5th for the month before (billed on the 1st); an administrator runs any past
 * month by starting it with `{"mes": "YYYY-MM"}`.
 *
 * History: a loop is about 7 events and a month at national volume (about 125 M rows, 50,000 a part)
 * about 2,500 parts in some 200 steps: far from the 25,000 events an execution may have.
 */
import { arquivo, type TarefaContract } from '@plac/shared/contracts/tarefas';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ARQUIVO_STATES as S } from '../state-machines';
import { arquivoStateMachine } from '../topology';
import { FATURAMENTO_RETRY } from './faturamento';
import { lambdaTask, type CamposDaTarefa } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';
import { scheduleMachine } from './machine-schedule';

export function arquivoMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  const steps = new Construct(scope, `${arquivoStateMachine.id}Steps`);
  const invoke = <C extends TarefaContract>(name: string, contrato: C, campos: CamposDaTarefa<C>) =>
    lambdaTask(steps, name, task, contrato, campos, { retryOnServiceExceptions: false });

  const markFailed = invoke(S.markFailed, arquivo.marcarFalha, { 'mes.$': '$.mes', 'erro.$': '$.erro' }).next(
    new sfn.Fail(steps, S.failed, { error: 'ArquivoFalhou', cause: 'The archive job failed; see the job record and the task logs.' }),
  );
  const finished = new sfn.Succeed(steps, S.finished);
  // A step run again reads the same job item and moves it only once (conditional on the step number).
  const step = invoke(S.step, arquivo.passo, { 'mes.$': '$.mes' }).addRetry(FATURAMENTO_RETRY).addCatch(markFailed, { resultPath: '$.erro' });
  // A month not archived whole (a client's files differ from what the table held) ends the execution
  // failed, so the machine's ExecutionsFailed alarm (alarms.ts) calls a person; the job record says which.
  const divergent = new sfn.Fail(steps, S.divergent, {
    error: 'ArquivoDivergente',
    cause: "Some clients' archived rows differ from what the table held; see the job record's divergencias.",
  });
  const done = new sfn.Choice(steps, S.done)
    .when(sfn.Condition.and(sfn.Condition.booleanEquals('$.concluido', true), sfn.Condition.isPresent('$.divergente'), sfn.Condition.booleanEquals('$.divergente', true)), divergent)
    .when(sfn.Condition.booleanEquals('$.concluido', true), finished)
    .otherwise(step);
  // The input is the schedule's (no month: the month before) or an administrator's `{"mes": …}`.
  const start = invoke(S.start, arquivo.iniciar, { 'entrada.$': '$' }).addRetry(FATURAMENTO_RETRY);
  const started = new sfn.Choice(steps, S.started).when(sfn.Condition.booleanEquals('$.concluido', true), finished).otherwise(step);
  step.next(done);

  const machine = new sfn.StateMachine(scope, arquivoStateMachine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(start.next(started)),
    stateMachineType: sfn.StateMachineType.STANDARD,
    // A month at national volume: hours; a day bounds a stuck loop.
    timeout: Duration.hours(24),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${arquivoStateMachine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition, never the payloads.
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);

  scheduleMachine(scope, arquivoStateMachine.id, machine, arquivoStateMachine.schedule, 'Archives the month before (request log, charged webhook deliveries, prepaid debits, invoices) to S3 as Parquet.');
  return machine;
}
