/**
 * Step Functions, locally: the state machines are the ones the CDK app synthesizes (bundling
 * skipped), their intrinsic functions resolved, and every Task state that invokes one of our Lambda
 * functions bound to that function's handler module, run by aws-local-stepfunctions.
 */
import { randomUUID } from 'node:crypto';
import { StateMachine } from 'aws-local-stepfunctions';
import { allFunctions, type FunctionSpec } from '../lib/topology';
import { withSynthesizedAssembly } from '../lib/app';
import { localFunction, localFunctionArn, type Invoke } from './lambda-runtime';

/** The execution's events (StateEntered, StateRetried, MapIterationSucceeded, …). */
export type EventLog = { type: string } & Record<string, unknown>;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, Json>; Metadata?: Record<string, Json> }> };
type AslState = { Type: string; Resource?: string; Parameters?: Record<string, Json>; States?: Record<string, AslState> } & {
  ItemProcessor?: { States: Record<string, AslState> };
  Iterator?: { States: Record<string, AslState> };
  Branches?: { States: Record<string, AslState> }[];
};
type Asl = { States: Record<string, AslState> } & Record<string, Json | unknown>;

export interface LocalStateMachine {
  /** The construct id, e.g. ReferenceLoad. */
  id: string;
  definition: Asl;
  /** Runs an execution to its end; `wrap` lets a test put a fault in front of a task's function. */
  /** `name`: the execution's name, which the definition reads as `$$.Execution.Name` (a new UUID when not given). */
  execute(input: Json, options?: { wrap?: (state: string, invoke: Invoke) => Invoke; name?: string }): Promise<{ output: Json; events: EventLog[] }>;
}

/**
 * The app's templates, synthesized in-process without bundling. Without CloudFormation Validate: the
 * twin reads the templates, it does not judge them (the unit tests and `cdk synth` do), and the check
 * took about 8 s of every twin's start.
 */
export function synthesizeTemplates(): Template[] {
  return withSynthesizedAssembly({ 'aws:cdk:bundling-stacks': [] }, (assembly) => assembly.stacks.map((stack) => stack.template as Template), { validate: false });
}

export function localStateMachines(templates = synthesizeTemplates()): Map<string, LocalStateMachine> {
  const machines = new Map<string, LocalStateMachine>();
  for (const template of templates) {
    for (const [logicalId, resource] of Object.entries(template.Resources)) {
      if (resource.Type !== 'AWS::StepFunctions::StateMachine') continue;
      const id = constructId(resource.Metadata);
      const definition = JSON.parse(resolve(resource.Properties?.DefinitionString ?? null, template) as string) as Asl;
      const tasks = taskBindings(definition, template);
      // Checked once, at the twin's start: a StateMachine validates its definition when made (an Ajv
      // schema compiled each time, 7 of 224 s of an integration run when it was made per execution).
      // Each Task's TimeoutSeconds is the definition's own (infra/lib/constructs/lambda-task.ts).
      const machine = new StateMachine(capMapConcurrency(definition) as never, { validationOptions: { checkArn: false } });
      machines.set(id ?? logicalId, {
        id: id ?? logicalId,
        definition,
        async execute(input, options = {}) {
          const handlers: Record<string, (input: Json) => Promise<Json>> = {};
          for (const [state, binding] of Object.entries(tasks)) {
            const invoke = options.wrap ? options.wrap(state, binding.invoke) : binding.invoke;
            handlers[state] = binding.viaInvokeApi
              ? async (taskInput) => ({ Payload: (await invoke((taskInput as { Payload?: Json }).Payload ?? null)) as Json })
              : async (taskInput) => (await invoke(taskInput)) as Json;
          }
          const name = options.name ?? randomUUID();
          const context = { Execution: { Id: `${id ?? logicalId}:${name}`, Name: name, StartTime: new Date().toISOString(), Input: input } };
          const execution = machine.run(input, { overrides: { taskResourceLocalHandlers: handlers as never }, context: context as never });
          const events: EventLog[] = [];
          const collecting = (async () => {
            for await (const event of execution.eventLogs) events.push(event as unknown as EventLog);
          })();
          const output = (await execution.result) as Json;
          await collecting;
          return { output, events };
        },
      });
    }
  }
  return machines;
}

/**
 * In AWS each Map iteration is a Lambda of its own; in the twin they all share one Node process and one
 * DynamoDB Local on a laptop. The Sefaz load's 54 streams at once would starve the portal's requests
 * there, so the twin runs about PLAC_LOCAL_MAP_CONCURRENCY (default 5) iterations at a time in all: an
 * innermost Map that many; a Map whose iterations hold a Map (the Sefaz load's 2 kinds over their
 * UFs' streams) runs its iterations at once, each inner Map a share of the cap (2 × 3 with 5), so
 * nesting neither multiplies the cap nor runs the kinds one after the other (a kind's slowest stream,
 * a stalled UF waiting out its budget, would then hold up every stream of the other kind).
 */
