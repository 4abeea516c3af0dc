/**
 * The Sefaz load: ListSefaz → Map LoadEachSefaz (5 UFs at a time; each pulls its Sefaz until caught
 * up, with Retry) → Summarise, started every 5 minutes by EventBridge Scheduler. A retried LoadSefaz
 * resumes from the UF's committed NSU (functions/fate/carga.ts), so a retry never skips nor repeats.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { SEFAZ_LOAD_STATES } from '../state-machines';
import { sefazLoadStateMachine } from '../topology';
import { fanOutLoad } from './fan-out-load';

export const SEFAZ_LOAD_RETRY = {
  errors: ['States.TaskFailed', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'],
  interval: Duration.seconds(5),
  maxAttempts: 2,
  backoffRate: 2,
};

export function sefazLoadMachine(scope: Construct, task: lambda.IFunction, options: { scheduled: boolean }): sfn.StateMachine {
  return fanOutLoad(scope, task, {
    scheduled: options.scheduled,
    machine: sefazLoadStateMachine,
    description: 'Scheduled load of the documents each active Sefaz distributes (NSU sequence)',
    states: SEFAZ_LOAD_STATES,
    tasks: { list: 'listSefaz', each: 'loadSefaz', summarise: 'summarise' },
    itemsField: 'ufs',
    itemField: 'uf',
    maxConcurrency: 5,
    // Below the next start: two runs of the same UF would only repeat each other's reads.
    timeout: Duration.minutes(4),
    retry: SEFAZ_LOAD_RETRY,
  });
}
