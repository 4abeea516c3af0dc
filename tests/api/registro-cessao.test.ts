import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { addDays, cnpjCheckDigits, foldText, monthOf, SERVICO, todayInBahia } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { cessaoDa } from '../../functions/cessao/store';
import { putCliente } from '../../functions/clientes/store';
import { esquecerCache } from '../../functions/consulta/chamador';
import { consumoDoCliente } from '../../functions/consumo';
import { nfeXml, PROTOCOLO_FIXTURE } from '../../functions/fate/fixtures/builder';
import { fatePorChave } from '../../functions/fate';
import { ingerir } from '../../functions/fate/service';
import { ensureTestIcp } from '../../infra/local/emulators/test-pki';
import { cancelamentoXml } from '../../infra/local/sefaz/cancelamento';
import { call } from './http';
import { mtlsRequest } from './mtls';
import { bearer, tokenFor } from './session';
import { cotaDoCliente } from '../../functions/platform/cota-integrador';
import { preencher } from '../../functions/platform/rate-limit';
import { consentir } from './consentimentos';

/**
 * The 'Registro de Cessão' over the mutual-TLS API of the twin (functions/cessao, docs/cessao.md):
 * the bookkeeper (the IMF client named by the drawer's consent) registers an instalment's assignment,
 * once; metering (service 8) once per instalment, also under a race; the refusals; the look-up shows
 * the assignment afterwards.
 *
 * UF: Distrito Federal (cUF 53). The brief proposed SE, but tests/api/degustacao.test.ts already loads
 * SE documents (NSUs 880001…); no other test loads DF documents. Documents go in through the fate
 * service with the cursor unmoved; the cancellation is the Sefaz simulator's own event XML.
 */

const twin = inject('twin');
const UF = 'DF';
const CUF = '53';
const NFE = 'procNFe_v4.00.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';
const PATH = '/api/v1/registro-cessao';
const mes = monthOf(new Date());
const hoje = todayInBahia();

function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

interface Cliente {
  clienteId: string;
  cnpj: string;
  cert: { certPem: string; keyPem: string };
  token: string;
}

/** An ATIVO client of that type, its e-CNPJ and a cliente_imf user's session. */
async function novoCliente(tipo: 'IMF' | 'ESF' = 'IMF'): Promise<Cliente> {
  const cnpj = novoCnpj();
  const clienteId = `cessao-${randomUUID()}`;
  const razaoSocial = `CLIENTE CESSAO ${cnpj.slice(0, 8)}`;
  const at = new Date().toISOString();
  await putCliente({
    clienteId, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: tipo, situacao: 'A', email: `${clienteId}@teste.local`, uf: UF,
    createdAt: at, updatedAt: at, updatedBy: 'teste',
  });
  const icp = await ensureTestIcp(twin.dataDir, [{ cnpj, razaoSocial }]);
  const user: Principal = { userId: `u-${clienteId}`, name: `Escriturador ${cnpj.slice(0, 8)}`, tipo: 'C', roles: ['cliente_imf'], clienteId };
  return { clienteId, cnpj, cert: icp.certificates[cnpj]!, token: await tokenFor(user) };
}


async function registrar(c: Cliente, body: unknown) {
  return mtlsRequest('POST', PATH, { cert: c.cert, headers: bearer(c.token), body });
}

async function listar(c: Cliente, chave: string) {
  return mtlsRequest('GET', `${PATH}/${chave}`, { cert: c.cert, headers: bearer(c.token) });
}

/** Registrations of service 8 counted for the client this month. */
async function cobradas(c: Cliente): Promise<number> {
  return (await consumoDoCliente(c.clienteId, mes)).filter((x) => x.servico === SERVICO.registroCessao).reduce((s, x) => s + x.requisicoes, 0);
}

