/**
 * Cold starts of the Lambda bundles (issue 39): each bundle of `npm run bundle -w infra` imported in a
 * fresh Node 24 process and invoked with a sample event against a twin's DynamoDB Local (no Lambda
 * runtime's own share: its init of the sandbox comes on top in AWS), then invoked again with the same
 * event: what the first request costs beyond a warm one is the cold start's too. Part of `npm run bench`
 * (bench/run.ts); alone, after `npm run bundle -w infra`: `npx tsx bench/cold-starts.ts` (its own twin,
 * a table of bytes and cold starts, the JSON on the last line).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Principal } from '@plac/shared/access';
import { contracts, fillPath, type AnyContract } from '@plac/shared/contracts';
import { chaveAcessoCheckDigit } from '@plac/shared/domain';
import { DEMO_CLIENTES } from '../infra/local/demo-data';
import { ensureTestIcp, TEST_ICP_LAYOUT } from '../infra/local/emulators/test-pki';
import { allFunctions, serviceName, type FunctionSpec } from '../infra/lib/topology';
import { lcrDeTamanhoReal } from './lcr-grande';
import { SAMPLE_FILES } from './sample-events';
import { startOwnTwin } from './twin-process';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The bundles probed: `npm run bundle -w infra`'s, or another build's (BENCH_BUNDLES_DIR, to compare with an earlier commit). */
const BUNDLES = process.env.BENCH_BUNDLES_DIR ?? join(root, 'infra/dist');
/** Fresh processes per bundle; the median one is reported. */
const PROBES = Number(process.env.BENCH_COLD_PROBES ?? 3);
/** Only these functions (comma-separated ids, BENCH_COLD_ONLY), e.g. to profile one. */
const ONLY = process.env.BENCH_COLD_ONLY?.split(',').filter(Boolean);
/** A directory for each probe's V8 CPU profile (BENCH_COLD_PROFILE_DIR; open in Chrome's DevTools). */
const PROFILE_DIR = process.env.BENCH_COLD_PROFILE_DIR;

/** A well-formed access key of an NF-e no one stored (Bahia, 11/2026, a valid CNPJ, its check digit computed). */
const SEM_DIGITO = '2926111122233300018155001000000001100000001';
const CHAVE_SEM_FATE = SEM_DIGITO + chaveAcessoCheckDigit(SEM_DIGITO);

/**
 * The first request of the functions a client waits on (issue 39), as the portal or an integrator
 * sends it: the screen's own call, signed in, so a cold start includes its reads of the table (an empty
 * one: the bench's twin is not seeded, so a list is an empty first page and a look-up a 404, each after
 * its key reads). The login is tried with an e-mail no user has: the reads, and the password hash a
 * login always computes so that an unknown e-mail answers as slowly as a wrong password.
 */
const PRIMEIRAS_CHAMADAS: Record<string, { contrato: string; params?: Record<string, string>; query?: Record<string, string>; body?: unknown; sourceIp?: string; comSessao?: boolean }> = {
  // `{sonda}`: each probe process its own e-mail and address, since the third failure of one account or
  // address is slowed down on purpose (auth/attempts.ts).
  AuthApi: { contrato: 'auth.loginSefaz', body: { email: 'ninguem-{sonda}@bench.invalid', password: 'Bench-2026-senha' }, sourceIp: '2001:db8::{sonda}' },
  ConsultaApi: { contrato: 'consulta.fatePorChave', params: { chave: CHAVE_SEM_FATE }, comSessao: true },
  FaturamentoApi: { contrato: 'faturamento.faturas', query: { dataInicio: '2026-01', dataFim: '2026-11' }, comSessao: true },
  ClientesApi: { contrato: 'clientes.list', comSessao: true },
  UsersApi: { contrato: 'users.list', comSessao: true },
  InstituicoesApi: { contrato: 'instituicoes.filtrar', body: { uf: 'BA' }, comSessao: true },
};

/** What the authorizer leaves for the functions behind it (requestContext.authorizer.lambda), for an open session. */
type ContextoDoAutorizador = Record<string, string | number>;

/**
 * The event API Gateway hands a function for a request of this contract (HTTP API, payload 2.0), from
 * events/'s template: its route, path, query, JSON body, source address, and what the request's
 * context adds (the authorizer's output, the client certificate of the mutual-TLS domain).
 */
