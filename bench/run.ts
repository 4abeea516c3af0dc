/**
 * `npm run bench`: the figures of bench/README.md in one run, written to bench/results/latest.json.
 *  1. dominio/cidades through the local gateway, 32 connections (autocannon), next to raw DynamoDB
 *     Local GetItem throughput from this same process at the same concurrency: the ratio says what
 *     the gateway + Lambda stack costs over the database alone.
 *  2. gzip size of the portal's entry chunk (the JavaScript the first page must load).
 *  3. size of each Lambda bundle, and the time to import it and serve a first request in a fresh
 *     Node process (a cold start without the Lambda runtime's own share).
 *  4. Lighthouse (mobile preset) on the production build: the login page, Faturas and Clientes (bench/lighthouse.ts).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import autocannon from 'autocannon';
import type { billingThroughput } from './billing';
import { ingestionThroughput } from './ingestion';
import { coldStarts } from './cold-starts';
import { lighthouseScores } from './lighthouse';
import { startOwnTwin } from './twin-process';
import type { meteredLookups } from './lookups';
import type { prepaidDebits } from './prepago';
import type { sefazCatchUp } from './sefaz-catchup';
import type { volumeScaling } from './volume';
import type { partitionHeat } from './partitions';
import type { webhookLoad } from '../tests/load/webhooks';
import { round } from './medidas';

const root = fileURLToPath(new URL('..', import.meta.url));
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;

async function main() {
  const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length };

  console.log('building the portal and the Lambda bundles…');
  run('npm', ['run', '--silent', 'build', '-w', 'web']);
  run('npm', ['run', '--silent', 'bundle', '-w', 'infra']);

  results.webEntryChunk = webEntryChunk();
  // First, on a twin of its own serving the build: nothing else shares the cores while a page is timed.
  console.log(`running Lighthouse (mobile) on the login page, Faturas and Clientes, ${process.env.BENCH_LIGHTHOUSE_RUNS ?? 3} runs each…`);
  results.lighthouse = await lighthouseScores();

  const { twin, env, stop, lookupTwin } = await startTwinProcess();
  try {
    results.lambdas = await coldStarts(env.AWS_ENDPOINT_URL_DYNAMODB, lookupTwin);
    results.citiesThroughGateway = await cannon(`${twin}/api/v1/dominio/cidades/BA/salv`);
    results.dynamoDbGetItem = await rawGetItem(env);
    const gateway = results.citiesThroughGateway as { requestsPerSecond: number };
    const raw = results.dynamoDbGetItem as { requestsPerSecond: number };
    results.gatewayToGetItemRatio = round(gateway.requestsPerSecond / raw.requestsPerSecond, 3);
    console.log('measuring metered look-ups over mutual TLS…');
    results.meteredLookups = lookupsInOwnProcess(lookupTwin);
    const lookups = results.meteredLookups as { requestsPerSecond: number };
    results.lookupsToGetItemRatio = round(lookups.requestsPerSecond / raw.requestsPerSecond, 3);
  } finally {
    await stop();
  }
  // On a twin of its own, after the first one has stopped, so the two do not share the cores.
  console.log('measuring ingestion from the Sefaz simulator…');
  results.ingestion = await ingestionThroughput(root);
  console.log(`measuring the billing run (${process.env.BENCH_BILLING_CLIENTS ?? 2000} clients × 9 services × 27 UFs; seeding the counters takes most of it)…`);
  results.billing = billingInOwnProcess();
  console.log(`load-testing webhook deliveries (${process.env.BENCH_WEBHOOKS ?? 10000} against a receiver failing 30 %)…`);
  results.webhooks = webhookLoadInOwnProcess();
  console.log(`measuring prepaid debits (${process.env.BENCH_PREPAGO ?? 2000} uses on one account, then spread over 16)…`);
  results.prepago = prepaidInOwnProcess();
  console.log(`measuring the same operations at N and 10·N (N = ${process.env.BENCH_VOLUME_N ?? 10000}; writing the data takes most of it)…`);
  results.volume = volumeInOwnProcess();
  console.log(`measuring partition heat at the launch rates (${process.env.BENCH_PARTITIONS_OPS ?? 400} operations per path, every DynamoDB request recorded)…`);
  results.partitions = partitionsInOwnProcess();
  console.log(`measuring the Sefaz loads' catch-up (SP ${process.env.BENCH_CATCHUP_SP ?? 100000} documents, the other UFs ${process.env.BENCH_CATCHUP_OTHERS ?? 1000} each)…`);
  results.sefazCatchUp = sefazCatchUpInOwnProcess();

  writeFileSync(join(root, 'bench/results/latest.json'), JSON.stringify(results, null, 2) + '\n');
  printTable(results);
}

/** bench/lookups.ts in a process of its own (it loads the functions' modules with this twin's environment). */
function lookupsInOwnProcess(twin: { dataDir: string; tlsUrl: string; env: Record<string, string> }) {
  const r = spawnSync('npx', ['tsx', 'bench/lookups.ts', JSON.stringify(twin)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('bench/lookups.ts failed');
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof meteredLookups>>;
}

/** bench/billing.ts in a process of its own, on a twin of its own (the twin sets the functions' environment). */
function billingInOwnProcess() {
  const r = spawnSync('npx', ['tsx', 'bench/billing.ts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('bench/billing.ts failed');
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof billingThroughput>>;
}

/** tests/load/webhooks.ts in a process of its own, on a twin of its own; its dispatcher's per-failure warnings silenced. */
function webhookLoadInOwnProcess() {
  const r = spawnSync('npx', ['tsx', 'tests/load/webhooks.ts'], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' },
  });
  const result = JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof webhookLoad>>;
  if (r.status !== 0) console.error('tests/load/webhooks.ts: not every delivery was received, or some reached the dead-letter queue');
  return result;
}

/** bench/prepago.ts in a process of its own, on a twin of its own. */
function prepaidInOwnProcess() {
  const r = spawnSync('npx', ['tsx', 'bench/prepago.ts'], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' },
  });
  if (r.status !== 0) throw new Error('bench/prepago.ts failed');
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof prepaidDebits>>;
}

/** bench/partitions.ts in a process of its own, on a twin of its own; it writes bench/results/partitions.json too. */
function partitionsInOwnProcess() {
  const r = spawnSync('npx', ['tsx', 'bench/partitions.ts'], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' },
  });
  if (r.status !== 0) throw new Error('bench/partitions.ts failed');
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof partitionHeat>>;
}

/** bench/volume.ts in a process of its own, on a twin of its own; it writes bench/results/volume.json too. */
function volumeInOwnProcess() {
  const r = spawnSync('npx', ['tsx', 'bench/volume.ts'], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' },
  });
  if (r.status !== 0) throw new Error('bench/volume.ts failed');
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof volumeScaling>>;
}

