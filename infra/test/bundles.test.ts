import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { message } from '@plac/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAll, type BundleReport } from '../lib/bundle';
import { BUNDLE_FILE } from '../lib/bundle-options';
import { allFunctions } from '../lib/topology';

/**
 * Every Lambda bundled exactly as deployed (bundle.ts, the CDK's esbuild options), then weighed: a
 * size budget per function, and heavy libraries only in the functions that use them. Sizes only:
 * timings belong to the benchmark (bench/run.ts), never to a test.
 */

const KIB = 1024;
/** The goal for every function: 500 KiB minified. */
const BUDGET_KIB = 500;

/**
 * The functions every request waits on have a tighter goal (issue 39: about 100 ms of a Node cold start
 * per 300 KiB): the authorizer runs before every portal and API request, the look-ups' function before
 * every integrator's paid look-up, the logins' before every session. Their look-up by key and their
 * password logins read and write without ElectroDB (functions/platform/tabela-direta.ts); their other
 * routes load it on first use.
 */
const HOT_PATH_KIB: Record<string, number> = { Authorizer: 300, ConsultaApi: 300, AuthApi: 300 };

/**
 * Functions over the goal, each with a ceiling at what it weighed (so that any growth fails) and why.
 * Lower a ceiling when a function loses weight; remove the entry when it fits.
 *
 * None is left. The history, in short: every bundle lost ~130 KiB when the SDK's credential chain
 * left them, 28 KiB more where ElectroDB is when its model validator did, and 12 to 184 KiB when each
 * context was reached through its front door (issue 40); issue 39 then called every AWS service
 * without the SDK (functions/platform/aws-direto/: 190 to 470 KiB less each, 25 of 33 under the goal),
 * and the last eight came under it when what a few requests use (pdf-lib, the certificate parsers, the
 * CSV batches, the second factor's enrolment, the Sefaz batch import, the bank return) went to chunks
 * loaded on first use, and the XML parser's entity check gave way to a refusal
 * (functions/platform/xml-entidades-declaradas.ts). What a cold start loads is what is weighed here.
 */
const OVER_BUDGET_KIB: Record<string, { ceiling: number; why: string }> = {};

/**
 * Libraries that only some routes use, which must never be loaded by a cold start: where they are
 * bundled, they sit in a chunk behind a dynamic import, loaded by the first request that needs them.
 */
