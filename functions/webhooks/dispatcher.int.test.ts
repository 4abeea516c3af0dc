import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookQueue } from '../../infra/lib/topology';
import { verify } from './signature';

/**
 * Through the twin: a message on the webhook queue is consumed by the dispatcher Lambda; one whose
 * receiver keeps failing is retried maxReceiveCount times and then lands in the dead-letter queue.
 */
const sqs = new SQSClient({});
const received: { path: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let receiver: Server;
let base: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(req.url === '/ok' ? 204 : 500).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));


function send(delivery: Record<string, unknown>) {
  return sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: JSON.stringify(delivery) }));
}

describe('webhook dispatch through SQS', () => {
  it('delivers a message to its URL with the delivery headers', async () => {
    const deliveryId = randomUUID();
    await send({ deliveryId, url: `${base}/ok`, event: 'EVENTO', payload: { chave: '29' + '0'.repeat(42) }, basicAuth: { user: 'u', password: 'p' } });
    const hit = await vi.waitUntil(() => received.find((r) => r.headers['x-plac-delivery-id'] === deliveryId), { timeout: 15_000, interval: 250 });
    expect(hit.path).toBe('/ok');
    expect(JSON.parse(hit.body)).toEqual({ chave: '29' + '0'.repeat(42) });
    expect(hit.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(hit.headers['x-plac-event']).toBe('EVENTO');
  });

  it('signs a delivery with the client’s secret: the receiver verifies it as the docs show', async () => {
    const deliveryId = randomUUID();
    const secret = 'segredo-de-teste-do-cliente';
    await send({ deliveryId, url: `${base}/ok`, event: 'EVENTO', payload: { n: 2 }, signingSecret: secret });
    const hit = await vi.waitUntil(() => received.find((r) => r.headers['x-plac-delivery-id'] === deliveryId), { timeout: 15_000, interval: 250 });
    const headers = { timestamp: hit.headers['x-plac-timestamp'] as string, signature: hit.headers['x-plac-signature'] as string };
    expect(verify(secret, headers, hit.body)).toBe('valid');
    expect(verify(secret, headers, hit.body.replace('2', '3'))).toBe('signature');
  });

  it('retries a failing delivery maxReceiveCount times, then moves it to the dead-letter queue', async () => {
    const deliveryId = randomUUID();
    await send({ deliveryId, url: `${base}/fail`, event: 'EVENTO', payload: { n: 1 } });
    const dead = await vi.waitUntil(async () => {
      const { Messages } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: process.env.WEBHOOK_DLQ_URL, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      return Messages?.find((m) => m.Body?.includes(deliveryId));
    }, { timeout: 45_000, interval: 250 });
    expect(JSON.parse(dead.Body!)).toMatchObject({ deliveryId, url: `${base}/fail` });
    const attempts = received.filter((r) => r.headers['x-plac-delivery-id'] === deliveryId).length;
    expect(attempts).toBe(webhookQueue.maxReceiveCount);
  });
});