const emitente = novoCnpj();
// Issued five days ago (Bahia); instalments of 1,000.00, 1,000.00 and 1,345.67.
const emissaoDia = addDays(hoje, -5);
const emissao = `${emissaoDia}T10:00:00-03:00`;
const base = randomInt(1_000, 9_000) * 100;
const fates = Array.from({ length: 3 }, (_, i) => nfeXml({ cUF: CUF, numero: base + i, emitente, emissao }));
const [ativa, cancelada, corrida] = fates.map((f) => f.chave) as [string, string, string];
const cessionario = novoCnpj();
let escriturador: Cliente;
let outroEscriturador: Cliente;
let estranho: Cliente;

beforeAll(async () => {
  [escriturador, outroEscriturador, estranho] = await Promise.all([novoCliente(), novoCliente(), novoCliente()]);
  await consentir(emitente, [escriturador.cnpj.slice(0, 8), outroEscriturador.cnpj.slice(0, 8)], UF);
  const nsu = 5_300_000 + base;
  await ingerir(UF, fates.map((f, i) => ({ nsu: String(nsu + i), schema: NFE, xml: f.xml })), { moverCursor: false });
  await ingerir(UF, [{ nsu: String(nsu + 10), schema: EVT, xml: cancelamentoXml(cancelada, { protocoloNfe: PROTOCOLO_FIXTURE }) }], { moverCursor: false });
  expect((await fatePorChave(cancelada))?.status).toBe('CANCELADA');
  esquecerCache();
}, 120_000);

