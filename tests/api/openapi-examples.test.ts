import type { Principal, Role } from '@plac/shared/access';
import { contracts, fillPath, type AnyContract } from '@plac/shared/contracts';
import { toFieldErrors, type FieldErrors } from '@plac/shared/validation';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiValidator } from '../../shared/test/openapi-validator';
import { novoCliente } from './consulta-kit';
import { call } from './http';
import { mtlsRequest } from './mtls';
import { bearer, tokenFor } from './session';

/**
 * Issue 29 item 2, "every example valid against its schema and the API": the served description is
 * walked for every `example`/`examples` (nothing is listed here, so an example added later is checked
 * too); each is validated against the schema it sits in, and each operation showing examples is called
 * once with a request built from them, signed in as a role the operation allows. The API must not
 * refuse an example: no 400, no 5xx, and no refusal before validation ran (401, 403 acessoNegado, an
 * unknown route), which would make the check vacuous. 404 (the example's key is not in the twin), 409
 * and a record-level 403 are answers to a well-formed request.
 *
 * The twin's table is shared with the other API tests, so nothing here changes data they read:
 * - reads (GET, the metered look-ups, the POST filters in POST_READS) are sent as built; a look-up is
 *   charged to a client made for this file, or to nobody (the authority's staff are not charged);
 * - every other method is sent as a validation probe: the request carries the examples but is short of
 *   a required field, or has one non-example field broken on purpose, and the contract's own schemas
 *   (the ones functions/platform/http.ts runs, in the same order) are first run here to make sure the API
 *   will refuse it at validation, before any work. The API's 400 must then name exactly the fields
 *   the local run names — never a field that carried an example;
 * - a write that cannot be made to fail validation without touching an example is sent as a user of a
 *   client made for this file when the operation allows a client role (its ownership checks keep the
 *   effect inside that client), and otherwise only validated here (IN_PROCESS_ONLY, with the reason).
 */

/** POST routes that only read (a filter whose criteria travel in the body). The metered look-ups are found by `idempotent`. */
const POST_READS: Record<string, string> = {
  'consulta.qtdFateTransportadora': 'counts the Fat-e per carrier of the months asked',
  'consentimento.filtrarEmissores': 'lists the consents matching the filter',
  'consentimento.filtrarTransporte': 'lists the carriers consents matching the filter',
  'webhooks.consultarMensagens': 'lists the webhook messages, as the GET does',
};

/**
 * Writes whose examples fill every field the body has, only an administrator may call, and that would
 * act on shared data if sent: their examples go through the contract's schemas here, not to the API.
 */
const IN_PROCESS_ONLY: Record<string, string> = {
  'faturamento.iniciar': 'the body is only the month: sent, it would bill that month for every client of the shared twin',
  'rateio.repasseSimular': 'the body is only the month: sent, it would simulate the distribution of that month that rateio tests read',
  'rateio.repasseDefinitivo': 'the body is only the month: sent, it would make the distribution of that month definitive',
};

/**
 * Catalogue errors the API answers with 400 for a well-formed value that names nothing in the twin (the
 * other routes answer those 404): the example is made up, as an example should be.
 */
const NOT_IN_THE_TWIN_400: Record<string, string> = {
  reservaEscrituradorInvalido: 'the CNPJ is no IMF client of the twin (the prepaid routes answer 400 for a CNPJ that is not a bookkeeper)',
};

/** Operations not called at all, with the reason (none: an example the API cannot be asked about is a gap to close). */
const SKIPPED: Record<string, string> = {};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const escape = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

interface Example {
  where: string;
  /** The schema the example is of, and the schema it sits in (for zod's `#/$defs/...` references). */
  schema: Json;
  root: Json;
  value: unknown;
}

