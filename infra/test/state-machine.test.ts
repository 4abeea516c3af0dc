import { StateMachine } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { FATURAMENTO_STATES, REFERENCE_LOAD_STATES as S, SEFAZ_LOAD_STATES, localTaskBindings, stateMachineIds } from '../lib/state-machines';
import { faturamentoFunction, faturamentoStateMachine, httpFunctions, referenceLoadFunction, referenceLoadStateMachine, sefazLoadStateMachine } from '../lib/topology';
import { MARGEM_DA_TAREFA } from '../lib/constructs/lambda-task';
import { logicalIdOf, pathOf, resources, synth } from './synth';

/** A Lambda context as the runtime gives one (the task functions log under it). */
const CONTEXTO = { awsRequestId: 'teste', functionName: 'teste' } as never;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type State = { Type: string; Resource?: string; Parameters?: Record<string, Json>; Retry?: Json[]; ItemProcessor?: { ProcessorConfig?: { Mode?: string }; States: Record<string, State> }; [k: string]: unknown };
type Asl = { StartAt: string; States: Record<string, State>; TimeoutSeconds?: number; [k: string]: unknown };

const fakeArn = (logicalId: string) => `arn:aws:lambda:us-east-1:123456789012:function:${logicalId}`;

/** The synthesized definition with each Fn::GetAtt of a function replaced by a recognisable ARN. */
function definition(): { asl: Asl; raw: string } {
  const { api } = synth();
  const id = logicalIdOf(api, `PlacApi/${referenceLoadStateMachine.id}/Resource`);
  const join = resources(api, 'AWS::StepFunctions::StateMachine')[id]!.Properties!.DefinitionString as { 'Fn::Join': [string, Json[]] };
  const raw = join['Fn::Join'][1]
    .map((part) => (typeof part === 'string' ? part : fakeArn((part as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0])))
    .join(join['Fn::Join'][0]);
  return { asl: JSON.parse(raw) as Asl, raw };
}

