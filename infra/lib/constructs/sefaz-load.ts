/**
 * The Sefaz load: ListSefaz → Map LoadEachSefaz (every UF's goods and transport streams at once, each
 * under its own lease, pulling until caught up or its time budget ends, with Retry) → Summarise,
 * started every 5 minutes by EventBridge Scheduler. A retried LoadSefaz resumes from the stream's
 * committed NSU (functions/fate/carga.ts), so a retry never skips nor repeats; a stream whose previous
 * run is still loading is left to it, so a São Paulo backlog never holds up Acre.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { SEFAZ_LOAD_STATES } from '../state-machines';
import { sefazLoadStateMachine } from '../topology';
import { fanOutLoad } from './fan-out-load';

/** Every stream of every UF: the Map's concurrency, so no stream queues behind another. */
export const SEFAZ_LOAD_STREAMS = 27 * 2;

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
    itemsField: 'cargas',
    itemField: 'carga',
    // 27 UFs × 2 streams: none waits for another's turn.
    maxConcurrency: SEFAZ_LOAD_STREAMS,
    // Two attempts of one stream's run (its budget and lease, functions/fate/carga.ts) and the retry's wait.
    timeout: Duration.minutes(15),
    retry: SEFAZ_LOAD_RETRY,
  });
}