/** bench/sefaz-catchup.ts in a process of its own, on a twin of its own; it adds `sefazCatchUp` to bench/results/volume.json. */
function sefazCatchUpInOwnProcess() {
  const r = spawnSync('npx', ['tsx', 'bench/sefaz-catchup.ts'], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' },
  });
  if (r.status !== 0) throw new Error('bench/sefaz-catchup.ts failed');
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof sefazCatchUp>>;
}

function run(command: string, args: string[]) {
  const r = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

function webEntryChunk() {
  const html = readFileSync(join(root, 'web/dist/index.html'), 'utf8');
  const src = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('no entry script in web/dist/index.html');
  // The first page loads the entry and the chunks it imports statically (Vite preloads them).
  const preloaded = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+)"/g)].map((m) => m[1]!);
  const files = [src, ...preloaded].map((f) => readFileSync(join(root, 'web/dist', f)));
  const bytes = Buffer.concat(files);
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/?([^"]+)"/g)].map((m) => readFileSync(join(root, 'web/dist', m[1]!)));
  return {
    files: [src, ...preloaded],
    bytes: bytes.length,
    gzipBytes: files.reduce((sum, f) => sum + gzipSync(f, { level: 9 }).length, 0),
    entryCssGzipBytes: css.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0),
  };
}

async function startTwinProcess() {
  const twin = await startOwnTwin('none');
  return { twin: twin.url, env: twin.env, lookupTwin: { dataDir: twin.dataDir, tlsUrl: twin.tlsUrl, env: twin.env }, stop: twin.stop };
}