describe('reference-load state machine', () => {
  const { api } = synth();
  const { asl, raw } = definition();
  const taskFn = fakeArn(logicalIdOf(api, `PlacApi/Functions/${referenceLoadFunction.id}/Resource`));

  it('is ListUfs → Map LoadEachUf (inline, LoadUf with Retry) → Summarise → Succeed', () => {
    expect(asl.StartAt).toBe(S.list);
    expect(asl.TimeoutSeconds).toBe(900);
    expect(asl.States[S.list]).toMatchObject({ Type: 'Task', Resource: taskFn, Parameters: { task: 'listUfs' }, Next: S.each });
    const map = asl.States[S.each]!;
    expect(map).toMatchObject({ Type: 'Map', ItemsPath: '$.ufs', MaxConcurrency: 5, ResultPath: '$.results', Next: S.summarise });
    expect(map.ItemProcessor!.ProcessorConfig).toEqual({ Mode: 'INLINE' });
    expect(map.ItemProcessor!.States[S.one]).toMatchObject({
      Type: 'Task',
      Resource: taskFn,
      Parameters: { task: 'loadUf', 'uf.$': '$' },
      // A payload its contract refuses is not sent again (ERROS_DEFINITIVOS), then the machine's own Retry.
      Retry: [{ ErrorEquals: ['EntradaInvalida', 'TarefaDesconhecida'], MaxAttempts: 0 }, { ErrorEquals: ['States.TaskFailed', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 }],
      End: true,
    });
    expect(asl.States[S.summarise]).toMatchObject({ Type: 'Task', Resource: taskFn, Parameters: { task: 'summarise', 'results.$': '$.results' }, Next: S.done });
    expect(asl.States[S.done]).toEqual({ Type: 'Succeed' });
  });

  it('uses nothing the local runner lacks: no ItemReader, JSONata or distributed Map', () => {
    expect(raw).not.toMatch(/ItemReader|ItemBatcher|ResultWriter|JSONata|DISTRIBUTED|"Iterator"/);
    expect(raw).not.toMatch(/arn:aws:states:::lambda:invoke/);
  });

  it('every machine logs every transition without the execution data, and traces', () => {
    const machines = Object.values(resources(api, 'AWS::StepFunctions::StateMachine'));
    expect(machines).toHaveLength(stateMachineIds.length);
    for (const machine of machines) {
      expect(machine.Properties).toMatchObject({
        StateMachineType: 'STANDARD',
        TracingConfiguration: { Enabled: true },
        LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false },
      });
    }
  });

  it('gives every Task of every machine its function\'s timeout plus the margin, so AWS and the twin give up at the same time (issue 42)', () => {
    const functions = resources(api, 'AWS::Lambda::Function');
    let seen = 0;
    for (const machine of Object.values(resources(api, 'AWS::StepFunctions::StateMachine'))) {
      const join = machine.Properties!.DefinitionString as { 'Fn::Join': [string, Json[]] };
      const text = join['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : `fn:${(part as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]}`)).join(join['Fn::Join'][0]);
      const visit = (states: Record<string, State>) => {
        for (const [name, state] of Object.entries(states)) {
          if (state.Type === 'Task') {
            const fn = functions[String(state.Resource).replace(/^fn:/, '')];
            expect(fn, `${pathOf(machine)} ${name}`).toBeDefined();
            expect(state.TimeoutSeconds, `${pathOf(machine)} ${name}`).toBe(Number(fn!.Properties!.Timeout) + MARGEM_DA_TAREFA.toSeconds());
            seen++;
          }
          if (state.ItemProcessor) visit(state.ItemProcessor.States);
        }
      };
      visit((JSON.parse(text) as Asl).States);
    }
    expect(seen).toBeGreaterThanOrEqual(stateMachineIds.length * 2);
  });

  it('binds every Task state to the FunctionSpec its Resource points at (localTaskBindings)', () => {
    const machines = Object.values(resources(api, 'AWS::StepFunctions::StateMachine')).map((m) => pathOf(m).split('/').at(-2));
    expect(machines).toEqual([...stateMachineIds]);
    const tasks: Record<string, string> = {};
    const visit = (states: Record<string, State>) => {
      for (const [name, state] of Object.entries(states)) {
        if (state.Type === 'Task') tasks[name] = state.Resource!;
        if (state.ItemProcessor) visit(state.ItemProcessor.States);
      }
    };
    visit(asl.States);
    const bindings = localTaskBindings[referenceLoadStateMachine.id];
    expect(Object.keys(tasks).sort()).toEqual(Object.keys(bindings).sort());
    for (const [state, functionId] of Object.entries(bindings)) {
      expect(tasks[state], state).toBe(fakeArn(logicalIdOf(api, `PlacApi/Functions/${functionId}/Resource`)));
    }
  });

  it('is started monthly by EventBridge Scheduler in Bahia time, with a role limited to that machine', () => {
    const machineId = logicalIdOf(api, `PlacApi/${referenceLoadStateMachine.id}/Resource`);
    const schedules = Object.values(resources(api, 'AWS::Scheduler::Schedule')).filter(
      (s) => JSON.stringify((s.Properties as { Target?: unknown }).Target).includes(`"Ref":"${machineId}"`),
    );
    expect(schedules).toHaveLength(1);
    expect(schedules[0]!.Properties).toMatchObject({
      ScheduleExpression: 'cron(0 1 1 * ? *)',
      ScheduleExpressionTimezone: 'America/Bahia',
      State: 'ENABLED',
      Target: { Arn: { Ref: machineId } },
    });
    // The schedule's role may start that machine and send to the schedule's own dead-letter queue.
    const deadLetters = logicalIdOf(api, `PlacApi/${referenceLoadStateMachine.id}ScheduleDeadLetters/Resource`);
    expect(schedules[0]!.Properties).toMatchObject({ Target: { DeadLetterConfig: { Arn: { 'Fn::GetAtt': [deadLetters, 'Arn'] } } } });
    api.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: machineId } },
          { Action: 'sqs:SendMessage', Effect: 'Allow', Resource: { 'Fn::GetAtt': [deadLetters, 'Arn'] } },
        ],
      },
    });
  });

  it('runs in aws-local-stepfunctions: fans out over the UFs, retries a failed UF and summarises', async () => {
    const attempts = new Map<string, number>();
    const machine = new StateMachine(asl as never, { validationOptions: { checkArn: false } });
    const execution = machine.run(
      { trigger: 'test' },
      {
        overrides: {
          retryIntervalOverrides: { [S.one]: 0 },
          taskResourceLocalHandlers: {
            [S.list]: async (input: Json) => {
              expect(input).toEqual({ task: 'listUfs' });
              return { ufs: ['BA', 'SE', 'AL'] };
            },
            [S.one]: async (input: Json) => {
              const uf = (input as { uf: string }).uf;
              const n = (attempts.get(uf) ?? 0) + 1;
              attempts.set(uf, n);
              if (uf === 'SE' && n === 1) throw new Error('throttled');
              return { uf, municipios: uf.length };
            },
            [S.summarise]: async (input: Json) => ({ loaded: ((input as { results: unknown[] }).results ?? []).length, input }),
          } as never,
        },
      },
    );
    const output = (await execution.result) as { loaded: number; input: { task: string; results: unknown[] } };
    expect(output.loaded).toBe(3);
    expect(output.input.task).toBe('summarise');
    expect(output.input.results).toEqual([
      { uf: 'BA', municipios: 2 },
      { uf: 'SE', municipios: 2 },
      { uf: 'AL', municipios: 2 },
    ]);
    expect(attempts.get('SE')).toBe(2);
    expect(attempts.get('BA')).toBe(1);
  });
});