function eventoDaRota(
  contrato: AnyContract,
  pedido: { params: Record<string, string>; query?: Record<string, string> | undefined; body?: unknown; sourceIp?: string | undefined; contexto: Record<string, unknown> },
) {
  const template = JSON.parse(readFileSync(join(root, 'events/api/platform-health.json'), 'utf8')) as {
    routeKey: string;
    rawPath: string;
    headers: Record<string, string>;
    body?: string;
    requestContext: { routeKey: string; requestId: string; http: { method: string; path: string } };
  };
  const path = fillPath(contrato.path, pedido.params);
  const routeKey = `${contrato.method} ${contrato.path}`;
  const { query, body } = pedido;
  return {
    ...template,
    routeKey,
    rawPath: path,
    rawQueryString: query ? new URLSearchParams(query).toString() : '',
    ...(query ? { queryStringParameters: query } : {}),
    ...(Object.keys(pedido.params).length ? { pathParameters: pedido.params } : {}),
    headers: { ...template.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    requestContext: {
      ...template.requestContext,
      routeKey,
      requestId: `bench-${contrato.id}`,
      http: { ...template.requestContext.http, method: contrato.method, path, ...(pedido.sourceIp ? { sourceIp: pedido.sourceIp } : {}) },
      ...pedido.contexto,
    },
  };
}

/**
 * A first request for an HTTP function: the call of PRIMEIRAS_CHAMADAS if it has one; else its first
 * public GET without parameters if it has one (a real answer), else its first route (answered 401
 * without a token, or 400 for an empty body: validation and the error path, which a cold start also pays for).
 */
function sampleEventFor(spec: FunctionSpec, dir: string, sessao: ContextoDoAutorizador | undefined): string | undefined {
  if (SAMPLE_FILES[spec.id]) return join(root, SAMPLE_FILES[spec.id]!);
  const context = spec.entry.split('/')[0];
  const own = contracts.filter((c) => c.context === context && (c.channel ?? 'web') !== 'mtls');
  const chamada = PRIMEIRAS_CHAMADAS[spec.id];
  const escolhida = chamada && contracts.find((c) => c.id === chamada.contrato);
  const pick: AnyContract | undefined =
    escolhida ?? own.find((c) => c.access === 'public' && c.method === 'GET' && !c.path.includes('{')) ?? own.find((c) => c.access === 'public') ?? own[0];
  if (!pick) return undefined;
  const names = [...pick.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const event = eventoDaRota(pick, {
    params: escolhida ? (chamada.params ?? {}) : Object.fromEntries(names.map((n) => [n, 'x'])),
    query: escolhida ? chamada.query : undefined,
    body: escolhida ? chamada.body : pick.body ? {} : undefined,
    sourceIp: escolhida ? chamada.sourceIp : undefined,
    contexto: escolhida && chamada.comSessao && sessao ? { authorizer: { lambda: sessao } } : {},
  });
  const file = join(dir, `${spec.id}.json`);
  writeFileSync(file, JSON.stringify(event));
  return file;
}

/**
 * Each bundle imported in a fresh Node process and invoked once with its sample event, PROBES times
 * (3): the run with the median cold start (import + first request) is kept, with every run's `coldMs`.
 */
export async function coldStarts(dynamoEndpoint: string | undefined, twin?: TwinDoIntegrador): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  const eventsDir = await mkdtemp(join(tmpdir(), 'plac-bench-events-'));
  try {
    const sessao = dynamoEndpoint ? await sessaoDeBench(eventsDir, dynamoEndpoint) : undefined;
    for (const spec of allFunctions.filter((f) => !ONLY || ONLY.includes(f.id))) {
      const file = join(BUNDLES, spec.id, 'index.mjs');
      const sample = spec.id === 'Authorizer' && sessao ? sessao.autorizador : sampleEventFor(spec, eventsDir, sessao?.contexto);
      const ambiente = { ...ambienteDaSonda(dynamoEndpoint), POWERTOOLS_SERVICE_NAME: serviceName(spec) };
      out[spec.id] = { ...pesoDoBundle(spec.id, file), ...(sample ? sondar(file, sample, ambiente) : {}) };
      if (spec.id === 'AuthApi' && dynamoEndpoint) {
        // A login that succeeds: the user read, its password checked (the same hash), and its session opened.
        out[`${spec.id}:senha-certa`] = { ...pesoDoBundle(spec.id, file), ...sondar(file, await loginDeBench(eventsDir), ambiente) };
      }
      if (spec.id === 'ConsultaApi' && twin) {
        // The same bundle, as an integrator's first look-up reaches it (over mutual TLS): by key (service
        // 1, read and charged without ElectroDB), and a receivable (service 3, whose code and ElectroDB
        // are a chunk its first request loads), both of a key not stored. First while the CRLs are not
        // kept yet (the container downloads them, as every container did before the LcrRefresh job),
        // then once the job has kept them (revocation read by key: every container's case).
        // The test CA's CRL is made of ICP-Brasil's size (LCR_ENTRADAS) once the events are written (writing
        // them keeps the test ICP-Brasil as it was issued).
        const ambienteDoTwin = { ...twin.env, POWERTOOLS_SERVICE_NAME: serviceName(spec) };
        const eventos = {
          integrador: await eventoDoIntegrador(eventsDir, twin.dataDir, 'consulta.fatePorChaveIntegrador'),
          'integrador-recebivel': await eventoDoIntegrador(eventsDir, twin.dataDir, 'consulta.recebivelIntegrador'),
        };
        const lcr = await lcrDoTwin(twin.dataDir);
        out[`${spec.id}:integrador-lcr-baixada`] = { ...pesoDoBundle(spec.id, file), lcr, ...sondar(file, eventos.integrador, ambienteDoTwin) };
        out['LcrRefreshTask:aplicar'] = { lcr, ...(await manterLcrs(twin)) };
        for (const [sonda, evento] of Object.entries(eventos)) out[`${spec.id}:${sonda}`] = { ...pesoDoBundle(spec.id, file), lcr, ...sondar(file, evento, ambienteDoTwin) };
      }
    }
  } finally {
    await rm(eventsDir, { recursive: true, force: true });
  }
  return out;
}

/**
 * What the LcrRefresh job does every 15 minutes, in the bench's process on the twin's table: every CRL
 * registered (the probes' certificate checks register the test CA's and the root's) fetched from the
 * twin, checked and kept.
 */
async function manterLcrs(twin: TwinDoIntegrador): Promise<{ ms: number; inseridos: number }> {
  Object.assign(process.env, twin.env);
  const { listarLcrs, atualizarLcr } = await import('../functions/auth/lcr-atualizacao');
  const t0 = performance.now();
  const urls = await listarLcrs();
  const aplicadas = await Promise.all(urls.map((url) => atualizarLcr(url)));
  const falha = aplicadas.find((a) => !a.aplicada);
  if (urls.length === 0 || falha) throw new Error(`the twin's CRLs were not kept: ${falha?.falha ?? 'none registered'}`);
  return { ms: Math.round(performance.now() - t0), inseridos: aplicadas.reduce((n, a) => n + (a.inseridos ?? 0), 0) };
}

/**
 * Entries on the test CA's CRL beside the revoked test certificate (BENCH_LCR_ENTRADAS): 200,000 by
 * default, an ICP-Brasil CA's CRL (about 7 MB), which a container downloaded and walked on its first
 * certificate check before the CRLs were kept; 0 leaves the test CRL as issued (one entry).
 */
const LCR_ENTRADAS = Number(process.env.BENCH_LCR_ENTRADAS ?? 200_000);

async function lcrDoTwin(dataDir: string): Promise<{ entradas: number; bytes: number }> {
  const icp = await ensureTestIcp(dataDir, empresasDoIntegrador());
  if (LCR_ENTRADAS === 0) return { entradas: 1, bytes: statSync(icp.crl.intermediatePath).size };
  const ca = { certPem: icp.intermediatePem, keyPem: readFileSync(join(dataDir, 'pki', 'test-icp', TEST_ICP_LAYOUT.ca, 'ac-teste.key.pem'), 'utf8') };
  const crl = await lcrDeTamanhoReal(ca, [icp.revoked.certPem], LCR_ENTRADAS);
  writeFileSync(icp.crl.intermediatePath, crl);
  return { entradas: LCR_ENTRADAS + 1, bytes: crl.length };
}

/** The twin whose functions' environment and test ICP-Brasil the integrator's probe uses. */
export interface TwinDoIntegrador {
  dataDir: string;
  env: Record<string, string>;
}

/** PROBES fresh processes importing the bundle and sending it the event: the median run, and every run's coldMs. */
function sondar(file: string, sample: string, ambiente: Record<string, string>): Record<string, unknown> {
  const runs: Record<string, number | string>[] = [];
  const entry: Record<string, unknown> = {};
  for (let i = 0; i < PROBES; i++) {
    const probe = spawnSync(process.execPath, [...(PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR, '--cpu-prof-interval', '100'] : []), '--input-type=module', '-e', coldStartProbe(file, sample)], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...ambiente, POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
    });
    try {
      runs.push(JSON.parse(probe.stdout.trim().split('\n').pop() ?? ''));
    } catch {
      entry.error = probe.stderr.slice(0, 300);
    }
  }
  if (runs.length > 0) {
    const sorted = [...runs].sort((a, b) => Number(a.coldMs) - Number(b.coldMs));
    Object.assign(entry, sorted[Math.floor((sorted.length - 1) / 2)], { runsColdMs: runs.map((r) => r.coldMs) });
  }
  return entry;
}

