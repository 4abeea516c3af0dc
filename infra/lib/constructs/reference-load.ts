/**
 * The reference-data load: ListUfs → Map LoadEachUf (5 at a time, with Retry) → Summarise, started
 * monthly by EventBridge Scheduler in Bahia time.
 */
import { cargaReferencia } from '@plac/shared/contracts/tarefas';
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { REFERENCE_LOAD_STATES } from '../state-machines';
import { referenceLoadStateMachine } from '../topology';
import { fanOutLoad } from './fan-out-load';

export const REFERENCE_LOAD_RETRY = {
  errors: ['States.TaskFailed', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'],
  interval: Duration.seconds(2),
  maxAttempts: 3,
  backoffRate: 2,
};

export function referenceLoadMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  return fanOutLoad(scope, task, {
    machine: referenceLoadStateMachine,
    description: 'Monthly refresh of the UF and municipality reference data',
    states: REFERENCE_LOAD_STATES,
    tasks: { list: cargaReferencia.listUfs, each: cargaReferencia.loadUf, summarise: cargaReferencia.summarise },
    itemsField: 'ufs',
    itemField: 'uf',
    maxConcurrency: 5,
    timeout: Duration.minutes(15),
    retry: REFERENCE_LOAD_RETRY,
  });
}
