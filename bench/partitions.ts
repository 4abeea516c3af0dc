/**
 * Partition heat at the launch's request rates (issue 36; in `npm run bench`, runnable alone with
 * `npx tsx bench/partitions.ts`): on a twin of its own whose functions send every DynamoDB request
 * through a recording relay, each path is driven a fixed number of times as a client would (the
 * integrator's look-ups over mutual TLS, a bookkeeper's monitored keys paid by its prepaid balance,
 * one client's webhook deliveries through the queue, the Sefaz load of a backlog with São Paulo at
 * 40 %), and the capacity units each operation put on each partition of the table and of each index
 * are projected at the launch rates (tests/load/partitions.ts, tests/load/capacity.ts). Written to
 * bench/results/partitions.json: per path, `unitsPerOp` of its hottest partition (table or index, with
 * the key's pattern), `sharePerPartition` at the rate and `meetsAim` (≤ 0.30). Counts, not times.
 *
 * The billing run of 1,000 clients in 10 minutes (BENCH_PARTITIONS_BILLING_CLIENTS, 30, clients with
 * last month's counters, billed by one run of the Faturamento state machine with the twin's other
 * clients) and the resume of a webhook endpoint paused with deliveries held (BENCH_PARTITIONS_OPS of
 * them, delivered again at 2,000/s) are paths too.
 *
 * BENCH_PARTITIONS_OPS (400) operations per path. The ingestion loads BENCH_PARTITIONS_INGESTION
 * (2,700) documents: about one full distribution answer (50 documents) per stream of the 54, as the
 * streams answer at the launch's 600 Fat-e/s (catching up, every call brings a full answer), so what a
 * load writes once per answer (its cursor, its processing summary) is spread as it will be; a small
 * backlog would charge each answer to a handful of documents.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AIM, measurePartitions } from '../tests/load/partitions';

const OPS = Number(process.env.BENCH_PARTITIONS_OPS ?? 400);
const INGESTION = Number(process.env.BENCH_PARTITIONS_INGESTION ?? 2_700);
/** Clients seeded for the billing run: its operations are every client it bills, whatever OPS. */
const BILLING_CLIENTS = Number(process.env.BENCH_PARTITIONS_BILLING_CLIENTS ?? 30);

export async function partitionHeat(root: string) {
  const paths = await measurePartitions({
    root,
    ops: { meteredLookups: OPS, prepaidDebits: OPS, webhookDeliveries: OPS, ingestion: INGESTION, billingRun: BILLING_CLIENTS, webhookResume: OPS },
    log: (line) => console.error(line),
  });
  const result = {
    aim: AIM,
    opsPerPath: OPS,
    ingestionDocuments: INGESTION,
    billingClients: BILLING_CLIENTS,
    rules: '1 KB a write unit, 4 KB a read unit, halved when eventually consistent, doubled in transactions (index writes too), index writes by their projected size; a partition serves 1,000 WCU and 3,000 RCU a second; a sharded key by its shards\' mean',
    allMeetAim: paths.every((p) => p.meetsAim),
    paths,
  };
  await writeFile(join(root, 'bench/results/partitions.json'), JSON.stringify(result, null, 2) + '\n');
  return result;
}

if (process.argv[1]?.endsWith('partitions.ts')) {
  const r = await partitionHeat(fileURLToPath(new URL('..', import.meta.url)));
  for (const p of r.paths) {
    console.error(
      `${p.path.padEnd(18)} ${(p.sharePerPartition * 100).toFixed(1).padStart(5)} %  ${p.hottest.where} ${p.hottest.pattern}: ${p.unitsPerOp.wcu} WCU + ${p.unitsPerOp.rcu} RCU per op on each of ${p.hottest.shards} at ${p.hottest.rate}/s${p.meetsAim ? '' : '  (misses the aim)'}`,
    );
  }
  console.log(JSON.stringify(r));
  process.exit(0);
}
