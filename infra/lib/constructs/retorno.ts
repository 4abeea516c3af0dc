/**
 * The bank-return import's job (functions/faturamento/retorno/run.ts, docs/faturamento.md "Payments"):
 * Processar (a step: batches of the file's payments for up to 240 s, each batch written and counted
 * once) → the Choice Concluido, back to Processar until the import is closed → Done. Started by the
 * faturamento API (grant retorno:start) when a file's payments do not fit in the route's time, named
 * after the import and its attempt. Everything a step needs is in the import's item and the file kept in
 * the documents bucket, so a step retried after a crash resumes from the last counted batch.
 */
import { retorno } from '@plac/shared/contracts/tarefas';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { RETORNO_STATES as S } from '../state-machines';
import { retornoStateMachine } from '../topology';
import { FATURAMENTO_RETRY } from './faturamento';
import { lambdaTask } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';

export function retornoMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  const steps = new Construct(scope, `${retornoStateMachine.id}Steps`);
  const step = lambdaTask(steps, S.step, task, retorno.passo, { 'importacaoId.$': '$.importacaoId', 'token.$': '$.token' }, { retryOnServiceExceptions: false }).addRetry(FATURAMENTO_RETRY);
  const done = new sfn.Choice(steps, S.done).when(sfn.Condition.booleanEquals('$.concluida', true), new sfn.Succeed(steps, S.finished)).otherwise(step);
  const machine = new sfn.StateMachine(scope, retornoStateMachine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(step.next(done)),
    stateMachineType: sfn.StateMachineType.STANDARD,
    // 20,000 payments (the largest file) at a few hundred a second: minutes; an hour bounds a stuck loop.
    timeout: Duration.hours(1),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${retornoStateMachine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition (which step ran, how long, which failed), never the payloads: they carry
      // CNPJs and amounts, and the step's own function logs what it did.
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);
  return machine;
}
