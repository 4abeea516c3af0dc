import { randomInt, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText, todayInBahia } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { callAs } from './http';
import { enfileirarEntregas } from '../../functions/webhooks/fila';
import { lerEntrega, registrarEntrega, registrarTentativa, MAX_TENTATIVAS } from '../../functions/webhooks/log-store';
import { waitForMail } from './mail';
import { configurarWebhook } from './webhooks';

/**
 * The monitoring API on the twin: the role matrix and client ownership, the period's validation, and
 * a replay that re-delivers a failed delivery once (through the queue and the dispatcher).
 */
const sufixo = randomUUID().slice(0, 8);
const clienteA = `wh-a-${sufixo}`;
const clienteB = `wh-b-${sufixo}`;
const admin: Principal = { userId: 'wh-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] };
const monitorA: Principal = { userId: 'wh-mon-a', name: 'Monitor A', tipo: 'C', roles: ['cliente_monitoramento'], clienteId: clienteA };
const clienteComum: Principal = { userId: 'wh-cli', name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: clienteA };
const hoje = todayInBahia();
const cnpjB = ((first12) => first12 + cnpjCheckDigits(first12))(`${String(randomInt(10_000_000, 99_999_999))}0001`);

const hits = new Map<string, number>();
let receiver: Server;
let base: string;
const ids = { a: randomUUID(), b: randomUUID(), b2: randomUUID() };
/** The paused client's endpoint (/falha) fails until the test mends it. */
let pSaudavel = false;

async function falha(deliveryId: string, clienteId: string) {
  await registrarEntrega({ deliveryId, clienteId, razaoSocial: `Empresa ${clienteId}`, operacao: 'EVENTO', descricao: 'Evento', body: '{"n":1}', url: `${base}/ok`, dataCriacao: new Date().toISOString() });
  await registrarTentativa({ deliveryId, mensagemId: 'm', recebimento: MAX_TENTATIVAS, instante: new Date().toISOString(), status: 500, latenciaMs: 3 });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    const id = String(req.headers['x-plac-delivery-id']);
    hits.set(id, (hits.get(id) ?? 0) + 1);
    res.writeHead(req.url === '/falha' && !pSaudavel ? 500 : 204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // A replay goes by the client's configuration in force, as a producer's delivery does.
  await configurarWebhook(clienteA, `${base}/ok`);
  await configurarWebhook(clienteB, `${base}/ok`);
  const agora = new Date().toISOString();
  await putCliente({ clienteId: clienteB, cnpj: cnpjB, razaoSocial: `Empresa ${clienteB}`, razaoFolded: foldText(`Empresa ${clienteB}`), tipoCliente: 'ESF', situacao: 'A', email: `${clienteB}@teste.local`, createdAt: agora, updatedAt: agora });
  await falha(ids.a, clienteA);
  await falha(ids.b, clienteB);
  await falha(ids.b2, clienteB);
});

afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const req = callAs;

const lista = (q: string) => `/api/v1/webhook-monitoramento?dataInicial=${hoje}&dataFinal=${hoje}${q}`;


/** Follows a resume or replay-all job until it ends, as the screen does. */
async function jobConcluido(jobId: string, quem: Principal): Promise<Record<string, unknown>> {
  return vi.waitUntil(
    async () => {
      const r = await req('GET', `/api/v1/webhook-monitoramento-jobs/${jobId}`, quem);
      expect(r.status).toBe(200);
      const body = r.body as Record<string, unknown>;
      return body.situacao === 'CONCLUIDO' ? body : undefined;
    },
    { timeout: 30_000, interval: 300 },
  );
}

describe('webhook monitoring API', () => {
  it('the administrator sees every client by default, and one client when asked', async () => {
    const todos = await req('GET', lista('&perPage=100'), admin);
    expect(todos.status).toBe(200);
    const vistos = (todos.body as { items: { deliveryId: string }[] }).items.map((m) => m.deliveryId);
    expect(vistos).toEqual(expect.arrayContaining([ids.a, ids.b, ids.b2]));
    const soB = await req('GET', lista(`&idCliente=${clienteB}`), admin);
    expect((soB.body as { items: unknown[] }).items).toHaveLength(2);
    expect(soB.body).not.toHaveProperty('nextCursor');
    expect((soB.body as { items: unknown[] }).items[0]).toMatchObject({ clienteId: clienteB, razaoSocial: `Empresa ${clienteB}`, tentativas: 1, situacao: 'FALHA', body: '{"n":1}' });
  });

  it('a cliente_monitoramento user sees only its own client; another’s is 403 clienteNaoPermitido', async () => {
    const proprio = await req('GET', lista(''), monitorA);
    expect(proprio.body).toEqual({ items: [expect.objectContaining({ deliveryId: ids.a })] });
    expect((await req('GET', lista(`&idCliente=${clienteB}`), monitorA)).body).toMatchObject({ error: 'clienteNaoPermitido' });
    expect((await req('GET', `/api/v1/webhook-monitoramento/${ids.b}/tentativas`, monitorA)).status).toBe(403);
    expect((await req('POST', `/api/v1/webhook-monitoramento/${ids.b}/reenvio`, monitorA)).status).toBe(403);
    expect((await req('POST', '/api/v1/webhook-monitoramento/reenvio', monitorA, { idCliente: clienteB, dataInicial: hoje, dataFinal: hoje })).status).toBe(403);
    expect((await req('GET', lista(''), clienteComum)).status).toBe(403);
    const historico = await req('GET', `/api/v1/webhook-monitoramento/${ids.a}/tentativas`, monitorA);
    expect(historico.body).toEqual([expect.objectContaining({ numero: 1, status: 500, erro: null, latenciaMs: 3 })]);
  });

  it('answers the spec’s form too: POST with the client’s CNPJ (a client user still sees only its own)', async () => {
    const porCnpj = await req('POST', '/api/v1/webhook-monitoramento', admin, { cnpj: cnpjB, dataInicial: hoje, dataFinal: hoje, perPage: 10 });
    expect(porCnpj.status).toBe(200);
    expect((porCnpj.body as { items: unknown[] }).items).toHaveLength(2);
    expect((await req('POST', '/api/v1/webhook-monitoramento', monitorA, { cnpj: cnpjB, dataInicial: hoje, dataFinal: hoje })).status).toBe(403);
    expect((await req('POST', '/api/v1/webhook-monitoramento', admin, { cnpj: '11.111.111/1111-11', dataInicial: hoje, dataFinal: hoje })).status).toBe(400);
    expect((await req('POST', '/api/v1/webhook-monitoramento', monitorA, { dataInicial: hoje, dataFinal: hoje })).body).toEqual({ items: [expect.objectContaining({ deliveryId: ids.a })] });
  });

  it('validates the period: start after end, more than 90 days, a bad date (400 with the catalogue text)', async () => {
    const invertido = await req('GET', '/api/v1/webhook-monitoramento?dataInicial=2026-02-02&dataFinal=2026-02-01', admin);
    expect(invertido).toMatchObject({ status: 400, body: { error: 'dataInicioMaiorDataFim', message: 'Data Início maior que Data Fim.' } });
    const longo = await req('GET', '/api/v1/webhook-monitoramento?dataInicial=01/01/2026&dataFinal=02/04/2026', admin);
    expect(longo).toMatchObject({ status: 400, body: { error: 'periodoMaximo' } });
    expect((await req('GET', '/api/v1/webhook-monitoramento?dataInicial=31/02/2026&dataFinal=x', admin)).status).toBe(400);
    expect((await req('GET', '/api/v1/webhook-monitoramento/%00/tentativas', admin)).status).toBe(400);
    expect((await req('GET', `/api/v1/webhook-monitoramento/${randomUUID()}/tentativas`, admin)).status).toBe(404);
  });

  it('replays a failed delivery once: delivered, then a second replay answers it was delivered', async () => {
    const first = await req('POST', `/api/v1/webhook-monitoramento/${ids.a}/reenvio`, monitorA);
    expect(first.status).toBe(200);
    const again = await req('POST', `/api/v1/webhook-monitoramento/${ids.a}/reenvio`, monitorA);
    expect(again.status).toBe(409); // pending (or already delivered): not enqueued twice
    await vi.waitUntil(async () => ((await lerEntrega(ids.a))?.situacao === 'ENTREGUE' ? true : undefined), { timeout: 30_000, interval: 300 });
    expect(hits.get(ids.a)).toBe(1);
    const depois = await req('POST', `/api/v1/webhook-monitoramento/${ids.a}/reenvio`, monitorA);
    expect(depois).toMatchObject({ status: 409, body: { error: 'webhookJaEntregue' } });
    expect((await lerEntrega(ids.a))?.tentativas).toBe(2);
  }, 60_000);

  it('replays every failed delivery of the period and client', async () => {
    const res = await req('POST', '/api/v1/webhook-monitoramento/reenvio', admin, { idCliente: clienteB, dataInicial: hoje, dataFinal: hoje });
    expect(res).toMatchObject({ status: 202, body: { jobId: `reenvio.${clienteB}`, tipo: 'reenvio' } });
    expect(await jobConcluido(`reenvio.${clienteB}`, admin)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 2 });
    // Another client's monitoring user cannot follow it.
    expect((await req('GET', `/api/v1/webhook-monitoramento-jobs/reenvio.${clienteB}`, monitorA)).status).toBe(403);
    expect((await req('GET', '/api/v1/webhook-monitoramento-jobs/nada', admin)).status).toBe(400);
    await vi.waitUntil(async () => (hits.get(ids.b) === 1 && hits.get(ids.b2) === 1 ? true : undefined), { timeout: 30_000, interval: 300 });
    const denovo = await req('POST', '/api/v1/webhook-monitoramento/reenvio', admin, { idCliente: clienteB, dataInicial: hoje, dataFinal: hoje });
    expect(denovo.status).toBe(202);
    expect(await jobConcluido(`reenvio.${clienteB}`, admin)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 0 });
  }, 60_000);

  it('pauses an endpoint whose delivery used up its retries with no success, e-mails the client, holds its deliveries and resumes them', async () => {
    const clienteP = `wh-p-${sufixo}`;
    const monitorP: Principal = { userId: 'wh-mon-p', name: 'Monitor P', tipo: 'C', roles: ['cliente_monitoramento'], clienteId: clienteP };
    await configurarWebhook(clienteP, `${base}/falha`, { email: `ti-${sufixo}@banco.local` });
    const [d1, d2] = [`EVENTO:${clienteP}:1`, `EVENTO:${clienteP}:2`];
    await enfileirarEntregas([{ deliveryId: d1, clienteId: clienteP, razaoSocial: 'Banco P', operacao: 'EVENTO', payload: { versao: 1 } }]);
    await vi.waitUntil(async () => ((await lerEntrega(d1))?.situacao === 'FALHA' ? true : undefined), { timeout: 60_000, interval: 500 });
    const aviso = await waitForMail(`ti-${sufixo}@banco.local`, 'envio de webhook pausado');
    expect(aviso.text).toContain(`${base}/falha`);

    const pausas = await req('GET', `/api/v1/webhook-monitoramento/pausas?idCliente=${clienteP}`, admin);
    expect(pausas.body).toEqual([expect.objectContaining({ clienteId: clienteP, razaoSocial: 'Banco P', operacao: 'EVENTO', url: `${base}/falha` })]);
    expect((await req('GET', `/api/v1/webhook-monitoramento/pausas?idCliente=${clienteP}`, monitorA)).status).toBe(403);

    // While paused a new delivery is held, not posted.
    await enfileirarEntregas([{ deliveryId: d2, clienteId: clienteP, operacao: 'EVENTO', payload: { versao: 1 } }]);
    await vi.waitUntil(async () => ((await lerEntrega(d2))?.situacao === 'PAUSADA' ? true : undefined), { timeout: 15_000, interval: 300 });
    expect(hits.get(d2)).toBeUndefined();

    pSaudavel = true;
    expect((await req('POST', `/api/v1/webhook-monitoramento/pausas/${clienteP}/EVENTO/retomada`, monitorA)).status).toBe(403);
    const retomada = await req('POST', `/api/v1/webhook-monitoramento/pausas/${clienteP}/EVENTO/retomada`, monitorP);
    expect(retomada).toMatchObject({ status: 202, body: { jobId: `retomada.${clienteP}.EVENTO`, tipo: 'retomada' } });
    expect(await jobConcluido(`retomada.${clienteP}.EVENTO`, monitorP)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 1, message: 'Envio retomado: 1 mensagem(ns) retida(s) enviada(s) para entrega.' });
    await vi.waitUntil(async () => ((await lerEntrega(d2))?.situacao === 'ENTREGUE' ? true : undefined), { timeout: 15_000, interval: 300 });
    expect(hits.get(d2)).toBe(1);
    const denovo = await req('POST', `/api/v1/webhook-monitoramento/pausas/${clienteP}/EVENTO/retomada`, monitorP);
    expect(denovo).toMatchObject({ status: 409, body: { error: 'webhookNaoPausado' } });
    expect((await req('POST', `/api/v1/webhook-monitoramento/pausas/${clienteP}/NADA/retomada`, admin)).status).toBe(400);
  }, 90_000);
});