/** The integrator of the probes: the demo's first active client of the ESF kind, with its e-CNPJ. */
function empresasDoIntegrador() {
  const cliente = DEMO_CLIENTES.find((c) => c.situacao === 'A' && c.tipoCliente === 'ESF')!;
  return [{ cnpj: cliente.cnpj, razaoSocial: cliente.razaoSocial.toUpperCase() }];
}

/**
 * An integrator's look-up of a key (`rota`: by key, or a receivable) as API Gateway hands it over from the mutual-TLS domain: the demo
 * client's e-CNPJ (the twin's test ICP-Brasil) in the request's context. Its first request loads the
 * certificate chunk, checks the chain, fetches the CRLs from the twin (as a container does once an
 * hour), reads the client, its quota and the service catalogue, and looks the key up (a Fat-e not
 * stored: a 404, recorded for the not-found list, not charged).
 */
async function eventoDoIntegrador(dir: string, dataDir: string, rota: string): Promise<string> {
  const cliente = DEMO_CLIENTES.find((c) => c.situacao === 'A' && c.tipoCliente === 'ESF')!;
  const icp = await ensureTestIcp(dataDir, empresasDoIntegrador());
  const certificado = icp.certificates[cliente.cnpj]!;
  const contrato = contracts.find((c) => c.id === rota)!;
  const event = eventoDaRota(contrato, { params: { chave: CHAVE_SEM_FATE }, contexto: { authentication: { clientCert: { clientCertPem: certificado.certPem } } } });
  const file = join(dir, `ConsultaApi-${rota}.json`);
  writeFileSync(file, JSON.stringify(event));
  return file;
}