describe('Sefaz load state machine', () => {
  const { api } = synth();
  const machineId = logicalIdOf(api, `PlacApi/${sefazLoadStateMachine.id}/Resource`);
  const join = resources(api, 'AWS::StepFunctions::StateMachine')[machineId]!.Properties!.DefinitionString as { 'Fn::Join': [string, Json[]] };
  const raw = join['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'arn:task')).join(join['Fn::Join'][0]);
  const asl = JSON.parse(raw) as Asl;

  it('is ListSefaz → Map LoadEachSefaz (kinds) → Map LoadEachStream (UFs) → LoadSefaz with Retry → Summarise', () => {
    expect(asl.StartAt).toBe(SEFAZ_LOAD_STATES.list);
    expect(asl.TimeoutSeconds).toBe(900);
    expect(asl.States[SEFAZ_LOAD_STATES.list]).toMatchObject({ Type: 'Task', Parameters: { task: 'listSefaz' }, Next: SEFAZ_LOAD_STATES.each });
    const kinds = asl.States[SEFAZ_LOAD_STATES.each]!;
    expect(kinds).toMatchObject({ Type: 'Map', ItemsPath: '$.lotes', ResultPath: '$.results', Next: SEFAZ_LOAD_STATES.summarise });
    const streams = kinds.ItemProcessor!.States[SEFAZ_LOAD_STATES.eachStream]!;
    expect(streams).toMatchObject({ Type: 'Map', ItemsPath: '$.cargas', End: true });
    expect(streams.ItemProcessor!.States[SEFAZ_LOAD_STATES.one]).toMatchObject({
      Parameters: { task: 'loadSefaz', 'carga.$': '$' },
      Retry: [{ ErrorEquals: ['EntradaInvalida', 'TarefaDesconhecida'], MaxAttempts: 0 }, { MaxAttempts: 2 }],
    });
    expect(asl.States[SEFAZ_LOAD_STATES.summarise]).toMatchObject({ Parameters: { task: 'summarise', 'results.$': '$.results' } });
    // What the twin's runner (aws-local-stepfunctions) runs: Inline Maps and JSONPath only.
    expect(raw).not.toMatch(/ItemReader|ItemBatcher|ResultWriter|JSONata|DISTRIBUTED|"Iterator"/);
  });

  it('can run every stream at once: no Map holds more streams than it runs at a time, nor more than an Inline Map runs (40)', async () => {
    // listSefaz with every UF active: the lists the Maps get.
    const anterior = process.env.PLAC_SEFAZ_UFS;
    delete process.env.PLAC_SEFAZ_UFS;
    const { handler } = await import('../../functions/fate/loader');
    const { lotes } = (await handler({ task: 'listSefaz' }, CONTEXTO)) as { lotes: { cargas: unknown[] }[] };
    if (anterior !== undefined) process.env.PLAC_SEFAZ_UFS = anterior;
    expect(lotes.reduce((s, l) => s + l.cargas.length, 0)).toBe(54);

    // Each Map iterating the streams, outermost first, with the largest list it is given.
    const aoMesmoTempo = (map: State) => {
      // Step Functions runs an Inline Map's iterations at most 40 at a time; MaxConcurrency 0 means "as many as allowed".
      expect(map.ItemProcessor!.ProcessorConfig?.Mode ?? 'INLINE').toBe('INLINE');
      const max = typeof map.MaxConcurrency === 'number' && map.MaxConcurrency > 0 ? map.MaxConcurrency : Infinity;
      return Math.min(max, 40);
    };
    const kinds = asl.States[SEFAZ_LOAD_STATES.each]!;
    const streams = kinds.ItemProcessor!.States[SEFAZ_LOAD_STATES.eachStream]!;
    expect(aoMesmoTempo(kinds)).toBeGreaterThanOrEqual(lotes.length);
    expect(aoMesmoTempo(streams)).toBeGreaterThanOrEqual(Math.max(...lotes.map((l) => l.cargas.length)));
    // And no other Map on the way to LoadSefaz that could queue them.
    const maps: string[] = [];
    const visit = (states: Record<string, State>) => {
      for (const [name, state] of Object.entries(states)) {
        if (state.Type === 'Map') maps.push(name);
        if (state.ItemProcessor) visit(state.ItemProcessor.States);
      }
    };
    visit(asl.States);
    expect(maps).toEqual([SEFAZ_LOAD_STATES.each, SEFAZ_LOAD_STATES.eachStream]);
  });

  it('is capped in the twin to about the local Map concurrency in all, not per Map (both kinds at once, the cap shared)', async () => {
    const { capMapConcurrency } = await import('../local/state-machines');
    const capped = capMapConcurrency(asl, 5);
    const kinds = capped.States[SEFAZ_LOAD_STATES.each]!;
    expect(kinds.MaxConcurrency).toBe(2);
    expect(kinds.ItemProcessor!.States[SEFAZ_LOAD_STATES.eachStream]!.MaxConcurrency).toBe(3);
  });

  it('runs in aws-local-stepfunctions with all 54 streams loading at the same time, and summarises them all', async () => {
    const { handler } = await import('../../functions/fate/loader');
    let emCurso = 0;
    let maximo = 0;
    let liberar!: () => void;
    const todas = new Promise<void>((resolve) => (liberar = resolve));
    const machine = new StateMachine(asl as never, { validationOptions: { checkArn: false } });
    const execucao = 'arn:aws:states:us-east-1:123456789012:execution:SefazLoad:teste';
    const donos = new Set<string>();
    const execution = machine.run(
      { trigger: 'test' },
      {
        // As Step Functions gives it: every stream's task names this execution, its leases' owner.
        context: { Execution: { Id: execucao, Name: 'teste' } } as never,
        overrides: {
          taskResourceLocalHandlers: {
            [SEFAZ_LOAD_STATES.list]: async () => {
              const anterior = process.env.PLAC_SEFAZ_UFS;
              delete process.env.PLAC_SEFAZ_UFS;
              try {
                return (await handler({ task: 'listSefaz' }, CONTEXTO)) as Json;
              } finally {
                if (anterior !== undefined) process.env.PLAC_SEFAZ_UFS = anterior;
              }
            },
            [SEFAZ_LOAD_STATES.one]: async (input: Json) => {
              const { uf, fluxo } = (input as { carga: { uf: string; fluxo: string } }).carga;
              donos.add((input as { execucao: string }).execucao);
              maximo = Math.max(maximo, ++emCurso);
              // Every stream waits until all 54 are running (or a second passes): a queued one would never let the others go.
              if (emCurso === 54) liberar();
              await Promise.race([todas, new Promise((resolve) => setTimeout(resolve, 1000))]);
              emCurso--;
              return { uf, fluxo, situacao: 'carregada', fate: 1, eventos: 0, resumos: 0, erros: 0, repetidos: 0 };
            },
            [SEFAZ_LOAD_STATES.summarise]: async (input: Json) => (await handler(input as never, CONTEXTO)) as Json,
          } as never,
        },
      },
    );
    const output = (await execution.result) as { ufs: number; fate: number };
    expect(maximo).toBe(54);
    expect(output).toMatchObject({ ufs: 27, fate: 54 });
    expect([...donos]).toEqual([execucao]);
  });

  it('has no schedule until the Sefaz service is configured (context sefazUrl and sefazCredentialsSecretArn)', () => {
    const schedules = Object.values(resources(api, 'AWS::Scheduler::Schedule')).filter((s) =>
      JSON.stringify((s.Properties as { Target?: unknown }).Target).includes(`"Ref":"${machineId}"`),
    );
    expect(schedules).toHaveLength(0);
    expect(sefazLoadStateMachine.schedule).toEqual({ expression: 'cron(0/5 * * * ? *)', timezone: 'America/Bahia' });
  });
});

describe('Sefaz load, configured', () => {
  const secretArn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:plac/sefaz-ecnpj-AbCdEf';
  const { api } = synth({ sefazUrl: 'https://sefaz.example.gov.br/dfe', sefazCredentialsSecretArn: secretArn, sefazUfs: 'BA,SE' });

  it('is started every 5 minutes, and only the loader and the load-control API learn the Sefaz URL and read its certificate', () => {
    const machineId = logicalIdOf(api, `PlacApi/${sefazLoadStateMachine.id}/Resource`);
    const schedules = Object.values(resources(api, 'AWS::Scheduler::Schedule')).filter((s) =>
      JSON.stringify((s.Properties as { Target?: unknown }).Target).includes(`"Ref":"${machineId}"`),
    );
    expect(schedules.map((s) => (s.Properties as { ScheduleExpression: string }).ScheduleExpression)).toEqual(['cron(0/5 * * * ? *)']);
    const withUrl = Object.entries(resources(api, 'AWS::Lambda::Function'))
      .filter(([, f]) => JSON.stringify(f.Properties).includes('PLAC_SEFAZ_URL'))
      .map(([, f]) => pathOf(f).split('/').at(-2));
    expect(withUrl.sort()).toEqual(['FateApi', 'SefazLoadTask']);
    api.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { PLAC_SEFAZ_URL: 'https://sefaz.example.gov.br/dfe', PLAC_SEFAZ_CREDENTIALS_ARN: secretArn, PLAC_SEFAZ_UFS: 'BA,SE' } },
    });
  });
});

