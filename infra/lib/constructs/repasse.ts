/**
 * The repasse run (docs/repasse.md): Preparar (the month's paid invoices EM_PROCESSAMENTO) →
 * Distribuir (the shares per origin UF and beneficiary, their totals and transfer orders recorded;
 * the invoices PREVIA_ANALISADA after a simulation, DISTRIBUIDO after the definitive run) → Done, with
 * a Catch on both to MarcarFalha (the run and its invoices FALHA) → Failed. No Map and no JSONata, so
 * the same definition runs in AWS and in the twin. Started by the rateio API (grant repasse:start),
 * the run already recorded there, once per month for the definitive one.
 */
import { repasse, type TarefaContract } from '@plac/shared/contracts/tarefas';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { REPASSE_STATES as S } from '../state-machines';
import { repasseStateMachine } from '../topology';
import { FATURAMENTO_RETRY } from './faturamento';
import { lambdaTask, type CamposDaTarefa } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';

export function repasseMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  const steps = new Construct(scope, `${repasseStateMachine.id}Steps`);
  const invoke = <C extends TarefaContract>(name: string, contrato: C, campos: CamposDaTarefa<C>, resultPath?: string) =>
    lambdaTask(steps, name, task, contrato, campos, { retryOnServiceExceptions: false, ...(resultPath ? { resultPath } : {}) });

  const markFailed = invoke(S.markFailed, repasse.marcarFalha, { 'input.$': '$', 'erro.$': '$.erro' }).next(
    new sfn.Fail(steps, S.failed, { error: 'RepasseFalhou', cause: 'The repasse run failed; see the run record and the task logs.' }),
  );
  const prepare = invoke(S.prepare, repasse.preparar, { 'input.$': '$' }, '$.preparado').addRetry(FATURAMENTO_RETRY).addCatch(markFailed, { resultPath: '$.erro' });
  const distribute = invoke(S.distribute, repasse.distribuir, { input: { 'mes.$': '$.mes', 'tipo.$': '$.tipo', 'execucaoId.$': '$.execucaoId' } }, '$.resultado')
    .addRetry(FATURAMENTO_RETRY)
    .addCatch(markFailed, { resultPath: '$.erro' });
  const definition = prepare.next(distribute).next(new sfn.Succeed(steps, S.done));

  const machine = new sfn.StateMachine(scope, repasseStateMachine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(definition),
    stateMachineType: sfn.StateMachineType.STANDARD,
    timeout: Duration.minutes(30),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${repasseStateMachine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition (which step ran, how long, which failed), never the payloads: they carry
      // CNPJs and amounts, and the step's own function logs what it did.
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);
  return machine;
}