/**
 * What a cold start loads (index.mjs and the chunks it imports statically) and what is loaded on first
 * use, as bundle.ts weighed them (bundles.json); for a build of before chunks, index.mjs alone.
 */
function pesoDoBundle(id: string, file: string): Record<string, unknown> {
  try {
    const { bundles } = JSON.parse(readFileSync(join(BUNDLES, 'bundles.json'), 'utf8')) as { bundles: { id: string; bytes: number; gzipBytes: number; lazyBytes?: number }[] };
    const pesado = bundles.find((b) => b.id === id);
    if (pesado) return { bytes: pesado.bytes, gzipBytes: pesado.gzipBytes, lazyBytes: pesado.lazyBytes ?? 0 };
  } catch {
    // No bundles.json: weigh the file.
  }
  return { bytes: statSync(file).size, gzipBytes: gzipSync(readFileSync(file)).length, lazyBytes: 0 };
}

/** The probes' environment: the bench's token secret and table, and the twin's DynamoDB Local. */
const ambienteDaSonda = (dynamoEndpoint: string | undefined) => ({
  APP_STAGE: 'bench',
  TOKEN_SECRET: 'bench-only-secret',
  TABLE_NAME: 'plac-app',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint ?? 'http://127.0.0.1:9',
});

/**
 * A session of the demo administrator's kind, open in the twin's table: the authorizer's first request
 * as the portal sends it (a token signed with the probes' secret, so its cold start includes the
 * verification and the session's GetItem; events/'s sample has no token and is answered before any
 * read), and the context the authorizer leaves for the functions behind it.
 */