describe('billing run state machine', () => {
  const { api } = synth();
  const F = FATURAMENTO_STATES;
  const machineId = logicalIdOf(api, `PlacApi/${faturamentoStateMachine.id}/Resource`);
  const taskFn = fakeArn(logicalIdOf(api, `PlacApi/Functions/${faturamentoFunction.id}/Resource`));
  const join = resources(api, 'AWS::StepFunctions::StateMachine')[machineId]!.Properties!.DefinitionString as { 'Fn::Join': [string, Json[]] };
  const raw = join['Fn::Join'][1]
    .map((part) => (typeof part === 'string' ? part : fakeArn((part as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0])))
    .join(join['Fn::Join'][0]);
  const asl = JSON.parse(raw) as Asl;

  it('is ListShards → Map BillEachShard (BillShard with Retry) → Summarise → Done, with MarkFailed → Failed on the Catch', () => {
    expect(asl.StartAt).toBe(F.list);
    expect(asl.TimeoutSeconds).toBe(3600);
    expect(asl.States[F.list]).toMatchObject({ Type: 'Task', Resource: taskFn, Parameters: { task: 'listShards', 'input.$': '$', 'execucao.$': '$$.Execution.Name' }, Next: F.each });
    expect(asl.States[F.list]!.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.erro', Next: F.markFailed }]);
    const map = asl.States[F.each]!;
    expect(map).toMatchObject({ Type: 'Map', ItemsPath: '$.shards', MaxConcurrency: 5, ResultPath: '$.results', Next: F.summarise });
    expect(map.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.erro', Next: F.markFailed }]);
    expect(map.ItemProcessor!.States[F.one]).toMatchObject({
      Type: 'Task',
      Resource: taskFn,
      Parameters: { task: 'faturarShard', 'shard.$': '$' },
      Retry: [{ ErrorEquals: ['EntradaInvalida', 'TarefaDesconhecida'], MaxAttempts: 0 }, { ErrorEquals: ['States.TaskFailed', 'States.Timeout', 'Lambda.ServiceException', 'Lambda.TooManyRequestsException'], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 }],
    });
    expect(asl.States[F.summarise]).toMatchObject({ Parameters: { task: 'summarise', 'execucaoId.$': '$.execucaoId', 'results.$': '$.results' }, Next: F.done });
    expect(asl.States[F.markFailed]).toMatchObject({ Parameters: { task: 'markFailed', 'execucaoId.$': '$.execucaoId', 'erro.$': '$.erro' }, Next: F.failed });
    expect(asl.States[F.failed]).toMatchObject({ Type: 'Fail' });
    expect(raw).not.toMatch(/ItemReader|ItemBatcher|JSONata|DISTRIBUTED|arn:aws:states:::lambda:invoke/);
  });

  it('is started at 02:00 on the 1st of each month, Bahia time, and by the billing API only', () => {
    const schedules = Object.values(resources(api, 'AWS::Scheduler::Schedule')).filter((s) =>
      JSON.stringify((s.Properties as { Target?: unknown }).Target).includes(`"Ref":"${machineId}"`),
    );
    expect(schedules.map((s) => s.Properties)).toMatchObject([{ ScheduleExpression: 'cron(0 2 1 * ? *)', ScheduleExpressionTimezone: 'America/Bahia' }]);
    const withArn = Object.entries(resources(api, 'AWS::Lambda::Function'))
      .filter(([, f]) => JSON.stringify(f.Properties).includes('FATURAMENTO_STATE_MACHINE_ARN'))
      .map(([, f]) => pathOf(f).split('/').at(-2));
    expect(withArn).toEqual([httpFunctions.find((f) => f.entry === 'faturamento/handler.ts')!.id]);
  });
});
