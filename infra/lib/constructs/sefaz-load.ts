/**
 * The Sefaz load: ListSefaz → Map LoadEachSefaz over the streams' kinds (goods, transport) → Map
 * LoadEachStream over that kind's UFs → LoadSefaz (one UF's one stream, under its own lease, pulling
 * until caught up or its time budget ends, with Retry) → Summarise, started every 5 minutes by
 * EventBridge Scheduler. A retried LoadSefaz resumes from the stream's committed NSU
 * (functions/fate/carga.ts), so a retry never skips nor repeats; a stream whose previous run is still
 * loading is left to it, so a São Paulo backlog never holds up Acre.
 *
 * All 54 streams at once (issue 36). An Inline Map runs at most 40 iterations at a time, whatever its
 * MaxConcurrency: one Map over the 54 streams left 14 of them (PR through DF) waiting for a free slot,
 * a whole run behind when the others used their budget. So the streams are two Maps deep: the outer
 * one over the 2 kinds, each inner one over its 27 UFs, every Map within the 40 (2 × 27 at once).
 * Both stay Inline (JSONPath, no ItemReader), so aws-local-stepfunctions runs the very same definition
 * in the local twin; a Distributed Map would have needed a model of its own there.
 *
 * The machine is the fan-out shape of constructs/fan-out-load.ts (same log group, schedule, dead
 * letters and role acknowledgement) with its Map nested; it is built here because that construct
 * has a single Map.
 */
import { cargaSefaz, type TarefaContract } from '@plac/shared/contracts/tarefas';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { FLUXOS, UFS } from '@plac/shared/domain';
import { SEFAZ_LOAD_STATES } from '../state-machines';
import { sefazLoadStateMachine } from '../topology';
import { lambdaTask, type CamposDaTarefa } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';
import { scheduleMachine } from './machine-schedule';

/** Step Functions' limit: an Inline Map runs at most this many iterations at a time, whatever its MaxConcurrency. */
export const INLINE_MAP_ITERATIONS_AT_ONCE = 40;

/** The outer Map's items: one per stream kind (functions/fate/loader.ts `listSefaz` groups them so). */
export const SEFAZ_LOAD_KINDS = FLUXOS.length;
/** The inner Map's items: one per UF of that kind. */
export const SEFAZ_LOAD_UFS = UFS.length;
/** Every stream of every UF: all of them loading at once, none queued behind another. */
export const SEFAZ_LOAD_STREAMS = SEFAZ_LOAD_KINDS * SEFAZ_LOAD_UFS;

export const SEFAZ_LOAD_RETRY = {
  errors: ['States.TaskFailed', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'],
  interval: Duration.seconds(5),
  maxAttempts: 2,
  backoffRate: 2,
};

export function sefazLoadMachine(scope: Construct, task: lambda.Function, options: { scheduled: boolean }): sfn.StateMachine {
  const S = SEFAZ_LOAD_STATES;
  const id = sefazLoadStateMachine.id;
  // States get their names from their construct ids; a scope of their own keeps those ids free.
  const steps = new Construct(scope, `${id}Steps`);
  const invoke = <C extends TarefaContract>(name: string, contrato: C, campos: CamposDaTarefa<C>, defaultRetry = true) =>
    lambdaTask(steps, name, task, contrato, campos, { retryOnServiceExceptions: defaultRetry });

  const list = invoke(S.list, cargaSefaz.listSefaz, {});
  // The per-stream task has the explicit retry policy instead of CDK's default service-exception retry.
  // The execution owns each stream's lease (functions/fate/loader.ts), so a Retry resumes at once.
  const one = invoke(S.one, cargaSefaz.loadSefaz, { carga: sfn.JsonPath.stringAt('$'), execucao: sfn.JsonPath.stringAt('$$.Execution.Id') }, false).addRetry(SEFAZ_LOAD_RETRY);
  // Each Map's MaxConcurrency is its whole list (27 UFs of a kind; the 2 kinds), both under the 40 an
  // Inline Map runs at once: infra/test/state-machine.test.ts checks it against listSefaz's answer.
  const streams = new sfn.Map(steps, S.eachStream, { itemsPath: '$.cargas', maxConcurrency: SEFAZ_LOAD_UFS }).itemProcessor(one);
  const kinds = new sfn.Map(steps, S.each, { itemsPath: '$.lotes', maxConcurrency: SEFAZ_LOAD_KINDS, resultPath: '$.results' }).itemProcessor(streams);
  // `results` is one list per kind: the summary flattens it.
  const summarise = invoke(S.summarise, cargaSefaz.summarise, { results: sfn.JsonPath.listAt('$.results') });
  const definition = list.next(kinds).next(summarise).next(new sfn.Succeed(steps, S.done));

  const machine = new sfn.StateMachine(scope, id, {
    definitionBody: sfn.DefinitionBody.fromChainable(definition),
    stateMachineType: sfn.StateMachineType.STANDARD,
    // Two attempts of one stream's run (its budget and lease, functions/fate/carga.ts) and the retry's wait.
    timeout: Duration.minutes(15),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition, never the payloads: they carry CNPJs and amounts.
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);

  // No schedule until the Sefaz service is configured (context sefazUrl and sefazCredentialsSecretArn).
  if (!options.scheduled) return machine;
  scheduleMachine(scope, id, machine, sefazLoadStateMachine.schedule, 'Scheduled load of the documents each active Sefaz distributes (NSU sequence)');
  return machine;
}