async function sessaoDeBench(dir: string, dynamoEndpoint: string): Promise<{ autorizador: string; contexto: ContextoDoAutorizador }> {
  Object.assign(process.env, ambienteDaSonda(dynamoEndpoint));
  const { openSession, TOKEN_TTL_SECONDS } = await import('../functions/platform/auth/sessions');
  const { signToken } = await import('../functions/platform/auth/tokens');
  const principal: Principal = { userId: 'bench-cold-start', name: 'Bench', tipo: 'S', roles: ['sefaz_admin'] };
  const sid = await openSession(principal);
  const token = await signToken(principal, sid, TOKEN_TTL_SECONDS);
  const event = JSON.parse(readFileSync(join(root, SAMPLE_FILES.Authorizer!), 'utf8')) as { headers: Record<string, string>; identitySource: string[] };
  event.headers.authorization = `Bearer ${token}`;
  event.identitySource = [`Bearer ${token}`];
  const autorizador = join(dir, 'Authorizer-com-sessao.json');
  writeFileSync(autorizador, JSON.stringify(event));
  const agora = Math.floor(Date.now() / 1000);
  return { autorizador, contexto: { principal: JSON.stringify(principal), sid, issuedAt: agora, expiresAt: agora + TOKEN_TTL_SECONDS } };
}

/**
 * A Sefaz user of the bench's own (active, its password hashed by today's code, no second factor yet),
 * and its login as the portal sends it: the probe's first request reads the user and the locks, checks
 * the password and opens a session (one that reaches the second factor's enrolment only, issue 42).
 */
async function loginDeBench(dir: string): Promise<string> {
  const { createUser } = await import('../functions/users/store');
  const { hashPassword } = await import('../functions/platform/passwords');
  const id = randomUUID();
  const agora = new Date().toISOString();
  const email = `bench-login-${id}@bench.invalid`;
  await createUser({
    userId: `bench-login-${id}`,
    name: 'Bench Login',
    nameFolded: 'bench login',
    email,
    cpf: String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999)),
    situacao: 'A',
    tipo: 'S',
    roles: ['sefaz_gestor'],
    uf: 'BA',
    passwordHash: await hashPassword('Bench-2026-senha'),
    createdAt: agora,
    updatedAt: agora,
  });
  const contrato = contracts.find((c) => c.id === 'auth.loginSefaz')!;
  const evento = eventoDaRota(contrato, { params: {}, body: { email, password: 'Bench-2026-senha' }, sourceIp: '2001:db8::1:1', contexto: {} });
  const file = join(dir, 'AuthApi-senha-certa.json');
  writeFileSync(file, JSON.stringify(evento));
  return file;
}

function coldStartProbe(bundle: string, eventFile: string) {
  return `
    import { readFileSync } from 'node:fs';
    const t0 = performance.now();
    const { handler } = await import(${JSON.stringify(bundle)});
    const t1 = performance.now();
    const event = JSON.parse(readFileSync(${JSON.stringify(eventFile)}, 'utf8').replaceAll('{sonda}', (process.pid % 65536).toString(16)));
    const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000 };
    const call = async () => { try { const r = await handler(event, context); return r?.statusCode ?? (r?.context?.tokenError ? 'refused: ' + r.context.tokenError : 'ok'); } catch (e) { return 'error: ' + e.message; } };
    const status = await call();
    const t2 = performance.now();
    await call();
    const t3 = performance.now();
    console.log(JSON.stringify({ importMs: +(t1 - t0).toFixed(1), firstRequestMs: +(t2 - t1).toFixed(1), coldMs: +(t2 - t0).toFixed(1), firstStatus: status, warmRequestMs: +(t3 - t2).toFixed(1) }));
  `;
}


// Run as a script: a twin of its own, every bundle probed, a table and the JSON.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const twin = await startOwnTwin('none');
  try {
    const r = await coldStarts(twin.env.AWS_ENDPOINT_URL_DYNAMODB, twin);
    for (const [id, b] of Object.entries(r)) {
      if (b.ms !== undefined) {
        console.log(`${id.padEnd(26)} ${JSON.stringify(b.lcr)}: applied in ${b.ms} ms (${b.inseridos} entries written)`);
        continue;
      }
      console.log(`${id.padEnd(26)} ${`${(Number(b.bytes) / 1024).toFixed(0)} KiB`.padStart(9)}${b.lazyBytes ? ` (+${(Number(b.lazyBytes) / 1024).toFixed(0)} on first use)` : ''}  ${b.coldMs === undefined ? String(b.error ?? '') : `import ${b.importMs} ms + first request ${b.firstRequestMs} ms = ${b.coldMs} ms (${b.firstStatus}; runs ${(b.runsColdMs as number[]).join(', ')}; the same request warm ${b.warmRequestMs} ms)`}`);
    }
    console.log(JSON.stringify(r));
  } finally {
    await twin.stop();
  }
}
