import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { anunciarTentativa, entidadeMarcador, lerEntrega, registrarEntrega, registrarTentativa, tentativasDe } from './log-store';
import { SEM_RESPOSTA_REGISTRADA, tentativas as tentativasDaTela } from './service';

/**
 * The delivery log through the twin: the dispatcher Lambda records the delivery and each attempt
 * (status, latency) in DynamoDB Local; an attempt recorded twice counts once.
 */
const sqs = new SQSClient({});
const hits = new Map<string, number>();
let receiver: Server;
let base: string;

beforeAll(async () => {
  // Fails the first attempt of each delivery with 503, accepts the second.
  receiver = createServer((req, res) => {
    req.resume();
    const id = String(req.headers['x-plac-delivery-id']);
    const n = (hits.get(id) ?? 0) + 1;
    hits.set(id, n);
    res.writeHead(n === 1 ? 503 : 204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));


describe('webhook delivery log', () => {
  it('records a delivery that fails then succeeds: two attempts with their status codes', async () => {
    const deliveryId = randomUUID();
    const message = { deliveryId, url: `${base}/hook`, operacao: 'EVENTO', payload: { n: 7 }, clienteId: 'cli-log', razaoSocial: 'Empresa Log', descricao: 'Evento de teste' };
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: JSON.stringify(message) }));
    const entrega = await vi.waitUntil(async () => {
      const e = await lerEntrega(deliveryId);
      return e?.situacao === 'ENTREGUE' ? e : undefined;
    }, { timeout: 60_000, interval: 300 });
    expect(entrega).toMatchObject({ clienteId: 'cli-log', razaoSocial: 'Empresa Log', descricao: 'Evento de teste', operacao: 'EVENTO', tentativas: 2 });
    expect(JSON.parse(entrega.body)).toEqual({ n: 7 });
    const tentativas = await tentativasDe(deliveryId);
    expect(tentativas.map((t) => t.status)).toEqual([503, 204]);
    expect(tentativas.map((t) => t.recebimento)).toEqual([1, 2]);
    expect(tentativas.every((t) => t.latenciaMs >= 0)).toBe(true);
    // The log ends 135 days (90 of replay, 45 for the evidence archive: issue 41) after the delivery's creation, its attempts with it.
    const fim = Math.floor(Date.parse(entrega.dataCriacao) / 1000) + 135 * 86_400;
    expect([entrega.expiresAt, ...tentativas.map((t) => t.expiresAt)]).toEqual([fim, fim, fim]);
  }, 90_000);

  it('an SQS redelivery of an attempt already recorded does not count it again', async () => {
    const deliveryId = randomUUID();
    const dataCriacao = new Date().toISOString();
    await registrarEntrega({ deliveryId, clienteId: 'cli-log', operacao: 'EVENTO', descricao: 'x', body: '{}', url: 'https://example.com/h', dataCriacao });
    await registrarEntrega({ deliveryId, clienteId: 'outro', operacao: 'EVENTO', descricao: 'y', body: '{}', url: 'https://example.com/h', dataCriacao: new Date(Date.now() + 60_000).toISOString() });
    const attempt = { deliveryId, mensagemId: 'm-1', recebimento: 1, instante: new Date().toISOString(), status: 500, latenciaMs: 12 };
    expect(await registrarTentativa(attempt)).toBe(true);
    expect(await registrarTentativa(attempt)).toBe(false);
    expect(await lerEntrega(deliveryId)).toMatchObject({ clienteId: 'cli-log', tentativas: 1, situacao: 'PENDENTE', ultimoStatus: '500' });
    expect(await tentativasDe(deliveryId)).toHaveLength(1);
    // The delivery, its attempt and the marker its failure opened end together, from the first creation's instant.
    const fim = Math.floor(Date.parse(dataCriacao) / 1000) + 135 * 86_400;
    const marcador = (await entidadeMarcador().get({ deliveryId }).go({ consistent: true })).data;
    expect([(await lerEntrega(deliveryId))?.expiresAt, (await tentativasDe(deliveryId))[0]?.expiresAt, marcador?.expiresAt]).toEqual([fim, fim, fim]);
  });

  it('logs an attempt before its POST: a process that dies during it leaves the attempt shown, and its outcome is written once (issue 42)', async () => {
    const deliveryId = randomUUID();
    const dataCriacao = new Date().toISOString();
    await registrarEntrega({ deliveryId, clienteId: 'cli-log', operacao: 'EVENTO', descricao: 'x', body: '{}', url: 'https://example.com/h', dataCriacao });
    const admin: Principal = { userId: 'log-admin', name: 'Admin Log', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
    // The first receive's process dies during the POST: only what was written before it is there.
    const primeira = { deliveryId, mensagemId: 'm-1', recebimento: 1, instante: new Date().toISOString() };
    await anunciarTentativa(primeira, dataCriacao);
    await anunciarTentativa(primeira, dataCriacao);
    expect(await tentativasDaTela(admin, deliveryId)).toEqual([{ numero: 1, instante: primeira.instante, status: null, erro: SEM_RESPOSTA_REGISTRADA, latenciaMs: 0 }]);
    // The next receive posts and answers; the lost one stays in the log as it was.
    const segunda = { deliveryId, mensagemId: 'm-1', recebimento: 2, instante: new Date(Date.now() + 1000).toISOString() };
    await anunciarTentativa(segunda, dataCriacao);
    expect(await registrarTentativa({ ...segunda, status: 204, latenciaMs: 40 })).toBe(true);
    expect(await registrarTentativa({ ...segunda, status: 204, latenciaMs: 40 })).toBe(false);
    expect((await tentativasDaTela(admin, deliveryId)).map((t) => [t.status, t.erro])).toEqual([[null, SEM_RESPOSTA_REGISTRADA], [204, null]]);
    expect(await lerEntrega(deliveryId)).toMatchObject({ situacao: 'ENTREGUE', tentativas: 1, ultimoStatus: '204' });
  });
});
