/**
 * The webhook load test (issue 16; run by `npm run bench`, never by `npm test`): DELIVERIES deliveries
 * for CLIENTS clients put on the webhook queue of a twin of its own, against a loopback receiver that
 * fails 30 % of requests at random (503) and answers 5 % slowly (1–3 s). The receiver verifies every
 * request's signature with the client's secret, as docs/webhooks.md tells integrators to.
 *
 * It checks that every delivery was received with a valid signature (at least once; duplicates are
 * counted by delivery id), that none reached the dead-letter queue, and quotes deliveries per second
 * and the attempts per delivery. The retry schedule is the real one shortened to 1 s per wait (the
 * twin's test setting), with the real 13 receives.
 *
 * Run as its own process (`tsx tests/load/webhooks.ts`): the twin sets the functions' environment in it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { freePort } from '../../infra/local/emulators/ports';
import { startTwin } from '../../infra/local/twin';

const DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 10_000);
const CLIENTS = 10;
const FAILURE_RATE = 0.3;
const SLOW_RATE = 0.05;
/** Concurrent consumers of the queue: Lambda runs several batches at once. */
const CONSUMERS = Number(process.env.BENCH_WEBHOOK_CONSUMERS ?? 8);

/** The verification docs/webhooks.md gives integrators. */
function verify(secret: string, timestampHeader: string | undefined, signatureHeader: string | undefined, rawBody: string, now = Date.now() / 1000) {
  const timestamp = Number(timestampHeader);
  if (!Number.isSafeInteger(timestamp) || Math.abs(now - timestamp) > 300) return false;
  const expected = Buffer.from('v1=' + createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex'));
  const given = Buffer.from(signatureHeader ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function webhookLoad(root: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-webhooks-'));
  const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
  const requests = new Map<string, number>(); // delivery id → requests received
  const accepted = new Map<string, number>(); // delivery id → 2xx answered
  const stats = { requests: 0, failed: 0, slow: 0, badSignature: 0 };
  const secrets = new Map<string, string>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      stats.requests++;
      const clienteId = (req.url ?? '').split('/')[2] ?? '';
      const id = String(req.headers['x-plac-delivery-id']);
      if (!verify(secrets.get(clienteId) ?? '', req.headers['x-plac-timestamp'] as string, req.headers['x-plac-signature'] as string, body)) {
        stats.badSignature++;
        res.writeHead(401).end();
        return;
      }
      requests.set(id, (requests.get(id) ?? 0) + 1);
      const answer = () => {
        if (Math.random() < FAILURE_RATE) {
          stats.failed++;
          res.writeHead(503).end();
        } else {
          accepted.set(id, (accepted.get(id) ?? 0) + 1);
          res.writeHead(204).end();
        }
      };
      if (Math.random() < SLOW_RATE) {
        stats.slow++;
        setTimeout(answer, 1000 + Math.random() * 2000);
      } else answer();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const twin = await startTwin({
    dataDir, ports, web: 'none', webDir: join(root, 'web'), schedules: false, sefaz: { backlog: 0, trickle: false },
    sqsRetryDelaySeconds: 1, webhookConsumers: CONSUMERS, accessLog: false,
  });
  try {
    const { configurarWebhook } = await import('../api/webhooks');
    const { enfileirarEntregas } = await import('../../functions/webhooks/fila');
    const clientes = Array.from({ length: CLIENTS }, (_, i) => `bench-wh-${i}`);
    for (const clienteId of clientes) {
      const segredo = `whsec_bench_${clienteId}_${Math.random().toString(36).slice(2)}`;
      secrets.set(clienteId, segredo);
      await configurarWebhook(clienteId, `${base}/hook/${clienteId}`, { operacao: 'ESCR_FAT', segredo });
    }
    const ids = Array.from({ length: DELIVERIES }, (_, i) => `ESCR_FAT:${clientes[i % CLIENTS]}:bench-${i}`);
    const t0 = performance.now();
    const entregas = ids.map((deliveryId, i) => ({
      deliveryId, clienteId: clientes[i % CLIENTS]!, operacao: 'ESCR_FAT' as const, payload: { versao: 1, tipo: 'ESCR_FAT', chave: `29${String(i).padStart(42, '0')}`, uf: 'BA' },
    }));
    for (let i = 0; i < entregas.length; i += 500) await enfileirarEntregas(entregas.slice(i, i + 500));
    const enqueueSeconds = (performance.now() - t0) / 1000;
    const deadline = Date.now() + 40 * 60_000;
    const sqs = new SQSClient({});
    // Until all were received, or the queue has been empty for 30 s (nothing left to try), or 40 min.
    for (let tick = 1, empty = 0; accepted.size < DELIVERIES && empty < 3 && Date.now() < deadline; tick++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (tick % 10 === 0) {
        const { Attributes: q } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
        empty = q?.ApproximateNumberOfMessages === '0' && q.ApproximateNumberOfMessagesNotVisible === '0' ? empty + 1 : 0;
        console.error(`webhook load: ${accepted.size} of ${DELIVERIES} delivered, ${stats.requests} requests; queue ${q?.ApproximateNumberOfMessages} visible, ${q?.ApproximateNumberOfMessagesNotVisible} in flight…`);
      }
    }
    const { lerEntrega, tentativasDe } = await import('../../functions/webhooks/log-store');
    for (const id of ids.filter((i) => !accepted.has(i)).slice(0, 3)) {
      console.error('missing', id, requests.get(id), JSON.stringify(await lerEntrega(id)), JSON.stringify(await tentativasDe(id)));
    }
    const seconds = (performance.now() - t0) / 1000;
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: process.env.WEBHOOK_DLQ_URL, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
    const histogram: Record<string, number> = {};
    for (const id of ids) {
      const n = requests.get(id) ?? 0;
      histogram[n] = (histogram[n] ?? 0) + 1;
    }
    const attempts = ids.map((id) => requests.get(id) ?? 0);
    return {
      deliveries: DELIVERIES,
      clients: CLIENTS,
      consumers: CONSUMERS,
      received: accepted.size,
      allReceived: ids.every((id) => (accepted.get(id) ?? 0) >= 1),
      duplicates: [...accepted.values()].filter((n) => n > 1).length,
      badSignatures: stats.badSignature,
      deadLettered: Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0),
      requests: stats.requests,
      injectedFailures: stats.failed,
      slowAnswers: stats.slow,
      attemptsPerDelivery: { mean: round(attempts.reduce((a, b) => a + b, 0) / DELIVERIES, 3), max: Math.max(...attempts), histogram },
      enqueueSeconds: round(enqueueSeconds, 1),
      seconds: round(seconds, 1),
      deliveriesPerSecond: round(accepted.size / seconds, 1),
    };
  } finally {
    await twin.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  }
}

function round(n: number, digits: number) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

if (process.argv[1]?.endsWith('webhooks.ts')) {
  const result = await webhookLoad(fileURLToPath(new URL('../..', import.meta.url)));
  console.log(JSON.stringify(result));
  process.exit(result.allReceived && result.deadLettered === 0 && result.badSignatures === 0 ? 0 : 1);
}