export function capMapConcurrency<T>(definition: T, cap = Number(process.env.PLAC_LOCAL_MAP_CONCURRENCY ?? 5)): T {
  const holdsMap = (node: unknown): boolean =>
    Array.isArray(node) ? node.some(holdsMap) : !!node && typeof node === 'object' && Object.entries(node).some(([k, v]) => (k === 'Type' && v === 'Map') || holdsMap(v));
  const walk = (node: unknown, capAqui: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, capAqui));
    if (!node || typeof node !== 'object') return node;
    const o = node as Record<string, unknown>;
    if (o.Type !== 'Map') return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v, capAqui)]));
    const max = typeof o.MaxConcurrency === 'number' && o.MaxConcurrency > 0 ? o.MaxConcurrency : capAqui;
    const limite = Math.max(1, Math.min(max, capAqui));
    // What each iteration may run inside: the cap shared by the iterations running at once.
    const dentro = holdsMap(o.ItemProcessor ?? o.Iterator) ? Math.max(1, Math.ceil(capAqui / limite)) : capAqui;
    const out = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === 'ItemProcessor' || k === 'Iterator' ? walk(v, dentro) : walk(v, capAqui)]));
    out.MaxConcurrency = limite;
    return out;
  };
  return walk(definition, cap) as T;
}

/** The construct id of a resource, from its `aws:cdk:path` (Stack/Construct/Resource). */
function constructId(metadata: Record<string, Json> | undefined): string | undefined {
  const path = metadata?.['aws:cdk:path'];
  if (typeof path !== 'string') return undefined;
  const parts = path.split('/');
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}

/** Fn::Join, Fn::GetAtt, Ref and Fn::Sub, enough for what CDK writes into state machine definitions. */
function resolve(value: Json, template: Template): Json {
  if (Array.isArray(value)) return value.map((v) => resolve(v, template));
  if (value === null || typeof value !== 'object') return value;
  if ('Fn::Join' in value) {
    const [separator, parts] = value['Fn::Join'] as [string, Json[]];
    return parts.map((p) => String(resolve(p, template))).join(separator);
  }
  if ('Fn::GetAtt' in value) {
    const [logicalId] = value['Fn::GetAtt'] as [string, string];
    return arnOf(logicalId, template);
  }
  if ('Ref' in value) {
    const ref = value.Ref as string;
    if (ref === 'AWS::Partition') return 'aws';
    if (ref === 'AWS::Region') return process.env.AWS_REGION ?? 'us-east-1';
    if (ref === 'AWS::AccountId') return '000000000000';
    if (ref === 'AWS::URLSuffix') return 'amazonaws.com';
    return ref;
  }
  if ('Fn::Sub' in value) {
    const text = value['Fn::Sub'] as string;
    return text.replace(/\$\{([^}]+)\}/g, (_, name: string) => String(resolve({ Ref: name }, template)));
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, template)]));
}

function arnOf(logicalId: string, template: Template): string {
  const id = constructId(template.Resources[logicalId]?.Metadata);
  return localFunctionArn(id ?? logicalId);
}

interface TaskBinding {
  invoke: Invoke;
  /** `arn:aws:states:::lambda:invoke` tasks wrap the payload; direct-ARN tasks do not. */
  viaInvokeApi: boolean;
}

function taskBindings(definition: Asl, _template: Template): Record<string, TaskBinding> {
  const byArn = new Map<string, FunctionSpec>(allFunctions.map((spec) => [localFunctionArn(spec.id), spec]));
  const bindings: Record<string, TaskBinding> = {};
  const visit = (states: Record<string, AslState>) => {
    for (const [name, state] of Object.entries(states)) {
      if (state.Type === 'Task') {
        const direct = state.Resource ? byArn.get(state.Resource) : undefined;
        const viaApi = state.Resource?.startsWith('arn:aws:states:::lambda:invoke')
          ? byArn.get(String(state.Parameters?.FunctionName ?? state.Parameters?.['FunctionName.$'] ?? ''))
          : undefined;
        const spec = direct ?? viaApi;
        if (spec) bindings[name] = { invoke: localFunction(spec), viaInvokeApi: !direct };
      }
      if (state.ItemProcessor) visit(state.ItemProcessor.States);
      if (state.Iterator) visit(state.Iterator.States);
      for (const branch of state.Branches ?? []) visit(branch.States);
    }
  };
  visit(definition.States);
  return bindings;
}
