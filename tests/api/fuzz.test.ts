import { request as httpsRequest } from 'node:https';
import { ROLES, type Principal, type Role } from '@plac/shared/access';
import { allows, contracts, fillPath, type AnyContract } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ensureLocalPki } from '../../infra/local/emulators/tls';
import { recordAnswer } from '../openapi/answers';
import { bearer, tokenFor } from './session';

/**
 * Malformed requests against every contract of the table, each with a token of a role the route
 * allows: wrong types, long strings, negative / hexadecimal / fractional numbers, unknown keys, an
 * empty body, a body that is not JSON, a wrong content type and an oversized header. Whatever the
 * route answers, it must not be a 5xx, and every text in `message` or `errors` must come from the
 * catalogue (shared/src/messages.ts): a template whose {placeholders} may hold anything.
 */

const templates = Object.values(MESSAGES).map(
  (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}/g, '[^]+')}$`),
);
const fromCatalogue = (text: string) => templates.some((re) => re.test(text));

/**
 * Answers of other people's code that the fuzz found and that this test cannot fix, by
 * `<contract id> <case>`. Each is a bug to fix in the file named; the test fails on anything new.
 */
const KNOWN: Record<string, string> = {};

const principalFor = (role: Role): Principal => ({
  userId: `fuzz-${role}`,
  name: `Fuzz ${role}`,
  tipo: role.startsWith('sefaz') ? 'S' : 'C',
  roles: [role],
  ...(role.startsWith('sefaz') ? { uf: 'BA' } : { clienteId: 'demo-esf' }),
});

/** A role the route lets in (any for 'authenticated'), or none for a public route. */
function roleFor(contract: AnyContract): Role | undefined {
  if (contract.access === 'public') return undefined;
  return ROLES.find((role) => allows(contract.access, [role]));
}

/** The keys of an object schema, through the wrappers a contract may put around it. */
function keysOf(schema: unknown): string[] {
  let current = schema as { _zod?: { def?: Record<string, unknown> } } | undefined;
  for (let depth = 0; depth < 10 && current?._zod?.def; depth++) {
    const def = current._zod.def;
    if (def.type === 'object') return Object.keys(def.shape as Record<string, unknown>);
    current = (def.in ?? def.innerType ?? def.schema) as typeof current;
  }
  return [];
}

interface Case {
  name: string;
  path?: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
}

const LONG = 'x'.repeat(5_000);
const WRONG_VALUES: [string, unknown][] = [
  ['number', 123],
  ['negative', -1],
  ['float', 1.5],
  ['hex text', '0x7f'],
  ['boolean', true],
  ['list', ['a']],
  ['object', { a: 1 }],
  ['null', null],
  ['long text', LONG],
  ['empty text', ''],
];
const WRONG_PARAMS: [string, string][] = [
  ['long', 'x'.repeat(300)],
  ['hex', '0x7f'],
  ['negative', '-1'],
  ['float', '1.5'],
  ['spaces', '   '],
  ['unicode', 'ção😀'],
  ['encoded slash', '%2F..%2F'],
];
const WRONG_QUERY: [string, string][] = [
  ['text', 'abc'],
  ['hex', '0x7f'],
  ['negative', '-1'],
  ['float', '1.5'],
  ['exponent', '1e3'],
  ['empty', ''],
  ['long', 'x'.repeat(3_000)],
];

const JSON_TYPE = { 'content-type': 'application/json' };

function casesFor(contract: AnyContract): Case[] {
  const paramNames = [...contract.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const validPath = fillPath(contract.path, Object.fromEntries(paramNames.map((n) => [n, 'x'])));
  const cases: Case[] = [{ name: 'as is', path: validPath, ...(contract.body ? { headers: JSON_TYPE, body: '{}' } : {}) }];
  const withBody = (c: Case): Case => (contract.body && c.body === undefined ? { ...c, headers: { ...JSON_TYPE, ...c.headers }, body: '{}' } : c);

  for (const name of paramNames) {
    for (const [label, value] of WRONG_PARAMS) {
      const path = contract.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === name ? encodeURIComponent(value) : 'x'));
      cases.push(withBody({ name: `param ${name}: ${label}`, path }));
    }
  }
  const queryKeys = keysOf(contract.query);
  for (const key of queryKeys) {
    for (const [label, value] of WRONG_QUERY) {
      cases.push(withBody({ name: `query ${key}: ${label}`, path: validPath, query: `${encodeURIComponent(key)}=${encodeURIComponent(value)}` }));
    }
  }
  if (contract.query) cases.push(withBody({ name: 'query: unknown key', path: validPath, query: 'naoExiste=1&page=2&page=3' }));

  if (contract.body) {
    const body = (value: unknown, headers: Record<string, string> = JSON_TYPE): Pick<Case, 'body' | 'headers'> => ({
      headers,
      body: typeof value === 'string' ? value : JSON.stringify(value),
    });
    cases.push(
      { name: 'body: missing', path: validPath, headers: JSON_TYPE },
      { name: 'body: empty', path: validPath, ...body('') },
      { name: 'body: null', path: validPath, ...body('null') },
      { name: 'body: list', path: validPath, ...body('[]') },
      { name: 'body: text', path: validPath, ...body('"texto"') },
      { name: 'body: number', path: validPath, ...body('42') },
      { name: 'body: not JSON', path: validPath, ...body('{"a": ') },
      { name: 'body: JSON as text/plain', path: validPath, ...body('{}', { 'content-type': 'text/plain' }) },
      { name: 'body: form content type', path: validPath, ...body('a=1', { 'content-type': 'application/x-www-form-urlencoded' }) },
      { name: 'body: no content type', path: validPath, ...body('{}', {}) },
      { name: 'body: unknown keys', path: validPath, ...body({ naoExiste: 1, __proto__x: { a: 1 } }) },
      { name: 'body: deep nesting', path: validPath, ...body(JSON.parse('['.repeat(500) + ']'.repeat(500))) },
    );
    for (const key of keysOf(contract.body)) {
      for (const [label, value] of WRONG_VALUES) cases.push({ name: `body ${key}: ${label}`, path: validPath, ...body({ [key]: value }) });
    }
  }
  cases.push(withBody({ name: 'header: 20 KB', path: validPath, headers: { 'x-fuzz': 'a'.repeat(20_000) } }));
  return cases;
}

interface Answer {
  status: number;
  type: string;
  text: string;
}

async function send(contract: AnyContract, c: Case, token: string | undefined): Promise<Answer> {
  const headers: Record<string, string> = { ...(token ? bearer(token) : {}), ...c.headers };
  const url = `${c.path}${c.query ? `?${c.query}` : ''}`;
  const answer = contract.channel === 'mtls' ? await sendMtls(contract.method, url, headers, c.body) : await sendWeb(contract, url, headers, c.body);
  // Each answer to hostile input is one the OpenAPI description tells of too (tests/openapi/answers.ts).
  recordAnswer(contract.method, url, answer.status, answer.type, parsed(answer));
  return answer;
}

/** The answer's body as the API tests see it: parsed JSON, or the text (a JSON type that does not parse stays text, and fails). */
function parsed(answer: Answer): unknown {
  if (!answer.type.includes('json') || !answer.text) return answer.text;
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return answer.text;
  }
}

async function sendWeb(contract: AnyContract, url: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  const response = await fetch(inject('twin').url + url, {
    method: contract.method,
    headers,
    ...(body !== undefined && contract.method !== 'GET' ? { body } : {}),
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The mutual-TLS port, without a client certificate (the routes answer that it is missing). */
async function sendMtls(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  const { caCertPem } = await ensureLocalPki(inject('twin').dataDir);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, inject('twin').tlsUrl), { method, ca: caCertPem, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What is wrong with an answer: a 5xx, or a text that does not come from the catalogue. */
function problems(answer: Answer): string[] {
  const found: string[] = [];
  if (answer.status >= 500) found.push(`status ${answer.status}: ${answer.text.slice(0, 200)}`);
  if (!answer.type.includes('application/json') || !answer.text) return found;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [...found, `not JSON though declared so: ${answer.text.slice(0, 100)}`];
  }
  if (answer.status < 400 || typeof body !== 'object' || body === null) return found;
  const { message, errors, error } = body as { message?: unknown; errors?: unknown; error?: unknown };
  if (message === undefined && errors === undefined) found.push(`error without message or errors: ${answer.text.slice(0, 200)}`);
  if (message !== undefined && (typeof message !== 'string' || !fromCatalogue(message))) found.push(`message not from the catalogue: ${JSON.stringify(message)}`);
  if (error !== undefined && (typeof error !== 'string' || !Object.hasOwn(MESSAGES, error))) found.push(`error key not in the catalogue: ${JSON.stringify(error)}`);
  if (errors !== undefined) {
    if (typeof errors !== 'object' || errors === null) found.push(`errors is not an object: ${JSON.stringify(errors)}`);
    else
      for (const [field, texts] of Object.entries(errors)) {
        if (!Array.isArray(texts)) found.push(`errors.${field} is not a list`);
        else for (const text of texts) if (typeof text !== 'string' || !fromCatalogue(text)) found.push(`errors.${field}: ${JSON.stringify(text)}`);
      }
  }
  return found;
}

describe('fuzz: malformed requests get catalogue answers, never a 5xx', () => {
  it('tells catalogue texts from any other (the check itself)', () => {
    const answer = (status: number, body: unknown): Answer => ({ status, type: 'application/json', text: JSON.stringify(body) });
    expect(problems(answer(400, { errors: { nome: ['O campo nome deve ter no máximo 100 caracteres.'] } }))).toEqual([]);
    expect(problems(answer(413, { error: 'corpoGrandeDemais', message: MESSAGES.corpoGrandeDemais }))).toEqual([]);
    expect(problems(answer(400, { errors: { n: ['Demasiado grande: esperava que o texto tivesse <=100 caracteres'] } }))).toHaveLength(1);
    expect(problems(answer(400, { errors: { n: ['Entrada inválida: esperava um número, recebeu um número'] } }))).toHaveLength(1);
    expect(problems(answer(413, { message: 'Request Entity Too Large' }))).toHaveLength(1);
    expect(problems(answer(400, { error: 'naoExiste', message: MESSAGES.erroInterno }))).toHaveLength(1);
    expect(problems({ status: 502, type: 'text/plain', text: 'Bad gateway' })).toHaveLength(1);
  });

  it.each(contracts.map((c) => [c.id, c] as const))('%s', async (_id, contract) => {
    const role = roleFor(contract);
    const failures: string[] = [];
    let token = role ? await tokenFor(principalFor(role)) : undefined;
    for (const c of casesFor(contract)) {
      let answer = await send(contract, c, token);
      // One session for the contract's cases while it lasts: a route may close it (logout) or a role
      // change rewrite it, and a case answered 401 then is sent again with a fresh one, so every case
      // meets the route's own checks (a session per request wrote and read one more item each time).
      if (role && answer.status === 401) {
        token = await tokenFor(principalFor(role));
        answer = await send(contract, c, token);
      }
      const known = KNOWN[`${contract.id} ${c.name}`];
      for (const problem of problems(answer)) {
        if (!known) failures.push(`${contract.method} ${c.path}${c.query ? `?${c.query.slice(0, 60)}` : ''} [${c.name}] → ${answer.status} ${problem}`);
      }
      if (c.name === 'header: 20 KB' && contract.channel !== 'mtls') expect(answer.status, `${contract.id} oversized header`).toBe(431);
    }
    expect(failures).toEqual([]);
  });

  const login = () => contracts.find((c) => c.id === 'auth.loginSefaz')!;
  const shape = (answer: Answer) => JSON.parse(answer.text) as unknown;

  it('answers 413 in the catalogue’s shape', async () => {
    const huge = await send(login(), { name: 'huge', path: login().path, headers: JSON_TYPE, body: JSON.stringify({ email: 'x'.repeat(11 * 1024 * 1024) }) }, undefined);
    expect(huge.status).toBe(413);
    expect(shape(huge)).toEqual({ error: 'corpoGrandeDemais', message: MESSAGES.corpoGrandeDemais });
  });

  it('answers 415 for a body that is not sent as JSON', async () => {
    const plain = await send(login(), { name: 'plain', path: login().path, headers: { 'content-type': 'text/plain' }, body: '{}' }, undefined);
    expect(plain.status).toBe(415);
    expect(shape(plain)).toEqual({ error: 'tipoConteudoInvalido', message: MESSAGES.tipoConteudoInvalido });
  });

  it('answers 431 in the catalogue’s shape, also past what Node itself parses', async () => {
    const header = await send(login(), { name: 'header', path: login().path, headers: { ...JSON_TYPE, 'x-fuzz': 'a'.repeat(11 * 1024) }, body: '{}' }, undefined);
    expect(header.status).toBe(431);
    expect(shape(header)).toEqual({ error: 'cabecalhosGrandesDemais', message: MESSAGES.cabecalhosGrandesDemais });
    const enormous = await send(login(), { name: 'enormous', path: login().path, headers: { ...JSON_TYPE, 'x-fuzz': 'a'.repeat(100 * 1024) } }, undefined);
    expect(enormous.status).toBe(431);
    expect(shape(enormous)).toEqual({ error: 'cabecalhosGrandesDemais', message: MESSAGES.cabecalhosGrandesDemais });
  });

  it('names the required fields of an empty body, never "_"', async () => {
    const answer = await send(login(), { name: 'empty', path: login().path, headers: JSON_TYPE }, undefined);
    expect(answer.status).toBe(400);
    const { errors } = JSON.parse(answer.text) as { errors: Record<string, string[]> };
    expect(Object.keys(errors).length).toBeGreaterThan(0);
    expect(errors._).toBeUndefined();
    for (const [field, texts] of Object.entries(errors)) for (const text of texts) expect(text, field).toMatch(/^O campo .+ é obrigatório\.$|^Informe/);
  });
});
