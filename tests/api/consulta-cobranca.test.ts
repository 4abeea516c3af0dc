import { randomInt, randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { addDays, monthOf, SERVICO, todayInBahia } from '@plac/shared/domain';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as cessaoStore from '../../functions/cessao/leituras';
import { chamadorDoUsuario, esquecerCache } from '../../functions/consulta/chamador';
import { handler } from '../../functions/consulta/handler';
import { executar, LOTES } from '../../functions/consulta/lote';
import { requisicoesDoCliente } from '../../functions/consumo/store';
import { consumoDoCliente } from '../../functions/consumo';
import { nfeXml } from '../../functions/fate/fixtures/builder';
import * as fate from '../../functions/fate/service';
import { fatePorChave } from '../../functions/fate';
import * as cursor from '../../functions/platform/cursor';
import { novoCliente, novoCnpj } from './consulta-kit';

/**
 * No charge without an answer (issue 37 item 4): a look-up whose data was found but whose answer
 * could not be built (a read of our store failing after the Fat-e was found: the assignments, the
 * evidence, the carrier page's cursor) answers an error and leaves the client's consumption (the
 * counters and the request log) as it was; the same request afterwards, without the failure, is
 * charged exactly once, and once only however often it is retried with its Idempotency-Key.
 *
 * The failure is injected with vi.spyOn into the modules the look-up reads through, so the integrator
 * API's handler runs in this process (the twin's own handlers run in another and cannot be reached by
 * a spy), against the twin's DynamoDB. The look-ups are not paid by a prepaid balance (docs/prepago.md:
 * only deliveries, monitoring and assignments are), so the counters and the log are all a look-up
 * charges. Amapá (cUF 16): no other test loads documents from it; NSUs at random with the cursor unmoved.
 */

const UF = 'AP';
const CUF = '16';
const NFE = 'procNFe_v4.00.xsd';
const emitente = novoCnpj();
const destinatario = novoCnpj();
const transportador = novoCnpj();
const base = randomInt(1_000, 90_000) * 10;
const mes = monthOf(new Date());
let chaves: string[] = [];

beforeAll(async () => {
  const emissao = `${addDays(todayInBahia(), -5)}T10:00:00-03:00`;
  const docs = Array.from({ length: 4 }, (_, i) => nfeXml({ cUF: CUF, numero: base + i, emitente, destinatario: { cnpj: destinatario }, emissao, transportador }));
  chaves = docs.map((d) => d.chave);
  const r = await fate.ingerir(UF, docs.map((d, i) => ({ nsu: String(1_600_000 + base + i), schema: NFE, xml: d.xml })), { moverCursor: false });
  expect(r.fate).toBe(4);
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

/** What the client was charged this month: its counters (by service) and its request log. */
async function consumo(clienteId: string) {
  const contadores = await consumoDoCliente(clienteId, mes);
  const log = await requisicoesDoCliente(clienteId, mes);
  return {
    porServico: Object.fromEntries(contadores.filter((c) => c.requisicoes > 0).map((c) => [c.servico, c.requisicoes])),
    log: log.map((r) => [r.servico, r.chave]).sort(),
  };
}

/** A request to the integrator API as API Gateway hands it to the handler on the mutual-TLS domain. */
async function integrador(cert: { certPem: string }, method: 'GET' | 'POST', path: string, o: { body?: unknown; headers?: Record<string, string>; pathParameters?: Record<string, string> } = {}) {
  const [rawPath = path, rawQueryString = ''] = path.split('?');
  const query = Object.fromEntries(new URLSearchParams(rawQueryString));
  const event = {
    version: '2.0',
    routeKey: `${method} ${rawPath}`,
    rawPath,
    rawQueryString,
    headers: { ...(o.body === undefined ? {} : { 'content-type': 'application/json' }), ...o.headers },
    ...(rawQueryString ? { queryStringParameters: query } : {}),
    ...(o.pathParameters ? { pathParameters: o.pathParameters } : {}),
    requestContext: {
      domainName: 'mtls.localhost',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'teste' },
      requestId: randomUUID(),
      routeKey: `${method} ${rawPath}`,
      stage: '$default',
      authentication: { clientCert: { clientCertPem: cert.certPem } },
    },
    ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const fim = Date.now() + 30_000;
  const context = { functionName: 'consulta', awsRequestId: randomUUID(), getRemainingTimeInMillis: () => fim - Date.now() } as unknown as Context;
  const r = (await handler(event, context)) as { statusCode: number; body: string };
  return { status: r.statusCode, body: JSON.parse(r.body) as unknown };
}

const falhaDoStore = () => new Error('ProvisionedThroughputExceededException: injected by the test');
const ERRO_INTERNO = { error: 'erroInterno', message: 'Ocorreu um erro interno, contate o administrador do sistema' };

describe('a look-up that fails after finding its data charges nothing', () => {
  it('by key: the assignments read fails → 500, nothing charged; the same request again is charged once', async () => {
    const c = await novoCliente('ESF');
    esquecerCache();
    const pedir = () => integrador(c.cert, 'GET', `/api/v1/integracao/fate/${chaves[0]}`, { headers: { 'idempotency-key': 'cobranca-chave' }, pathParameters: { chave: chaves[0]! } });
    const cessoes = vi.spyOn(cessaoStore, 'cessoesDaFate').mockRejectedValueOnce(falhaDoStore());

    const falhou = await pedir();
    expect(cessoes).toHaveBeenCalled();
    expect(falhou).toEqual({ status: 500, body: ERRO_INTERNO });
    expect(await consumo(c.clienteId)).toEqual({ porServico: {}, log: [] });

    const respondida = await pedir();
    expect(respondida.status).toBe(200);
    expect(respondida.body).toMatchObject({ chave: chaves[0], duplicatas: [{ cessao: null }, { cessao: null }, { cessao: null }] });
    expect((await pedir()).status).toBe(200);
    expect(await consumo(c.clienteId)).toEqual({ porServico: { [SERVICO.fatePorChave]: 1 }, log: [[SERVICO.fatePorChave, chaves[0]]] });
  });

  it('by key without an Idempotency-Key: the failed call is not charged, the answered one is', async () => {
    const c = await novoCliente('ESF');
    esquecerCache();
    vi.spyOn(cessaoStore, 'cessoesDaFate').mockRejectedValueOnce(falhaDoStore());
    const pedir = () => integrador(c.cert, 'GET', `/api/v1/integracao/fate/${chaves[1]}`, { pathParameters: { chave: chaves[1]! } });
    expect((await pedir()).status).toBe(500);
    expect((await pedir()).status).toBe(200);
    expect(await consumo(c.clienteId)).toEqual({ porServico: { [SERVICO.fatePorChave]: 1 }, log: [[SERVICO.fatePorChave, chaves[1]]] });
  });

  it('receivable under evaluation: the evidence read fails → 500, nothing charged; then charged once', async () => {
    const c = await novoCliente('ESF');
    esquecerCache();
    const pedir = () =>
      integrador(c.cert, 'GET', `/api/v1/integracao/recebivel-avaliacao/${chaves[2]}`, { headers: { 'idempotency-key': 'cobranca-recebivel' }, pathParameters: { chave: chaves[2]! } });
    const evidencia = vi.spyOn(fate, 'evidenciaDaChave').mockRejectedValueOnce(falhaDoStore());

    expect(await pedir()).toEqual({ status: 500, body: ERRO_INTERNO });
    expect(evidencia).toHaveBeenCalled();
    expect(await consumo(c.clienteId)).toEqual({ porServico: {}, log: [] });

    expect(await pedir()).toMatchObject({ status: 200, body: { chave: chaves[2], flags: expect.any(Array) } });
    expect((await pedir()).status).toBe(200);
    expect(await consumo(c.clienteId)).toEqual({ porServico: { [SERVICO.recebivelAvaliacao]: 1 }, log: [[SERVICO.recebivelAvaliacao, chaves[2]]] });
  });

  it('composite key: one Fat-e’s assignments read fails → 500, nothing charged; then charged once', async () => {
    const c = await novoCliente('ESF');
    esquecerCache();
    const d = (await fatePorChave(chaves[0]!))!.duplicatas[0]!;
    const body = { cnpjEmissor: emitente, cnpjDestinatario: destinatario, dataVencimentoParcela: d.vencimento, valorParcela: d.valor, numeroParcela: '1' };
    const pedir = () => integrador(c.cert, 'POST', '/api/v1/integracao/fate/chave-composta', { body, headers: { 'idempotency-key': 'cobranca-composta' } });
    // The first Fat-e's assignments read, the others' as they are: the answer still cannot be built.
    vi.spyOn(cessaoStore, 'cessoesDaFate').mockRejectedValueOnce(falhaDoStore());

    expect(await pedir()).toEqual({ status: 500, body: ERRO_INTERNO });
    expect(await consumo(c.clienteId)).toEqual({ porServico: {}, log: [] });

    const respondida = await pedir();
    expect(respondida.status).toBe(200);
    expect((respondida.body as { chave: string }[]).map((f) => f.chave).sort()).toEqual([...chaves].sort());
    expect((await pedir()).status).toBe(200);
    expect(await consumo(c.clienteId)).toEqual({
      porServico: { [SERVICO.fatePorChaveComposta]: 1 },
      log: [[SERVICO.fatePorChaveComposta, [emitente, destinatario, d.vencimento, d.valor, '1'].join(';')]],
    });
  });

  it('carrier page: sealing its cursor fails → 500, nothing charged; then charged once', async () => {
    const c = await novoCliente('ESF');
    esquecerCache();
    const hoje = todayInBahia();
    const inicio = addDays(hoje, -30);
    const pedir = () =>
      integrador(c.cert, 'GET', `/api/v1/integracao/transportadora/${transportador}?dataInicio=${inicio}&dataFim=${hoje}`, {
        headers: { 'idempotency-key': 'cobranca-transportadora' },
        pathParameters: { documento: transportador },
      });
    // A page with more to come (its 4 Fat-e, as if a next page followed) whose cursor cannot be sealed.
    const real = fate.fatesDoTransportadorPagina;
    vi.spyOn(fate, 'fatesDoTransportadorPagina').mockImplementationOnce(async (...args) => ({ ...(await real(...args)), posicao: 'posicao-seguinte' }));
    vi.spyOn(cursor, 'selarCursor').mockRejectedValueOnce(falhaDoStore());

    expect(await pedir()).toEqual({ status: 500, body: ERRO_INTERNO });
    expect(await consumo(c.clienteId)).toEqual({ porServico: {}, log: [] });

    const respondida = await pedir();
    expect(respondida).toMatchObject({ status: 200, body: { documento: transportador } });
    expect((respondida.body as { fates: unknown[] }).fates).toHaveLength(4);
    expect((await pedir()).status).toBe(200);
    expect(await consumo(c.clienteId)).toEqual({
      porServico: { [SERVICO.fateTransportadora]: 1 },
      log: [[SERVICO.fateTransportadora, `${transportador};${inicio};${hoje}`]],
    });
  });

  it('CSV batch: a later line’s failure charges none of the lines answered before it; the batch again charges each once', async () => {
    const c = await novoCliente('ESF');
    esquecerCache();
    const web: Principal = { userId: `web-${c.clienteId}`, name: 'Web', tipo: 'C', roles: ['cliente_web'], clienteId: c.clienteId };
    const pedido = { chamador: await chamadorDoUsuario(web), titular: `cliente:${c.clienteId}`, idempotencyKey: 'cobranca-lote' };
    const linhas = ['CHNFE', ...chaves];
    // Three lines answer, the fourth's assignments read fails.
    const real = cessaoStore.cessoesDaFate;
    let lidas = 0;
    vi.spyOn(cessaoStore, 'cessoesDaFate').mockImplementation(async (chave) => {
      if (++lidas === 4) throw falhaDoStore();
      return real(chave);
    });

    await expect(executar(LOTES.fate, pedido, linhas)).rejects.toThrow(/injected by the test/);
    expect(await consumo(c.clienteId)).toEqual({ porServico: {}, log: [] });

    vi.restoreAllMocks();
    const csv = await executar(LOTES.fate, pedido, linhas);
    expect(csv.split('\r\n').filter((l) => l.includes(';ENCONTRADA;'))).toHaveLength(4);
    await executar(LOTES.fate, pedido, linhas);
    expect(await consumo(c.clienteId)).toEqual({ porServico: { [SERVICO.fatePorChave]: 4 }, log: chaves.map((k) => [SERVICO.fatePorChave, k]).sort() });
  });
});