async function cannon(url: string) {
  // Warm the container (first request loads the handler module).
  await fetch(url);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS });
  return {
    url: url.replace(/^http:\/\/[^/]+/, ''),
    connections: CONNECTIONS,
    seconds: DURATION_SECONDS,
    requestsPerSecond: round(r.requests.average, 0),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** GetItem of the same item the cities endpoint reads, 32 in flight, for the same duration. */
async function rawGetItem(env: Record<string, string>) {
  const client = new DynamoDBClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const key = { pk: { S: '$dominio#uf_ba' }, sk: { S: '$municipios_1' } };
  const probe = await client.send(new GetItemCommand({ TableName: env.TABLE_NAME, Key: key }));
  if (!probe.Item) throw new Error('the BA municipalities item is not where the bench expects it');
  let count = 0;
  const latencies: number[] = [];
  const end = Date.now() + DURATION_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        await client.send(new GetItemCommand({ TableName: env.TABLE_NAME, Key: key }));
        latencies.push(performance.now() - t);
        count++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    connections: CONNECTIONS,
    seconds: DURATION_SECONDS,
    requestsPerSecond: round(count / DURATION_SECONDS, 0),
    latencyP50Ms: round(latencies[Math.floor(latencies.length * 0.5)] ?? 0, 1),
    latencyP99Ms: round(latencies[Math.floor(latencies.length * 0.99)] ?? 0, 1),
  };
}

function lookupRows(r: Record<string, unknown>): [string, string][] {
  const l = r.meteredLookups as Awaited<ReturnType<typeof meteredLookups>> | undefined;
  if (!l) return [];
  return [
    ['metered look-ups over mTLS (32 conn)', `${l.requestsPerSecond} req/s  p50 ${l.latencyP50Ms} ms  p99 ${l.latencyP99Ms} ms  non-2xx ${l.non2xx}`],
    ['ratio look-ups / GetItem', String(r.lookupsToGetItemRatio)],
    ['counters after the run', `${l.chargedByCounters} charged for ${l.ok + 20} answers: ${l.exact ? 'exact' : 'NOT EXACT'}`],
  ];
}

