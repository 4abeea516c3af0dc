/**
 * The billing run: ListShards → Map BillEachShard (5 shards at a time; each BillShard invoices its
 * clients, with Retry) → Summarise → Done, with a Catch on ListShards and on the Map to MarkFailed →
 * Failed, so a run that cannot finish is recorded as failed instead of staying "running". The same
 * fan-out shape as the reference and Sefaz loads (fan-out-load.ts), with the execution's input (the
 * month and the run's id, when an admin started it) passed to ListShards. Started by EventBridge
 * Scheduler at 02:00 on the 1st of each month, Bahia time, for the month before, and by the billing
 * API (grant faturamento:start). A retried BillShard finds the invoices it wrote already there
 * (conditional creates, functions/faturamento/store.ts) and writes none twice.
 */
import { faturamento, type TarefaContract } from '@plac/shared/contracts/tarefas';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { FATURAMENTO_STATES as S } from '../state-machines';
import { faturamentoStateMachine } from '../topology';
import { lambdaTask, type CamposDaTarefa } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';
import { scheduleMachine } from './machine-schedule';

export const FATURAMENTO_RETRY = {
  errors: ['States.TaskFailed', 'States.Timeout', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'],
  interval: Duration.seconds(2),
  maxAttempts: 3,
  backoffRate: 2,
};

export function faturamentoMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  const steps = new Construct(scope, `${faturamentoStateMachine.id}Steps`);
  const invoke = <C extends TarefaContract>(name: string, contrato: C, campos: CamposDaTarefa<C>, defaultRetry = true) =>
    lambdaTask(steps, name, task, contrato, campos, { retryOnServiceExceptions: defaultRetry });

  const markFailed = invoke(S.markFailed, faturamento.markFailed, { 'execucaoId.$': '$.execucaoId', 'erro.$': '$.erro' }).next(
    new sfn.Fail(steps, S.failed, { error: 'FaturamentoFalhou', cause: 'The billing run failed; see the run record and the task logs.' }),
  );
  // A ListShards failure has only the execution's input: an admin's run carries its id there, a scheduled one has none yet.
  // The execution's name too: a scheduled run records it, so a start that finds the run's execution gone takes the month's lock over.
  const list = invoke(S.list, faturamento.listShards, { 'input.$': '$', 'execucao.$': '$$.Execution.Name' }).addCatch(markFailed, { resultPath: '$.erro' });
  const one = invoke(S.one, faturamento.faturarShard, { 'shard.$': '$' }, false).addRetry(FATURAMENTO_RETRY);
  const each = new sfn.Map(steps, S.each, { itemsPath: '$.shards', maxConcurrency: 5, resultPath: '$.results' })
    .itemProcessor(one)
    .addCatch(markFailed, { resultPath: '$.erro' });
  const summarise = invoke(S.summarise, faturamento.summarise, { 'execucaoId.$': '$.execucaoId', results: sfn.JsonPath.listAt('$.results') });
  const definition = list.next(each).next(summarise).next(new sfn.Succeed(steps, S.done));

  const machine = new sfn.StateMachine(scope, faturamentoStateMachine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(definition),
    stateMachineType: sfn.StateMachineType.STANDARD,
    // functions/faturamento/service.ts DURACAO_MAXIMA_MS: a run "running" past this was interrupted.
    timeout: Duration.hours(1),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${faturamentoStateMachine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition (which step ran, how long, which failed), never the payloads: they carry
      // CNPJs and amounts, and the step's own function logs what it did.
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);

  scheduleMachine(scope, faturamentoStateMachine.id, machine, faturamentoStateMachine.schedule, 'Monthly billing run: on the 1st, the month before');
  return machine;
}