/** Keywords whose members are named schemas, not keywords. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Every example under `node`: of a schema (`example`, `examples: []`) and of a parameter or media type (`example`, `examples: {}`). */
function examplesIn(node: unknown, where: string, root: Json | null, found: Example[] = []): Example[] {
  if (Array.isArray(node)) {
    node.forEach((child, i) => examplesIn(child, `${where}/${i}`, root, found));
    return found;
  }
  if (!isObject(node)) return found;
  if (root) {
    if ('example' in node) found.push({ where: `${where}/example`, schema: node, root, value: node.example });
    if (Array.isArray(node.examples)) node.examples.forEach((value, i) => found.push({ where: `${where}/examples/${i}`, schema: node, root, value }));
  } else if (isObject(node.schema)) {
    if ('example' in node) found.push({ where: `${where}/example`, schema: node.schema, root: node.schema, value: node.example });
    if (isObject(node.examples)) {
      for (const [name, example] of Object.entries(node.examples)) {
        found.push({ where: `${where}/examples/${escape(name)}`, schema: node.schema, root: node.schema, value: (example as { value?: unknown }).value });
      }
    }
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    if (root && NAMED_SCHEMAS.has(key) && isObject(child)) {
      for (const [name, schema] of Object.entries(child)) examplesIn(schema, `${where}/${key}/${escape(name)}`, root, found);
    } else {
      examplesIn(child, `${where}/${escape(key)}`, root ?? (key === 'schema' && isObject(child) ? child : null), found);
    }
  }
  return found;
}

/** The example a schema shows, on itself or on one of its alternatives (an optional filter: `'' | <example>`). */
function exampleOf(schema: unknown): unknown {
  if (!isObject(schema)) return undefined;
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const member of (schema[key] as unknown[] | undefined) ?? []) {
      const example = exampleOf(member);
      if (example !== undefined) return example;
    }
  }
  return undefined;
}

/** A value the schema itself names, for a required field without an example: its first option, constant or default. */
function derived(schema: unknown): unknown {
  if (!isObject(schema)) return undefined;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('const' in schema && schema.const !== '') return schema.const;
  if ('default' in schema) return schema.default;
  for (const member of (schema.anyOf as unknown[] | undefined) ?? []) {
    const value = derived(member);
    if (value !== undefined) return value;
  }
  return undefined;
}

const objectSchemaOf = (schema: unknown): Json | undefined =>
  isObject(schema) && isObject(schema.properties) ? schema : ((schema as Json | undefined)?.anyOf as unknown[] | undefined)?.map(objectSchemaOf).find(Boolean);

interface Built {
  value: Json;
  /** Dotted names of the fields that carry an example. */
  carried: string[];
  /** Required fields with neither an example nor a value of their own. */
  missing: string[];
}

/** A JSON body of the examples (and the values required fields name themselves), nested objects included. */
function bodyFrom(schema: Json, prefix = ''): Built {
  const built: Built = { value: {}, carried: [], missing: [] };
  const required = (schema.required as string[] | undefined) ?? [];
  for (const [name, property] of Object.entries(schema.properties as Json)) {
    const path = prefix ? `${prefix}.${name}` : name;
    const example = exampleOf(property);
    if (example !== undefined) {
      built.value[name] = example;
      built.carried.push(path);
      continue;
    }
    const nested = objectSchemaOf(property);
    if (nested) {
      const inner = bodyFrom(nested, path);
      if (inner.carried.length || required.includes(name)) {
        built.value[name] = inner.value;
        built.carried.push(...inner.carried);
        built.missing.push(...inner.missing);
      }
      continue;
    }
    if (!required.includes(name)) continue;
    const value = derived(property);
    if (value === undefined) built.missing.push(path);
    else built.value[name] = value;
  }
  return built;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Json;
  example?: unknown;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Json }> };
}

interface Plan {
  contract: AnyContract;
  path: Record<string, string>;
  query: Record<string, string>;
  body?: Json;
  carried: string[];
  missing: string[];
  /** Query parameters and body fields that carry no example (the ones a probe may break). */
  free: { query: string[]; body: string[] };
}

function planOf(contract: AnyContract, operation: Operation): Plan {
  const plan: Plan = { contract, path: {}, query: {}, carried: [], missing: [], free: { query: [], body: [] } };
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const example = parameter.example ?? exampleOf(parameter.schema);
    const value = example ?? (parameter.required ? derived(parameter.schema) : undefined);
    if (example !== undefined) plan.carried.push(parameter.name);
    else if (parameter.in === 'query') plan.free.query.push(parameter.name);
    if (value === undefined) {
      if (parameter.required) plan.missing.push(parameter.name);
      continue;
    }
    plan[parameter.in][parameter.name] = String(value);
  }
  const schema = operation.requestBody?.content['application/json']?.schema;
  if (schema && isObject(schema.properties)) {
    const built = bodyFrom(schema);
    plan.body = built.value;
    plan.carried.push(...built.carried);
    plan.missing.push(...built.missing);
    plan.free.body = Object.keys(schema.properties).filter((name) => !built.carried.some((c) => c === name || c.startsWith(`${name}.`)));
  }
  return plan;
}

