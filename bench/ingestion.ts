/**
 * Ingestion throughput: documents per second from the Sefaz simulator to the store, end to end on a
 * twin of its own (the Sefaz load state machine → loader Lambda → mutual-TLS distribution calls →
 * parse → S3 + DynamoDB Local), next to raw DynamoDB Local BatchWriteItem throughput from this same
 * process for as many items as the load wrote. The ratio is the figure: the time BatchWrite needs for
 * those items over the time the load took, i.e. what parsing, S3, conditional writes and the cursor
 * cost over bare writes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteItemCommand, DynamoDBClient, ScanCommand, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { UF_SIGLAS } from '@plac/shared/domain';
import { sefazLoadStateMachine } from '../infra/lib/topology';
import { freePort } from '../infra/local/emulators/ports';
import { startTwin } from '../infra/local/twin';
import { round } from './medidas';

const BACKLOG = Number(process.env.BENCH_SEFAZ_BACKLOG ?? 100);
/** As many writes in flight as the load has at most: 5 UFs at a time, 8 documents each. */
const IN_FLIGHT = 40;

export async function ingestionThroughput(root: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-ingestion-'));
  const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
  const twin = await startTwin({ dataDir, ports, web: 'none', webDir: join(root, 'web'), schedules: false, sefaz: { backlog: BACKLOG, trickle: false } });
  try {
    // Both distributions of every UF: goods (NF-e) and transport (CT-e).
    const documents = UF_SIGLAS.reduce((sum, uf) => sum + twin.sefaz.maxNsu(uf, 'nfe') + twin.sefaz.maxNsu(uf, 'cte'), 0);
    const before = await itemCount(twin.env);
    const t0 = performance.now();
    const { output } = await twin.stateMachines.get(sefazLoadStateMachine.id)!.execute({ trigger: 'bench' });
    const seconds = (performance.now() - t0) / 1000;
    // A document is several items (a Fat-e and one item per instalment, its summary, the cursor…).
    const itemsWritten = (await itemCount(twin.env)) - before;
    const endToEnd = { documents, itemsWritten, seconds: round(seconds, 1), documentsPerSecond: round(documents / seconds, 1), summary: output };
    // The same number of items, written bare: what the pipeline's work would take at BatchWrite speed.
    const raw = await rawBatchWrite(twin.env, itemsWritten);
    return {
      endToEnd,
      dynamoDbBatchWrite: raw,
      /** BatchWrite's time for the same items over the pipeline's time: the share of raw write speed kept. */
      ratio: round(raw.seconds / seconds, 3),
      /** Documents per second over BatchWrite items per second, as if a document were one item. */
      ratioPerItem: round(endToEnd.documentsPerSecond / raw.itemsPerSecond, 3),
    };
  } finally {
    await twin.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const clientOf = (env: Record<string, string>) =>
  new DynamoDBClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

/** Items in the application table (a counting Scan: the bench's own throw-away twin only). */
async function itemCount(env: Record<string, string>): Promise<number> {
  const client = clientOf(env);
  let count = 0;
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: env.TABLE_NAME, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey as Record<string, never> | undefined;
  } while (start);
  return count;
}

/** `count` items of about a Fat-e's size, 25 per BatchWriteItem, IN_FLIGHT requests at a time. */
async function rawBatchWrite(env: Record<string, string>, count: number) {
  const client = clientOf(env);
  const item = (i: number): WriteRequest => ({
    PutRequest: {
      Item: {
        pk: { S: `bench#${i}` },
        sk: { S: 'raw' },
        gsi1pk: { S: `bench-emitente#${i % 40}` },
        gsi1sk: { S: `2026-11-23T12:00:00.000Z#${i}` },
        payload: { S: 'x'.repeat(900) },
      },
    },
  });
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < count; i += 25) batches.push(Array.from({ length: Math.min(25, count - i) }, (_, j) => item(i + j)));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < batches.length) {
        let requests: WriteRequest[] | undefined = batches[next++];
        // Unprocessed items are sent again, as a real writer must.
        while (requests && requests.length > 0) {
          const r = await client.send(new BatchWriteItemCommand({ RequestItems: { [env.TABLE_NAME!]: requests } }));
          requests = r.UnprocessedItems?.[env.TABLE_NAME!];
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { items: count, inFlight: IN_FLIGHT, seconds: round(seconds, 2), itemsPerSecond: round(count / seconds, 1) };
}

