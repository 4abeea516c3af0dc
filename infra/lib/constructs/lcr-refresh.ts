/**
 * The CRLs kept for every container (functions/auth/lcr-atualizacao.ts): ListarLcrs → Map
 * AtualizarCadaLcr (5 at a time, with Retry) → Resumir, started every 15 minutes by EventBridge
 * Scheduler. A CRL's task writes only what changed, so a retry is harmless.
 */
import { atualizacaoLcr } from '@plac/shared/contracts/tarefas';
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { LCR_REFRESH_STATES } from '../state-machines';
import { lcrRefreshStateMachine } from '../topology';
import { fanOutLoad } from './fan-out-load';

export const LCR_REFRESH_RETRY = {
  errors: ['States.TaskFailed', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'],
  interval: Duration.seconds(5),
  maxAttempts: 2,
  backoffRate: 2,
};

export function lcrRefreshMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  return fanOutLoad(scope, task, {
    machine: lcrRefreshStateMachine,
    description: 'Every 15 minutes: the ICP-Brasil CRLs fetched, checked and kept for every container',
    states: LCR_REFRESH_STATES,
    tasks: { list: atualizacaoLcr.listar, each: atualizacaoLcr.atualizar, summarise: atualizacaoLcr.resumir },
    itemsField: 'urls',
    itemField: 'url',
    maxConcurrency: 5,
    // Under the schedule's period: a run never overlaps the next.
    timeout: Duration.minutes(14),
    retry: LCR_REFRESH_RETRY,
  });
}