const SOB_DEMANDA: Record<string, { pattern: RegExp; functions: readonly string[] | 'all' }> = {
  // A contract, a DAE or an uploaded PDF's check: a few requests a month.
  'pdf-lib': { pattern: /node_modules\/(pdf-lib|@pdf-lib)\//, functions: 'all' },
  // The certificate logins and the integrator's first look-up (its check is then cached); the CRLs'
  // job (LcrRefreshTask) parses CRLs and certificates on every run: its whole work.
  asn1: { pattern: /node_modules\/(asn1js|@peculiar\/)/, functions: allFunctions.map((f) => f.id).filter((id) => id !== 'LcrRefreshTask') },
  // The second factor's enrolment (QR code) and its codes' arithmetic; a login's challenge needs neither.
  'segundo fator': { pattern: /node_modules\/(uqr|otpauth)\//, functions: 'all' },
  // The CSV batches of the look-ups.
  papaparse: { pattern: /node_modules\/papaparse\//, functions: ['ConsultaApi'] },
  // The Sefaz batch import's XML parsers: the monitoring screens do not parse.
  'fast-xml-parser': { pattern: /node_modules\/fast-xml-parser\//, functions: ['FateApi'] },
  // The table layer, where the look-up by key and the password logins read and write without it.
  electrodb: { pattern: /node_modules\/electrodb\//, functions: ['ConsultaApi', 'AuthApi'] },
};

/** Heavy libraries and the functions allowed to carry them. */
const ALLOWED: Record<string, { pattern: RegExp; in: readonly string[] }> = {
  // The AWS SDK's clients and core: never (functions/platform/aws-direto/ speaks to every service the
  // functions call; only types are imported from the SDK).
  'AWS SDK': { pattern: /node_modules\/(@smithy\/|@aws-sdk\/(?!util-dynamodb\/))/, in: [] },
  // ElectroDB's model validator: never in a bundle (bundle-options.ts aliases it).
  jsonschema: { pattern: /node_modules\/jsonschema\//, in: [] },
  'zod locales': {
    // The 'en' default (~3 KiB) is always there; a full set is ~190 KiB, pulled in by `import { z }`
    // (esbuild keeps every locale that the named export's namespace object references).
    pattern: /node_modules\/zod\/v4\/locales\/(?!en\.js)/,
    in: [],
  },
  'pdf-lib': { pattern: /node_modules\/(pdf-lib|@pdf-lib)\//, in: ['ClientesApi', 'InstituicoesApi', 'FaturamentoApi', 'PrepagoApi'] },
  asn1: { pattern: /node_modules\/(asn1js|@peculiar\/asn1)/, in: ['AuthApi', 'ConsultaApi', 'LcrRefreshTask'] },
  // The Central Bank's list of banks (463 entries, @brazilian-utils/brazilian-utils) is written by the deploy's seed only.
  'lista de bancos': { pattern: /node_modules\/@brazilian-utils\/brazilian-utils\/dist\/banks-/, in: ['RateioSeed'] },
  // Sessions are written through ElectroDB (platform/auth/sessions.ts): the platform function never
  // opens one, and the authorizer reads them with a plain GetItem (platform/auth/sessao-lida.ts). The
  // webhook dispatcher writes the delivery log (functions/webhooks/log-store.ts).
  electrodb: { pattern: /node_modules\/electrodb\//, in: allFunctions.map((f) => f.id).filter((id) => id !== 'PlatformApi' && id !== 'Authorizer') },
};

let dir: string;
let reports: BundleReport[];

/** A bundle's code files: index.mjs and its chunks. */
const arquivosDe = (id: string) => [
  join(dir, id, BUNDLE_FILE),
  ...(existsSync(join(dir, id, 'chunks')) ? readdirSync(join(dir, id, 'chunks')).filter((f) => f.endsWith('.mjs')).map((f) => join(dir, id, 'chunks', f)) : []),
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plac-bundles-'));
  reports = await bundleAll(dir);
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Lambda bundles', () => {
  it('bundles every function of the topology', () => {
    expect(reports.map((r) => r.id).sort()).toEqual(allFunctions.map((f) => f.id).sort());
  });

  it(`keeps every function within ${BUDGET_KIB} KiB, or under its recorded ceiling`, () => {
    // Every function over its limit at once (not only the first), with its weight to one decimal.
    const acima = reports.flatMap((report) => {
      const limit = OVER_BUDGET_KIB[report.id]?.ceiling ?? BUDGET_KIB;
      return report.bytes / KIB > limit ? [`${report.id}: ${(report.bytes / KIB).toFixed(1)} KiB > ${limit} KiB`] : [];
    });
    expect(acima).toEqual([]);
  });

  it('keeps the functions every request waits on within their tighter goal', () => {
    const acima = reports.flatMap((report) => {
      const limit = HOT_PATH_KIB[report.id];
      return limit !== undefined && report.bytes / KIB > limit ? [`${report.id}: ${(report.bytes / KIB).toFixed(1)} KiB > ${limit} KiB`] : [];
    });
    expect(acima).toEqual([]);
    expect(Object.keys(HOT_PATH_KIB).filter((id) => !reports.some((r) => r.id === id))).toEqual([]);
  });

  it('keeps heavy libraries out of the functions that do not use them, whether loaded at start or on first use', () => {
    for (const report of reports) {
      const inputs = [...Object.entries(report.inputs), ...Object.entries(report.lazyInputs)].filter(([, bytes]) => bytes > 0).map(([file]) => file);
      for (const [name, rule] of Object.entries(ALLOWED)) {
        if (rule.in.includes(report.id)) continue;
        expect(inputs.filter((file) => rule.pattern.test(file)), `${name} in ${report.id}`).toEqual([]);
      }
    }
  });

  it('loads what only some routes use on first use, never at a cold start', () => {
    for (const [name, rule] of Object.entries(SOB_DEMANDA)) {
      for (const report of reports) {
        if (rule.functions !== 'all' && !rule.functions.includes(report.id)) continue;
        const noInicio = Object.entries(report.inputs).filter(([file, bytes]) => bytes > 0 && rule.pattern.test(file));
        expect(noInicio.map(([file]) => file), `${name} at ${report.id}'s cold start`).toEqual([]);
      }
    }
    // Not vacuous: the libraries are there, on first use.
    const sobDemanda = (id: string, pattern: RegExp) => Object.keys(reports.find((r) => r.id === id)!.lazyInputs).some((file) => pattern.test(file));
    expect(sobDemanda('FaturamentoApi', SOB_DEMANDA['pdf-lib']!.pattern)).toBe(true);
    expect(sobDemanda('ConsultaApi', SOB_DEMANDA.asn1!.pattern)).toBe(true);
    expect(sobDemanda('AuthApi', SOB_DEMANDA['segundo fator']!.pattern)).toBe(true);
    expect(sobDemanda('ConsultaApi', SOB_DEMANDA.papaparse!.pattern)).toBe(true);
    expect(sobDemanda('FateApi', SOB_DEMANDA['fast-xml-parser']!.pattern)).toBe(true);
    expect(sobDemanda('ConsultaApi', SOB_DEMANDA.electrodb!.pattern)).toBe(true);
    expect(sobDemanda('AuthApi', SOB_DEMANDA.electrodb!.pattern)).toBe(true);
  });

  it('ships no chunk that its function cannot load', () => {
    for (const report of reports) {
      const [entrada, ...chunks] = arquivosDe(report.id);
      // Followed in the code itself: a chunk is loadable when a loadable file names it (import … from, import()).
      const carregaveis = new Set([entrada!]);
      for (const fila = [entrada!]; fila.length > 0; ) {
        const codigo = readFileSync(fila.pop()!, 'utf8');
        for (const chunk of chunks) {
          if (!carregaveis.has(chunk) && codigo.includes(basename(chunk))) {
            carregaveis.add(chunk);
            fila.push(chunk);
          }
        }
      }
      expect(chunks.filter((chunk) => !carregaveis.has(chunk)).map((chunk) => basename(chunk)), report.id).toEqual([]);
    }
  });

  it('runs as deployed: every file of every bundle loads in Node 24, and a route answers from its chunk', () => {
    const node = (script: string) => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, TABLE_NAME: 'plac-app', AWS_REGION: 'us-east-1', POWERTOOLS_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true' },
      });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as unknown;
    };
    const arquivos = reports.flatMap((r) => arquivosDe(r.id));
    expect(node(`
      const falhas = [];
      for (const f of ${JSON.stringify(arquivos)}) await import(f).catch((e) => falhas.push(f + ': ' + e.message));
      console.log(JSON.stringify(falhas));
    `)).toEqual([]);
    // A certificate login without a certificate: the first request loads the certificate chunk
    // (auth/certificado-do-chamador.ts), which refuses it, in a fresh process.
    const evento = {
      version: '2.0',
      routeKey: 'POST /api/v1/authenticate/certificate/emissor',
      rawPath: '/api/v1/authenticate/certificate/emissor',
      rawQueryString: '',
      headers: { 'content-type': 'application/json' },
      requestContext: { http: { method: 'POST', path: '/api/v1/authenticate/certificate/emissor', sourceIp: '192.0.2.1' }, requestId: 'sonda', routeKey: 'POST /api/v1/authenticate/certificate/emissor' },
      isBase64Encoded: false,
    };
    const resposta = node(`
      const { handler } = await import(${JSON.stringify(join(dir, 'AuthApi', BUNDLE_FILE))});
      const r = await handler(${JSON.stringify(evento)}, { functionName: 'sonda', awsRequestId: 'sonda', getRemainingTimeInMillis: () => 10000 });
      console.log(JSON.stringify({ status: r.statusCode, body: JSON.parse(r.body) }));
    `);
    expect(resposta).toMatchObject({ status: 400, body: { message: message('certificadoAusente') } });
  });

  it('takes node:http through require, never as an ES module (its facade loads undici: ~40 ms of a cold start)', () => {
    const esm = /from\s*["'](node:)?http["']|import\(\s*["'](node:)?http["']\s*\)/;
    const comFachada = reports.filter((r) => arquivosDe(r.id).some((file) => esm.test(readFileSync(file, 'utf8')))).map((r) => r.id);
    expect(comFachada).toEqual([]);
  });

  it('gives a function only its own context’s contracts (and the ones they build on)', () => {
    const ownContext: Record<string, readonly string[]> = {
      DominioApi: ['dominio'],
      ServicosApi: ['servicos'],
      ClientesApi: ['clientes'],
      // The registration's body reuses the client's address fields.
      CadastroApi: ['cadastro', 'clientes'],
      InstituicoesApi: ['instituicoes'],
      ConsentimentoApi: ['consentimento'],
      AuthApi: ['auth'],
      // The users contracts reuse the session user of the auth contracts.
      UsersApi: ['users', 'auth'],
    };
    for (const report of reports) {
      const own = ownContext[report.id];
      if (!own) continue;
      const contexts = Object.entries(report.inputs)
        .filter(([file, bytes]) => bytes > 0 && /shared\/src\/contracts\/(?!define|common|index|fate-view)\w+\.ts$/.test(file))
        .map(([file]) => /contracts\/(\w+)\.ts$/.exec(file)![1]!);
      expect(contexts.filter((c) => !own.includes(c)), report.id).toEqual([]);
    }
  });
});
