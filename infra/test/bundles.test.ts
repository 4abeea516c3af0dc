import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * per 300 KiB): the authorizer runs before every portal and API request.
 */
const HOT_PATH_KIB: Record<string, number> = { Authorizer: 300 };

/**
 * Functions still over the goal, each with a ceiling at what it weighs today (so that any growth
 * fails) and why. Lower a ceiling when a function loses weight; remove the entry when it fits.
 * Issue 39: every ceiling came down by about 130 KiB when the bundles stopped carrying the SDK's
 * whole credential chain (functions/platform/credenciais-lambda.ts), and by 28 KiB more where ElectroDB
 * is when its model validator left them (functions/platform/electrodb-sem-validacao.ts); the reasons
 * below predate both. Issue 40: every context is reached through its front door (index.ts), and the
 * functions package declares no side effects, so esbuild drops every module a bundle does not use: the
 * ceilings came down by 12 to 184 KiB (the new onboarding function took the registration from ClientesApi).
 * The state machines' task functions then took 28 to 60 KiB back: each checks its payload against its
 * contract (shared/src/contracts/tarefas.ts, in zod/mini: full zod was 90 KiB more) under middy and
 * Powertools' context (functions/platform/tarefa.ts).
 * Issue 39 again: every AWS service is called without the SDK (functions/platform/aws-direto/): every
 * bundle lost 190 to 470 KiB and 25 came under the goal; "the AWS SDK" in a reason below is history.
 */
const OVER_BUDGET_KIB: Record<string, { ceiling: number; why: string }> = {
  AuthApi: { ceiling: 600, why: 'ElectroDB, the AWS SDK (DynamoDB, S3, SES, Secrets Manager), asn1 (certificates and, since issue 27, their CRLs), pngjs/jpeg-js (users → avatars); the shared HTTP layer\'s Idempotency-Key records (issue 27) passed 1250; issue 42\'s second factor (otpauth\'s node build on node:crypto, uqr\'s QR encoder for the enrolment, the flow and its store) 1290: the enrolment routes could leave the login function (issue 39)' },
  ClientesApi: { ceiling: 874, why: 'pdf-lib (the contract PDF, imported on first use: lazy-init wrappers add ~15 KiB), ElectroDB; the shared HTTP layer of issue 27 (Idempotency-Key, early timeout) and the new catalogue messages added 3 to 5 KiB to every function' },
  FateApi: { ceiling: 540, why: 'ElectroDB, the AWS SDK (DynamoDB, S3, Secrets Manager for the Sefaz certificate), fast-xml-parser; issue 36: the shards of the issuer, carrier and error keys and their reads of before, 1120.4' },
  ConsultaApi: { ceiling: 663, why: 'ElectroDB, zod, asn1 (the integrators\' e-CNPJ is checked again), papaparse (the CSV batches); the message catalogue grows with every issue (the page cursors and the integrator quota of issue 24 passed 1170); the receivable evidence of issue 25 (its rules and the evidence entities) passed 1195; issue 38: the instalment look-up\'s key and its view of before, 1211; issue 38 item 2: the carrier report\'s filtered total starts its job (the Step Functions client, the job\'s record), 1243' },
  SefazLoadTask: { ceiling: 504, why: 'as FateApi: the load and the batch import are the same code' },
  InstituicoesApi: { ceiling: 874, why: 'pdf-lib (signed authorisations are loaded to be checked), ElectroDB, the AWS SDK; the shared HTTP layer of issue 27 (Idempotency-Key, early timeout) and the new catalogue messages added 3 to 5 KiB to every function; issue 38: the registry\'s keys and cursor pages (instituicoes/indice.ts, platform/paginas), 1502; issue 39: the image decoders (pngjs, jpeg-js) are loaded by the first avatar (platform/uploads.ts), so this function, which takes none, no longer carries them: 1362 before' },
  FaturamentoApi: {
    ceiling: 963,
    why: 'issue 38: the Pagamento de Serviços rows it keeps carry the repasse shares, so it imports the sharing rule and groups (1,589; functions/grupos-rateio since issue 40); ElectroDB and the AWS SDK (DynamoDB, S3 and its presigner, Step Functions to start the billing run), the services it prices with (the re-price and the projected bill); the DAE: pdf-lib (imported on first use, so a cold start does not evaluate it; the barcode is drawn by dae/barras.ts since bwip-js, 949 KiB, left in issue 27); fast-xml-parser (the tax note XML is checked); since issue 26 the detail ZIP is a report job it starts (the consumo report job code, papaparse, the S3 multipart calls) instead of fflate; the overdue-invoices read of the administrator dashboard (issue 28) reached 1560',
  },
  PrepagoApi: {
    ceiling: 880,
    why: 'issue 38 wired the sharing rule into the prepaid API too (1,479; issue 40 removed it: a reservation\'s DAE writes no invoice); as FaturamentoApi for the DAE (functions/dae): pdf-lib (imported on first use), ElectroDB and the AWS SDK (DynamoDB, S3 and its presigner); the tariff and clients services it prices and checks with',
  },
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
  asn1: { pattern: /node_modules\/(asn1js|@peculiar\/asn1)/, in: ['AuthApi', 'ConsultaApi'] },
  // The Central Bank's list of banks (463 entries, @brazilian-utils/brazilian-utils) is written by the deploy's seed only.
  'lista de bancos': { pattern: /node_modules\/@brazilian-utils\/brazilian-utils\/dist\/banks-/, in: ['RateioSeed'] },
  // Sessions are written through ElectroDB (platform/auth/sessions.ts): the platform function never
  // opens one, and the authorizer reads them with a plain GetItem (platform/auth/sessao-lida.ts). The
  // webhook dispatcher writes the delivery log (functions/webhooks/log-store.ts).
  electrodb: { pattern: /node_modules\/electrodb\//, in: allFunctions.map((f) => f.id).filter((id) => id !== 'PlatformApi' && id !== 'Authorizer') },
};

let dir: string;
let reports: BundleReport[];

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

  it('keeps heavy libraries out of the functions that do not use them', () => {
    for (const report of reports) {
      const inputs = Object.entries(report.inputs).filter(([, bytes]) => bytes > 0).map(([file]) => file);
      for (const [name, rule] of Object.entries(ALLOWED)) {
        if (rule.in.includes(report.id)) continue;
        expect(inputs.filter((file) => rule.pattern.test(file)), `${name} in ${report.id}`).toEqual([]);
      }
    }
  });

  it('takes node:http through require, never as an ES module (its facade loads undici: ~40 ms of a cold start)', () => {
    const esm = /from\s*["'](node:)?http["']|import\(\s*["'](node:)?http["']\s*\)/;
    const comFachada = reports.filter((r) => esm.test(readFileSync(join(dir, r.id, BUNDLE_FILE), 'utf8'))).map((r) => r.id);
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
