import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { monthOf, SERVICO } from '@plac/shared/domain';
import { webhookQueue } from '../../infra/lib/topology';
import { consumoDoCliente } from '../consumo';
import { configurarWebhook, novoCliente, receptor } from '../../tests/api/webhooks';
import { enfileirarEntregas } from './fila';
import { lerEntrega, tentativasDe } from './log-store';
import { verify } from './signature';

/**
 * Through the twin: messages on the webhook queue are consumed by the dispatcher Lambda, which sends
 * each with the client's configuration read at send time; a delivery whose receiver keeps failing is
 * retried on its schedule (shortened to 1 s here) maxReceiveCount times, then lands in the dead-letter
 * queue; a delivery that depends on another is not posted before that one was delivered.
 */
const sqs = new SQSClient({});
let rx: Awaited<ReturnType<typeof receptor>>;
/** Paths under /lento answer 503 until the test lets them through. */
let liberado = false;

beforeAll(async () => {
  rx = await receptor((r) => (r.path === '/ok' ? 204 : r.path === '/lento' ? (liberado ? 204 : 503) : 500));
});

afterAll(() => rx.close());

const recebida = (deliveryId: string) =>
  vi.waitUntil(() => rx.de(deliveryId).at(-1), { timeout: 15_000, interval: 200 });

describe('webhook dispatch through SQS', () => {
  it('sends a message that names its own URL there, unsigned, with the delivery headers (the platform proof)', async () => {
    const deliveryId = randomUUID();
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: JSON.stringify({ deliveryId, url: `${rx.base}/ok`, operacao: 'EVENTO', payload: { n: 1 } }) }));
    const hit = await recebida(deliveryId);
    expect(hit.path).toBe('/ok');
    expect(JSON.parse(hit.body)).toEqual({ n: 1 });
    expect(hit.headers['x-plac-event']).toBe('EVENTO');
    expect(hit.headers['x-plac-signature']).toBeUndefined();
    expect(hit.headers.authorization).toBeUndefined();
  });

  it('sends a client’s delivery with the configuration read at send time: its URL, Basic credentials and signature', async () => {
    const clienteId = novoCliente('wh-cfg');
    const segredo = 'whsec_segredo-de-teste-do-cliente';
    await configurarWebhook(clienteId, `${rx.base}/ok`, { operacao: 'ESCR_FAT', usuario: 'erp', senha: 's3nh@', segredo });
    const deliveryId = `ESCR_FAT:${clienteId}:1`;
    await enfileirarEntregas([{ deliveryId, clienteId, operacao: 'ESCR_FAT', payload: { versao: 1, chave: '29'.padEnd(44, '0'), uf: 'BA' } }]);
    const hit = await recebida(deliveryId);
    expect(hit.headers.authorization).toBe(`Basic ${Buffer.from('erp:s3nh@').toString('base64')}`);
    expect(hit.headers['x-plac-event']).toBe('ESCR_FAT');
    const headers = { timestamp: hit.headers['x-plac-timestamp'] as string, signature: hit.headers['x-plac-signature'] as string };
    expect(verify(segredo, headers, hit.body)).toBe('valid');
    // Nothing secret is kept with the delivery.
    const entrega = await vi.waitUntil(async () => ((await lerEntrega(deliveryId))?.situacao === 'ENTREGUE' ? lerEntrega(deliveryId) : undefined), { timeout: 10_000 });
    expect(JSON.stringify(entrega)).not.toContain('s3nh@');
    expect(JSON.stringify(entrega)).not.toContain(segredo);
    expect(entrega?.url).toBe(`${rx.base}/ok`);
    // The Fat-e delivered is metered once as 'Envio de Fat-e', even when the same message comes again.
    const enviosFate = async () => (await consumoDoCliente(clienteId, monthOf(new Date()))).filter((c) => c.servico === SERVICO.envioFate);
    await vi.waitUntil(async () => ((await enviosFate()).length ? true : undefined), { timeout: 5_000 });
    await enfileirarEntregas([{ deliveryId, clienteId, operacao: 'ESCR_FAT', payload: { versao: 1, chave: '29'.padEnd(44, '0'), uf: 'BA' } }]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(rx.de(deliveryId)).toHaveLength(1);
    expect(await enviosFate()).toEqual([expect.objectContaining({ uf: 'BA', requisicoes: 1 })]);
  });

  it('holds an event until the Fat-e it refers to was delivered, even when the event is queued first', async () => {
    const clienteId = novoCliente('wh-ord');
    await configurarWebhook(clienteId, `${rx.base}/lento`, { operacao: 'ESCR_FAT' });
    await configurarWebhook(clienteId, `${rx.base}/ok`, { operacao: 'ESCR_EVENTO' });
    const fate = `ESCR_FAT:${clienteId}:2`;
    const evento = `ESCR_EVENTO:${clienteId}:2:110111`;
    await enfileirarEntregas([{ deliveryId: evento, clienteId, operacao: 'ESCR_EVENTO', payload: { versao: 1, tipo: '110111' }, dependeDe: fate }]);
    await enfileirarEntregas([{ deliveryId: fate, clienteId, operacao: 'ESCR_FAT', payload: { versao: 1, chave: '29'.padEnd(44, '2'), uf: 'BA' } }]);
    await vi.waitUntil(() => rx.de(fate).length >= 2, { timeout: 15_000, interval: 200 }); // the Fat-e failed twice…
    expect(rx.de(evento)).toHaveLength(0); // …and the event waited
    liberado = true;
    const hit = await recebida(evento);
    expect(hit.instante).toBeGreaterThan(rx.de(fate).at(-1)!.instante);
    const espera = await tentativasDe(evento);
    expect(espera[0]?.erro).toBe(`aguardando a entrega ${fate}`);
  }, 40_000);

  it('retries a failing delivery maxReceiveCount times on its schedule, then moves it to the dead-letter queue', async () => {
    const deliveryId = randomUUID();
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: JSON.stringify({ deliveryId, url: `${rx.base}/fail`, operacao: 'EVENTO', payload: { n: 1 } }) }));
    const dead = await vi.waitUntil(async () => {
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: process.env.WEBHOOK_DLQ_URL, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      return Messages?.find((m) => m.Body?.includes(deliveryId));
    }, { timeout: 60_000, interval: 250 });
    expect(JSON.parse(dead.Body!)).toMatchObject({ deliveryId, url: `${rx.base}/fail` });
    expect(rx.de(deliveryId)).toHaveLength(webhookQueue.maxReceiveCount);
    expect((await lerEntrega(deliveryId))?.situacao).toBe('FALHA');
  }, 70_000);
});