/** What the API's validation (functions/platform/http.ts serve: path, then query, then body) answers the request: null when it takes it. */
function validation(plan: Plan, query = plan.query, body = plan.body): FieldErrors | null {
  const { contract } = plan;
  const parts: [typeof contract.params, unknown][] = [
    [contract.params, plan.path],
    [contract.query, query],
    [contract.body, body ?? {}],
  ];
  for (const [schema, input] of parts) {
    if (!schema) continue;
    const parsed = schema.safeParse(input);
    if (!parsed.success) return toFieldErrors(parsed.error);
  }
  return null;
}

/** A probe the API refuses at validation, naming only that field: the examples' request with one non-example field broken. */
function brokenProbe(plan: Plan): { query: Record<string, string>; body?: Json; broken: string } | null {
  const bodyCarries = plan.carried.some((name) => plan.body && name.split('.')[0]! in plan.body);
  const refusesOnly = (errors: FieldErrors | null, field: string) => errors !== null && Object.keys(errors).every((key) => key === field || key.startsWith(`${field}.`));
  if (plan.body) {
    for (const field of plan.free.body) {
      for (const wrong of ['!', { '!': true }, ['!'], -1.5, true] as unknown[]) {
        const body = { ...plan.body, [field]: wrong };
        if (refusesOnly(validation(plan, plan.query, body), field)) return { query: plan.query, body, broken: field };
      }
    }
  }
  // A query parameter broken stops the request before its body is read: only when no body field carries an example.
  if (!bodyCarries) {
    for (const field of plan.free.query) {
      for (const wrong of ['!', '-1', 'x'.repeat(5000)]) {
        const query = { ...plan.query, [field]: wrong };
        if (refusesOnly(validation(plan, query), field)) return { query, body: plan.body, broken: field };
      }
    }
  }
  return null;
}

// ---- who calls ----------------------------------------------------------------------------------------

interface Caller {
  mtls: boolean;
  role: string;
  token?: string;
  cert?: { certPem: string; keyPem: string };
}

/** The client roles, in the order a client user is picked to call (the portal's look-ups first). */
const CLIENT_ROLES: Role[] = ['cliente_web', 'cliente', 'cliente_monitoramento', 'cliente_imf', 'avaliacao', 'emissor'];

const clientes = new Map<string, Promise<Awaited<ReturnType<typeof novoCliente>>>>();
/** A client of that type made for this file: whatever it is charged or owns, no other test reads. */
const clienteDo = (tipo: 'ESF' | 'IMF') => clientes.get(tipo) ?? clientes.set(tipo, novoCliente(tipo)).get(tipo)!;

async function asClient(role: Role, mtls: boolean): Promise<Caller> {
  const cliente = await clienteDo(role === 'cliente_imf' ? 'IMF' : 'ESF');
  const principal: Principal = { userId: `exemplos-${role}-${cliente.clienteId}`, name: `Exemplos ${role}`, tipo: 'C', roles: [role], clienteId: cliente.clienteId };
  return { mtls, role, token: await tokenFor(principal), ...(mtls ? { cert: cliente.cert } : {}) };
}

/** A caller the operation allows: the administrator when it may (sees everything, is never charged), else a user of this file's client. */
async function callerFor(contract: AnyContract, preferClient = false): Promise<Caller | null> {
  const mtls = contract.channel === 'mtls';
  if (contract.access === 'public') {
    if (!mtls) return { mtls, role: 'público' };
    const cliente = await clienteDo('ESF');
    return { mtls, role: 'certificado e-CNPJ', cert: cliente.cert };
  }
  const allowed: readonly Role[] = contract.access === 'authenticated' ? ['sefaz_admin', ...CLIENT_ROLES] : contract.access;
  const client = CLIENT_ROLES.find((role) => allowed.includes(role));
  if (preferClient) return client ? asClient(client, mtls) : null;
  for (const role of ['sefaz_admin', 'sefaz_gestor'] as const) {
    if (!allowed.includes(role)) continue;
    const principal: Principal = { userId: `exemplos-${role}`, name: `Exemplos ${role}`, tipo: 'S', roles: [role], uf: 'BA' };
    return { mtls, role, token: await tokenFor(principal) };
  }
  return client ? asClient(client, mtls) : null;
}