function printTable(r: Record<string, unknown>) {
  const g = r.citiesThroughGateway as Awaited<ReturnType<typeof cannon>>;
  const d = r.dynamoDbGetItem as Awaited<ReturnType<typeof rawGetItem>>;
  const w = r.webEntryChunk as ReturnType<typeof webEntryChunk>;
  const rows: [string, string][] = [
    ['cidades via gateway (32 conn)', `${g.requestsPerSecond} req/s  p50 ${g.latencyP50Ms} ms  p99 ${g.latencyP99Ms} ms  non-2xx ${g.non2xx}`],
    ['DynamoDB Local GetItem (32 in flight)', `${d.requestsPerSecond} req/s  p50 ${d.latencyP50Ms} ms  p99 ${d.latencyP99Ms} ms`],
    ['ratio gateway / GetItem', String(r.gatewayToGetItemRatio)],
    ...lookupRows(r),
    ['first page JavaScript (entry + preloads)', `${(w.bytes / 1024).toFixed(1)} KiB, ${(w.gzipBytes / 1024).toFixed(1)} KiB gzip (+ CSS ${(w.entryCssGzipBytes / 1024).toFixed(1)} KiB gzip)`],
  ];
  for (const [name, l] of Object.entries(r.lighthouse as Awaited<ReturnType<typeof lighthouseScores>>)) {
    rows.push([
      `Lighthouse mobile: ${name} (${l.url})`,
      `performance ${l.performance} (runs ${l.runs.join(', ')}), accessibility ${l.accessibility}, best practices ${l.bestPractices}, SEO ${l.seo}; LCP ${l.lcpMs} ms, FCP ${l.fcpMs} ms, TBT ${l.tbtMs} ms, CLS ${l.cls}${l.meetsAim ? '' : '  (misses the aim)'}`,
    ]);
  }
  const i = r.ingestion as Awaited<ReturnType<typeof ingestionThroughput>>;
  rows.push(['ingestion Sefaz → store (end to end)', `${i.endToEnd.documentsPerSecond} docs/s  (${i.endToEnd.documents} documents in ${i.endToEnd.seconds} s)`]);
  rows.push(['DynamoDB Local BatchWrite (same process)', `${i.dynamoDbBatchWrite.itemsPerSecond} items/s  (${i.dynamoDbBatchWrite.inFlight} in flight)`]);
  rows.push(['ratio BatchWrite time / load time (same items)', `${i.ratio}  (${i.endToEnd.itemsWritten} items; per document as one item: ${i.ratioPerItem})`]);
  const b = r.billing as Awaited<ReturnType<typeof billingThroughput>>;
  rows.push(['billing run (state machine, end to end)', `${b.run.clientsPerSecond} clients/s  (${b.clients} clients × ${b.countersPerClient} counters in ${b.run.seconds} s)`]);
  rows.push(['counter reads alone (5 clients at a time)', `${b.counterReads.clientsPerSecond} clients/s  (${b.counterReads.seconds} s)`]);
  rows.push(['ratio read time / run time', String(b.ratio)]);
  const wh = r.webhooks as Awaited<ReturnType<typeof webhookLoad>>;
  rows.push(['webhook deliveries (30 % failing receiver)', `${wh.deliveriesPerSecond} deliveries/s  (${wh.received} of ${wh.deliveries} received and verified in ${wh.seconds} s, ${wh.consumers} consumers)`]);
  rows.push(['webhook attempts per delivery', `mean ${wh.attemptsPerDelivery.mean}, max ${wh.attemptsPerDelivery.max}; duplicates ${wh.duplicates}, dead-lettered ${wh.deadLettered}, bad signatures ${wh.badSignatures}`]);
  const p = r.prepago as Awaited<ReturnType<typeof prepaidDebits>>;
  rows.push(['prepaid debits, one account (16 in flight)', `${p.hot.debitsPerSecond} debits/s  (${p.hot.uses} in ${p.hot.seconds} s)`]);
  rows.push(['prepaid debits, 16 accounts (16 in flight)', `${p.spread.debitsPerSecond} debits/s  (${p.spread.uses} in ${p.spread.seconds} s); ratio one / spread ${p.ratio}`]);
  const v = r.volume as Awaited<ReturnType<typeof volumeScaling>>;
  for (const [op, o] of Object.entries(v.operations)) {
    rows.push([`at N / 10·N (N = ${v.n}): ${op}`, `${o.msAtN} ms / ${o.msAt10N} ms, ratio ${o.ratio}${o.meetsAim ? '' : '  (misses the aim: ≤ 1.5 and ≤ 1 s)'}  (HTTP ${o.statusAtN} / ${o.statusAt10N})`]);
  }
  const ph = r.partitions as Awaited<ReturnType<typeof partitionHeat>>;
  for (const p of ph.paths) {
    rows.push([`partition heat: ${p.path}`, `${(p.sharePerPartition * 100).toFixed(1)} % of a partition  (${p.hottest.where} ${p.hottest.pattern}, ${p.unitsPerOp.wcu} WCU + ${p.unitsPerOp.rcu} RCU per op at ${p.hottest.rate}/s)${p.meetsAim ? '' : '  (misses the aim: ≤ 30 %)'}`]);
  }
  const c = r.sefazCatchUp as Awaited<ReturnType<typeof sefazCatchUp>>;
  rows.push([
    `Sefaz catch-up (SP ${c.backlog.SP}, others ${c.backlog.others})`,
    `every UF's first document at ${c.firstDocumentAllUfsS} s${c.firstDocumentWithinSchedulePeriod ? '' : '  (misses the aim: one schedule period)'}; all caught up at ${c.caughtUpS} s; ${c.documentsPerSecond} docs/s over ${c.runs} runs`,
  ]);
  for (const [id, b] of Object.entries(r.lambdas as Record<string, Record<string, number | string>>)) {
    const cold =
      b.importMs !== undefined
        ? `  import ${b.importMs} ms + first request ${b.firstRequestMs} ms = ${b.coldMs} ms (${b.firstStatus})`
        : b.error
          ? `  probe failed: ${String(b.error).split('\n')[0]}`
          : '';
    rows.push([`λ ${id}`, `${(Number(b.bytes) / 1024).toFixed(0)} KiB (${(Number(b.gzipBytes) / 1024).toFixed(0)} KiB gzip)${cold}`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log('\n' + rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));
  console.log('\nwritten to bench/results/latest.json');
}

await main();