describe('Registro de Cessão over mutual TLS', () => {
  const pedido = () => ({ chave: ativa, nDup: '001', cnpjCessionario: cessionario, dataCessao: hoje, valor: 60_000 });

  it('registers an assignment (201), meters it once, answers an exact repeat with the stored one (200) and refuses other data (409)', async () => {
    const antes = await cobradas(escriturador);
    const criada = await registrar(escriturador, pedido());
    expect(criada.status, JSON.stringify(criada.body)).toBe(201);
    expect(criada.body).toEqual({
      message: MESSAGES.cessaoRegistrada,
      cessao: { chave: ativa, nDup: '001', cnpjCessionario: cessionario, dataCessao: hoje, valor: 60_000, registradaEm: expect.any(String) },
    });
    const registradaEm = (criada.body as { cessao: { registradaEm: string } }).cessao.registradaEm;
    expect(await cobradas(escriturador)).toBe(antes + 1);
    // Stored with its end date (issue 38 item 5): five years (365.25-day, rounded up) and a month after the
    // registration, as long as the invoice of the charge, and so after its Fat-e's.
    const guardada = (await cessaoDa(ativa, '001'))!;
    expect(guardada.expiresAt).toBe(Math.floor(Date.parse(registradaEm) / 1000) + 1858 * 86_400);
    expect(guardada.expiresAt).toBeGreaterThan((await fatePorChave(ativa))!.expiresAt!);

    // The same registration again, nDup as '1', the key in groups of 4 and the CNPJ masked: idempotent, not charged again.
    const grupos = ativa.match(/.{1,4}/g)!.join(' ');
    const mascarado = `${cessionario.slice(0, 2)}.${cessionario.slice(2, 5)}.${cessionario.slice(5, 8)}/${cessionario.slice(8, 12)}-${cessionario.slice(12)}`;
    const repetida = await registrar(escriturador, { ...pedido(), chave: grupos, nDup: '1', cnpjCessionario: mascarado });
    expect(repetida.status, JSON.stringify(repetida.body)).toBe(200);
    expect(repetida.body).toMatchObject({ cessao: { nDup: '001', registradaEm } });
    expect(await cobradas(escriturador)).toBe(antes + 1);

    // Other data on the assigned instalment: 409, by the same client or by another bookkeeper, nothing changes.
    for (const [quem, corpo] of [
      [escriturador, { ...pedido(), valor: 50_000 }],
      [escriturador, { ...pedido(), cnpjCessionario: novoCnpj() }],
      [outroEscriturador, pedido()],
    ] as const) {
      const r = await registrar(quem, corpo);
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body).toEqual({ error: 'cessaoParcelaJaCedida', message: MESSAGES.cessaoParcelaJaCedida.replace('{nDup}', '001') });
    }
    expect(await cobradas(escriturador)).toBe(antes + 1);
    expect(await cobradas(outroEscriturador)).toBe(0);

    // Both bookkeepers see it; the list is of the Fat-e, whoever registered.
    for (const quem of [escriturador, outroEscriturador]) {
      const lista = await listar(quem, ativa);
      expect(lista.status).toBe(200);
      expect(lista.body).toEqual({ chave: ativa, cessoes: [{ chave: ativa, nDup: '001', cnpjCessionario: cessionario, dataCessao: hoje, valor: 60_000, registradaEm }] });
    }
  });

  it('two bookkeepers registering one instalment at once: exactly one wins, the other gets 409, it is charged once', async () => {
    const antes = (await cobradas(escriturador)) + (await cobradas(outroEscriturador));
    const corpo = { chave: corrida, nDup: '002', dataCessao: hoje, valor: 100_000 };
    const [a, b] = await Promise.all([
      registrar(escriturador, { ...corpo, cnpjCessionario: novoCnpj() }),
      registrar(outroEscriturador, { ...corpo, cnpjCessionario: novoCnpj() }),
    ]);
    expect([a.status, b.status].sort(), JSON.stringify([a.body, b.body])).toEqual([201, 409]);
    const perdedor = a.status === 409 ? a : b;
    expect(perdedor.body).toMatchObject({ error: 'cessaoParcelaJaCedida' });
    expect((await cobradas(escriturador)) + (await cobradas(outroEscriturador))).toBe(antes + 1);
    const lista = await listar(escriturador, corrida);
    expect((lista.body as { cessoes: unknown[] }).cessoes).toHaveLength(1);
  });

  it('refuses, with a pt-BR message and changing nothing: an unknown key, a cancelled Fat-e, another instalment, a value too high, a future date, a date before the issue', async () => {
    const antes = await cobradas(escriturador);
    const desconhecida = nfeXml({ cUF: CUF, numero: base + 99, emitente, emissao }).chave;
    const casos: [unknown, number, string, string][] = [
      [{ ...pedido(), chave: desconhecida }, 404, 'fateNaoEncontrada', MESSAGES.fateNaoEncontrada],
      [{ ...pedido(), chave: cancelada }, 422, 'cessaoFateCancelada', 'Fat-e cancelada: a cessão não pode ser registrada.'],
      [{ ...pedido(), nDup: '004' }, 422, 'cessaoParcelaInexistente', 'Parcela não encontrada: a Fat-e não tem a duplicata 004.'],
      [{ ...pedido(), nDup: '003', valor: 134_568 }, 422, 'cessaoValorAcimaDaParcela', 'Valor da cessão acima do valor da parcela 003 (R$ 1.345,67).'],
      [{ ...pedido(), nDup: '003', dataCessao: addDays(hoje, 1) }, 422, 'cessaoDataFutura', MESSAGES.cessaoDataFutura],
      [{ ...pedido(), nDup: '003', dataCessao: addDays(emissaoDia, -1) }, 422, 'cessaoDataAnteriorEmissao', MESSAGES.cessaoDataAnteriorEmissao.replace('{data}', emissaoDia.split('-').reverse().join('/'))],
    ];
    for (const [corpo, status, error, message] of casos) {
      const r = await registrar(escriturador, corpo);
      expect({ status: r.status, body: r.body }, JSON.stringify(corpo)).toEqual({ status, body: { error, message } });
    }
    // Malformed input: 400 with field messages, never a 5xx.
    for (const corpo of [{}, { ...pedido(), chave: ativa.slice(0, 43) }, { ...pedido(), valor: 0 }, { ...pedido(), valor: 1.5 }, { ...pedido(), valor: '100' }, { ...pedido(), dataCessao: '2026-02-30' }, { ...pedido(), cnpjCessionario: '11111111111111' }, { ...pedido(), nDup: 'x'.repeat(61) }, { ...pedido(), nDup: '   ' }]) {
      const r = await registrar(escriturador, corpo);
      expect(r.status, JSON.stringify(corpo)).toBe(400);
    }
    expect(await cobradas(escriturador)).toBe(antes);
    const lista = await listar(escriturador, ativa);
    expect((lista.body as { cessoes: { nDup: string }[] }).cessoes.map((c) => c.nDup)).toEqual(['001']);
    expect((await listar(escriturador, desconhecida)).status).toBe(404);
  });

  it('refuses a client that is not the Fat-e’s bookkeeper (403), a role other than cliente_imf, and the portal (web) domain', async () => {
    const r = await registrar(estranho, { ...pedido(), nDup: '003' });
    expect(r).toEqual({ status: 403, body: { error: 'cessaoNaoPermitida', message: MESSAGES.cessaoNaoPermitida } });
    expect((await listar(estranho, ativa)).status).toBe(403);
    expect(await cobradas(estranho)).toBe(0);

    // A cliente user (not cliente_imf) of the bookkeeper's own client: refused by the route's roles.
    const outroPapel = await tokenFor({ userId: `u2-${escriturador.clienteId}`, name: 'Outro', tipo: 'C', roles: ['cliente'], clienteId: escriturador.clienteId });
    const papel = await mtlsRequest('POST', PATH, { cert: escriturador.cert, headers: bearer(outroPapel), body: { ...pedido(), nDup: '003' } });
    expect(papel).toMatchObject({ status: 403, body: { error: 'acessoNegado' } });
    // No token: 401.
    expect((await mtlsRequest('POST', PATH, { cert: escriturador.cert, body: { ...pedido(), nDup: '003' } })).status).toBe(401);

    // The portal's domain does not serve the route at all.
    const web = await call(PATH, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(escriturador.token) }, body: JSON.stringify({ ...pedido(), nDup: '003' }) });
    expect(web).toMatchObject({ status: 404, body: { error: 'rotaNaoEncontrada' } });
    expect((await call(`${PATH}/${ativa}`, { headers: bearer(escriturador.token) })).status).toBe(404);
    expect(((await listar(escriturador, ativa)).body as { cessoes: unknown[] }).cessoes).toHaveLength(1);
  });

  it('the look-up shows each instalment’s assignment afterwards', async () => {
    const got = await mtlsRequest('GET', `/api/v1/integracao/fate/${ativa}`, { cert: escriturador.cert });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    const duplicatas = (got.body as { duplicatas: { numero: string; cessao: unknown }[] }).duplicatas;
    expect(duplicatas.map((d) => [d.numero, d.cessao])).toEqual([
      ['001', { cnpjCessionario: cessionario, dataCessao: hoje, valor: 60_000, registradaEm: expect.any(String) }],
      ['002', null],
      ['003', null],
    ]);
  });

  it('counts against the client’s integrator quota before anything else: past it, 429 cotaExcedida and nothing registered or charged', async () => {
    const c = await novoCliente();
    const chave = corrida;
    const cota = cotaDoCliente(c.clienteId);
    // The current window and the next (the request may cross a window's end), used up.
    await preencher(cota, cota.limit);
    await preencher(cota, cota.limit, Date.now() + cota.windowSeconds * 1000);
    const got = await registrar(c, { chave, nDup: '003', cnpjCessionario: cessionario, dataCessao: hoje, valor: 1_000 });
    expect(got).toMatchObject({ status: 429, body: { error: 'cotaExcedida', message: MESSAGES.cotaExcedida } });
    expect((await listar(c, chave)).status).toBe(429);
    expect(await cobradas(c)).toBe(0);
  });
});