async function send(plan: Plan, caller: Caller, query: Record<string, string>, body: Json | undefined) {
  const search = new URLSearchParams(query).toString();
  const url = fillPath(plan.contract.path, plan.path) + (search ? `?${search}` : '');
  const headers = caller.token ? bearer(caller.token) : {};
  const answer = caller.mtls
    ? await mtlsRequest(plan.contract.method, url, { ...(caller.cert ? { cert: caller.cert } : {}), headers, ...(body ? { body } : {}) })
    : await call(url, {
        method: plan.contract.method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
  return { url, status: answer.status, body: answer.body };
}

const errorKey = (body: unknown) => (isObject(body) && typeof body.error === 'string' ? body.error : '');
const fieldErrorsOf = (body: unknown) => (isObject(body) && isObject(body.errors) ? Object.keys(body.errors) : []);

/** The fields among `fields` (dotted, as the API names them) that carry an example. */
const carriedAmong = (plan: Plan, fields: readonly string[]) => fields.filter((f) => plan.carried.some((c) => f === c || f.startsWith(`${c}.`)));

/** `name = value` of the examples the request carried under those field names. */
function examplesNamed(plan: Plan, fields: readonly string[]): string {
  const valueOf = (name: string) =>
    plan.path[name] ?? plan.query[name] ?? name.split('.').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), plan.body);
  return fields.map((f) => `${f} = ${JSON.stringify(valueOf(f))}`).join(', ');
}

/** Why a read's answer means its examples were not taken ('' when they were). */
function refusal(plan: Plan, status: number, body: unknown): string {
  if (status >= 500) return 'a server error';
  if (status === 400) {
    const fields = fieldErrorsOf(body);
    const named = carriedAmong(plan, fields);
    if (!fields.length && errorKey(body) in NOT_IN_THE_TWIN_400) return '';
    return named.length ? `refused the example of ${examplesNamed(plan, named)}` : `refused the request (${fields.join(', ') || errorKey(body)})`;
  }
  if (status === 401) return 'not identified: validation never ran';
  if (status === 403 && errorKey(body) === 'acessoNegado') return 'refused for access: validation never ran';
  if (status === 404 && errorKey(body) === 'rotaNaoEncontrada') return 'no such route';
  return '';
}

// ---- the test -----------------------------------------------------------------------------------------

let document: Json;
let examples: Example[];
const plans: Plan[] = [];

beforeAll(async () => {
  const served = await call('/api/v1/openapi.json');
  expect(served.status).toBe(200);
  document = served.body as Json;
  examples = [
    ...examplesIn(document.paths, '#/paths', null),
    ...Object.entries(((document.components as Json | undefined)?.schemas as Json | undefined) ?? {}).flatMap(([name, schema]) =>
      isObject(schema) ? examplesIn(schema, `#/components/schemas/${escape(name)}`, schema) : [],
    ),
  ];
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const where = `#/paths/${escape(path)}/${method}`;
      const shown = examples.filter((e) => e.where.startsWith(`${where}/parameters/`) || e.where.startsWith(`${where}/requestBody/`));
      if (!shown.length) continue;
      const contract = contracts.find((c) => c.id === operation.operationId);
      if (!contract) throw new Error(`${where}: no contract ${operation.operationId}`);
      plans.push(planOf(contract, operation));
    }
  }
});

describe('the examples of the OpenAPI description', () => {
  it('are found in parameters and request bodies (the walk lists them, nothing here does)', () => {
    expect(examples.length).toBeGreaterThan(50);
    expect(examples.some((e) => e.where.includes('/parameters/'))).toBe(true);
    expect(examples.some((e) => e.where.includes('/requestBody/'))).toBe(true);
    expect(plans.length).toBeGreaterThan(20);
  });

  it('each is valid against the schema it sits in', () => {
    const validator = openApiValidator(document);
    const wrong: string[] = [];
    for (const { where, schema, root, value } of examples) {
      // A sub-schema is compiled on its own: it takes along the definitions of the schema it is in.
      const own = schema !== root && isObject(root.$defs) && !('$defs' in schema) ? { ...schema, $defs: root.$defs } : schema;
      const errors = validator.check(own, value);
      if (errors) wrong.push(`${where} = ${JSON.stringify(value)}: ${errors}`);
    }
    expect(wrong, 'examples their own schema refuses').toEqual([]);
  });

  it('each operation showing examples is called once with them, and the API takes them', async () => {
    const problems: string[] = [];
    const seen = { reads: 0, probes: 0, asClient: 0, inProcess: [] as string[], skipped: [] as string[] };
    for (const plan of plans) {
      const { contract } = plan;
      const id = contract.id;
      if (SKIPPED[id]) {
        seen.skipped.push(id);
        continue;
      }
      const report = (what: string, url: string, body: unknown, status: number, answer: unknown, why: string) =>
        `${id} (${what}) ${contract.method} ${url}${body ? ` ${JSON.stringify(body)}` : ''} → ${status} ${JSON.stringify(answer).slice(0, 400)}: ${why}`;
      const reads = contract.method === 'GET' || Boolean(contract.idempotent) || id in POST_READS;
      const local = validation(plan);
      // The contract's own refusal is told, and the request still sent: refused at validation, it changes nothing.
      const namedLocally = carriedAmong(plan, Object.keys(local ?? {}));
      if (namedLocally.length) problems.push(`${id}: the contract refuses the example of ${examplesNamed(plan, namedLocally)}: ${JSON.stringify(local)}`);

      if (reads) {
        if (plan.missing.length) {
          problems.push(`${id}: required ${plan.missing.join(', ')} without an example: the request cannot be built (add an example to the contract)`);
          continue;
        }
        const caller = await callerFor(contract);
        if (!caller) {
          problems.push(`${id}: no role to call it as`);
          continue;
        }
        const got = await send(plan, caller, plan.query, plan.body);
        const why = refusal(plan, got.status, got.body);
        if (why) problems.push(report(`read as ${caller.role}`, got.url, plan.body, got.status, got.body, why));
        seen.reads++;
        continue;
      }

      const pathMissing = plan.missing.filter((name) => !(name in plan.path) && contract.path.includes(`{${name}}`));
      if (pathMissing.length) {
        problems.push(`${id}: path parameter ${pathMissing.join(', ')} without an example: the request cannot be built (add an example to the contract)`);
        continue;
      }
      // A write: only as a request the API refuses at validation, before any work.
      const probe = local ? { query: plan.query, body: plan.body, broken: Object.keys(local).join(', ') } : brokenProbe(plan);
      if (probe) {
        const expected = Object.keys(validation(plan, probe.query, probe.body) ?? {}).sort();
        const caller = await callerFor(contract);
        if (!caller) {
          problems.push(`${id}: no role to call it as`);
          continue;
        }
        const got = await send(plan, caller, probe.query, probe.body);
        const fields = fieldErrorsOf(got.body).sort();
        const named = carriedAmong(plan, fields);
        if (got.status !== 400 || named.length || JSON.stringify(fields) !== JSON.stringify(expected)) {
          const why = named.length ? `refused the example of ${examplesNamed(plan, named)}` : `expected 400 naming only ${expected.join(', ')} (the probe's ${probe.broken})`;
          problems.push(report(`validation probe as ${caller.role}`, got.url, probe.body, got.status, got.body, why));
        }
        seen.probes++;
        continue;
      }
      if (id in IN_PROCESS_ONLY) {
        seen.inProcess.push(id);
        continue;
      }
      const caller = await callerFor(contract, true);
      if (!caller) {
        problems.push(`${id}: a write the examples fill entirely, for administrators only: list it in IN_PROCESS_ONLY with the reason, or give its body a field to break`);
        continue;
      }
      const got = await send(plan, caller, plan.query, plan.body);
      const why = refusal(plan, got.status, got.body);
      if (why) problems.push(report(`sent as ${caller.role} of a client of this test`, got.url, plan.body, got.status, got.body, why));
      seen.asClient++;
    }
    expect(problems, 'examples the API did not take').toEqual([]);
    expect(seen.inProcess.sort(), 'writes checked only by their schemas').toEqual(Object.keys(IN_PROCESS_ONLY).sort());
    expect(seen.skipped.sort(), 'operations skipped').toEqual(Object.keys(SKIPPED).sort());
    expect(seen.reads + seen.probes + seen.asClient + seen.inProcess.length + seen.skipped.length).toBe(plans.length);
    for (const id of Object.keys(POST_READS)) expect(contracts.find((c) => c.id === id)?.method, `${id} is a POST`).toBe('POST');
    console.info(`OpenAPI examples: ${examples.length} examples, ${plans.length} operations: ${seen.reads} reads sent, ${seen.probes} validation probes, ${seen.asClient} sent as a client of this test, ${seen.inProcess.length} checked in process`);
  });
});
