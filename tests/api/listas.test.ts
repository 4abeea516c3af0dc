import { randomInt, randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText, todayInBahia } from '@plac/shared/domain';
import { consentimentosAPartirDe, findConsentimento, putTransporte, reescreverVinculos } from '../../functions/consentimento/store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura } from '../../functions/faturamento/store';
import { abrirCiclo } from '../../functions/prepago/store';
import { createAutorizacao } from '../../functions/instituicoes/store';
import { describe, expect, it } from 'vitest';
import { registrarNaoEncontrada } from '../../functions/consumo/cobranca';
import { gravarDocumentoErro } from '../../functions/fate/documentos-erro-store';
import { registrarEntrega, registrarTentativa } from '../../functions/webhooks/log-store';
import { call } from './http';
import { bearer, tokenFor } from './session';
import { gravarCliente } from './clientes-kit';

/**
 * The lists read a page on the server (docs/architecture.md, "Lists"): walking the pages with
 * `nextCursor` yields every matching record exactly once, and a cursor of another caller, of another
 * query, or altered answers 400 'cursorInvalido'.
 */

const get = async (path: string, token: string) => call(path, { headers: bearer(token) });

type Page<T> = { items: T[]; nextCursor?: string };

/** Every page of a GET list, following nextCursor. */
async function walkGet<T>(path: string, token: string): Promise<{ pages: T[][]; last: Page<T> }> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const r = await get(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = r.body as Page<T>;
    pages.push(page.items);
    if (!page.nextCursor) return { pages, last: page };
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}

/** Alters one character of a cursor (the one before the last: always whole payload bits). */
const altered = (c: string) => c.slice(0, -2) + (c.at(-2) === 'A' ? 'B' : 'A') + c.slice(-1);

async function cursorRefusals(firstPage: (token: string, cursor?: string) => Promise<{ status: number; body: unknown }>, owner: string, other: string) {
  const first = await firstPage(owner);
  const next = (first.body as Page<unknown>).nextCursor!;
  expect(next).toBeTruthy();
  expect((await firstPage(owner, next)).status).toBe(200);
  for (const [token, cursor] of [
    [other, next],
    [owner, altered(next)],
    [owner, 'A'.repeat(60)],
  ] as const) {
    expect(await firstPage(token, cursor), cursor).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
  }
  // Not even a cursor's characters: the field's error, in the same words.
  const malformed = await firstPage(owner, 'not*a*cursor');
  expect(malformed.status).toBe(400);
  expect(JSON.stringify(malformed.body)).toContain('O cursor de paginação é inválido para esta consulta.');
}

const admin: Principal = { userId: 'listas-admin', name: 'Admin Listas', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const outroAdmin: Principal = { userId: 'listas-admin-2', name: 'Outro Admin', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

describe('error documents', () => {
  it('pages of a UF and of all, newest first, each document once; cursors bound to the caller and the query', async () => {
    // January 2025 in Acre: no other test writes there.
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const nsu = String(900_000 + i).padStart(15, '0');
      const id = `AC-${nsu}`;
      ids.push(id);
      await gravarDocumentoErro({
        id, tipo: 'procNFe_v4.00.xsd', uf: 'AC', nsu, excecao: 'Teste', erro: 'erro de teste', xmlKey: `sefaz/AC/${nsu}.xml.gz`,
        createdAt: new Date(Date.parse('2025-01-10T12:00:00.000Z') + (i % 5) * 3_600_000).toISOString(),
      });
    }
    const token = await tokenFor(admin);
    const q = 'dataInicio=01%2F01%2F2025&dataFim=31%2F01%2F2025&perPage=10';
    const { pages } = await walkGet<{ id: string; createdAt: string }>(`/api/v1/documentos-erro?UFOrigem=AC&${q}`, token);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
    const got = pages.flat();
    expect(got.map((d) => d.id).sort()).toEqual([...ids].sort());
    expect(got.map((d) => d.createdAt)).toEqual(got.map((d) => d.createdAt).sort().reverse());
    const todas = (await walkGet<{ id: string }>(`/api/v1/documentos-erro?${q}`, token)).pages.flat().map((d) => d.id);
    expect(new Set(todas).size).toBe(todas.length);
    expect(todas).toEqual(expect.arrayContaining(ids));

    const other = await tokenFor(outroAdmin);
    await cursorRefusals((t, c) => get(`/api/v1/documentos-erro?UFOrigem=AC&${q}${c ? `&cursor=${c}` : ''}`, t), token, other);
    // The same caller's cursor for another query (all UFs) is refused too.
    const next = ((await get(`/api/v1/documentos-erro?UFOrigem=AC&${q}`, token)).body as Page<unknown>).nextCursor!;
    expect(await get(`/api/v1/documentos-erro?${q}&cursor=${next}`, token)).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
  });
});

describe('not-found look-ups', () => {
  it('pages over the months of the period, newest first, each look-up once, with and without the status filter', async () => {
    // Amapá, from late January to early February 2025 (two months): no other test records there then.
    const chaves: string[] = [];
    for (let i = 0; i < 23; i++) {
      const chnfe = `1625${String(i).padStart(40, '0')}`;
      chaves.push(chnfe);
      await registrarNaoEncontrada({
        uf: 'AP', chnfe, servico: 1, status: i % 3 === 0 ? 'CHAVE_INVALIDA' : 'NAO_ENCONTRADA', clienteId: 'listas-cliente', cnpj: '11222333000181', razaoSocial: 'Listas',
        agora: new Date(Date.parse('2025-01-25T15:00:00.000Z') + i * 12 * 3_600_000),
      });
    }
    const token = await tokenFor(admin);
    const q = '/api/v1/consumo/nao-encontradas?uf=AP&dataInicio=20%2F01%2F2025&dataFim=15%2F02%2F2025&perPage=10';
    const { pages } = await walkGet<{ chnfe: string; data: string }>(q, token);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
    const got = pages.flat();
    expect(got.map((n) => n.chnfe)).toEqual([...chaves].reverse());
    const invalidas = (await walkGet<{ chnfe: string }>(`${q}&status=CHAVE_INVALIDA`, token)).pages.flat().map((n) => n.chnfe);
    expect(invalidas).toEqual(chaves.filter((_, i) => i % 3 === 0).reverse());
    const umaChave = (await walkGet<{ chnfe: string }>(`${q}&chnfe=${chaves[4]!.slice(-6)}`, token)).pages.flat().map((n) => n.chnfe);
    expect(umaChave).toEqual([chaves[4]]);

    await cursorRefusals((t, c) => get(`${q}${c ? `&cursor=${c}` : ''}`, t), token, await tokenFor(outroAdmin));
    const next = ((await get(q, token)).body as Page<unknown>).nextCursor!;
    expect(await get(`${q}&status=NAO_ENCONTRADA&cursor=${next}`, token)).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
  });
});

describe('webhook monitoring', () => {
  it('pages the pending and failed deliveries of a client, newest first, each once; the delivered ones never listed', async () => {
    const clienteId = `listas-wh-${randomUUID()}`;
    const listadas: string[] = [];
    for (let i = 0; i < 30; i++) {
      const deliveryId = `listas-${randomUUID()}`;
      await registrarEntrega({ deliveryId, clienteId, razaoSocial: 'Listas', operacao: 'EVENTO', descricao: `Evento ${i}`, body: '{}', url: 'https://example.com/x', dataCriacao: new Date(Date.parse('2025-03-02T12:00:00.000Z') + i * 3_600_000).toISOString() });
      // Delivered at once (never listed), or failed once and waiting for its retry (listed: an open
      // delivery is indexed from its first failure on, docs/webhooks.md).
      if (i % 3 === 0) await registrarTentativa({ deliveryId, mensagemId: 'm', recebimento: 1, instante: new Date().toISOString(), status: 200, latenciaMs: 1 });
      else {
        await registrarTentativa({ deliveryId, mensagemId: 'm', recebimento: 1, instante: new Date().toISOString(), status: 500, latenciaMs: 1 });
        listadas.push(deliveryId);
      }
    }
    const monitor = await tokenFor({ userId: `monitor-${clienteId}`, name: 'Monitor', tipo: 'C', roles: ['cliente_monitoramento'], clienteId });
    const q = '/api/v1/webhook-monitoramento?dataInicial=2025-03-01&dataFinal=2025-03-05&perPage=10';
    const { pages } = await walkGet<{ deliveryId: string; situacao: string }>(q, monitor);
    const got = pages.flat();
    expect(got.map((m) => m.deliveryId)).toEqual([...listadas].reverse());
    expect(got.every((m) => m.situacao === 'PENDENTE')).toBe(true);
    const pelaAdmin = (await walkGet<{ deliveryId: string }>(`${q}&idCliente=${clienteId}`, await tokenFor(admin))).pages.flat();
    expect(pelaAdmin.map((m) => m.deliveryId)).toEqual([...listadas].reverse());

    const outroCliente = await tokenFor({ userId: `monitor-${clienteId}`, name: 'Monitor', tipo: 'C', roles: ['cliente_monitoramento'], clienteId: `${clienteId}-outro` });
    await cursorRefusals((t, c) => get(`${q}${c ? `&cursor=${c}` : ''}`, t), monitor, outroCliente);
  });
});

// ---- consents ---------------------------------------------------------------------------------------

const post = (path: string, token: string, body: unknown) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify(body) });

/** Every page of a POST list, following nextCursor in the body. */
async function walkPost<T>(path: string, token: string, body: Record<string, unknown>): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const r = await post(path, token, { ...body, ...(cursor ? { cursor } : {}) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = r.body as Page<T>;
    pages.push(page.items);
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('too many pages');
}

const base8 = () => String(randomInt(10_000_000, 99_999_999));
const cnpjDe = (base: string) => `${base}0001${cnpjCheckDigits(`${base}0001`)}`;

async function novaInstituicao(adminToken: string) {
  const r = await post('/api/v1/instituicao-financeira/admin/create', adminToken, { razaoSocial: `Banco Paginado ${randomInt(1e6)} S.A.`, cnpj: base8(), uf: 'BA', tipo: 'ESF', regulada: true });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; cnpj: string };
}

async function consentir(razaoSocial: string, insts: { id: string }[]) {
  const base = base8();
  const cnpj = cnpjDe(base);
  const token = await tokenFor({ userId: `emissor-${cnpj}`, name: razaoSocial, tipo: 'C', roles: ['emissor'] });
  const salvar = (lista: { id: string }[], versao?: number) =>
    post('/api/v1/emissor/termo-aceite-emissor', token, {
      termoFatMensal: true, termoCompartNfe: true,
      filiais: [{ cnpj, razaoSocial, email: 'f@emissora.local', uf: 'BA', termoFatMensal: true }],
      inst_financeiras: lista.map((i) => ({ id: i.id, termoFatMensal: true })),
      ...(versao ? { versao } : {}),
    });
  const r = await salvar(insts);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { base, cnpj, salvar };
}

async function clienteAutorizado(bases: string[]) {
  const cnpj = cnpjDe(base8());
  const clienteId = `listas-${randomUUID()}`;
  const razaoSocial = `CLIENTE LISTAS ${cnpj.slice(0, 6)}`;
  const at = new Date().toISOString();
  await gravarCliente({ clienteId, cnpj, razaoSocial, cep: '41000000', createdAt: at, updatedAt: at });
  for (const cnpjInst of bases) {
    await createAutorizacao({
      clienteId, cnpjInst, instituicaoId: `inst-${cnpjInst}`, razaoSocialInst: 'Banco', cnpjCliente: cnpj, razaoSocialCliente: razaoSocial,
      status: 'AUTORIZADO', dataAutorizacao: at, arquivoKey: 'x.pdf', nomeArquivo: 'x.pdf', createdAt: at, updatedAt: at,
    });
  }
  return { clienteId, cnpj, token: await tokenFor({ userId: `cliente-${clienteId}`, name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId }) };
}

describe('consent lists', () => {
  it('walk every consent once, by name, for the authority and for a client user (only its institutions, a consent naming two once)', async () => {
    const adminToken = await tokenFor(admin);
    const [a, b, c] = [await novaInstituicao(adminToken), await novaInstituicao(adminToken), await novaInstituicao(adminToken)];
    const prefixo = `Paginada ${randomInt(1e6)}`;
    const nomeados: { base: string; nome: string }[] = [];
    for (let i = 0; i < 14; i++) {
      const nome = `${prefixo} ${String.fromCharCode(90 - i)} Ltda.`;
      const e = await consentir(nome, i % 3 === 0 ? [a, b] : i % 3 === 1 ? [a] : [b]);
      nomeados.push({ base: e.base, nome });
    }
    const alheio = await consentir(`${prefixo} Alheia Ltda.`, [c]);
    // Named A, then only C: it leaves A's list.
    const mudou = await consentir(`${prefixo} Mudou Ltda.`, [a]);
    expect((await mudou.salvar([c], 1)).status).toBe(200);
    const esperados = nomeados.sort((x, y) => foldText(x.nome).localeCompare(foldText(y.nome))).map((e) => e.base);

    const cli = await clienteAutorizado([a.cnpj, b.cnpj]);
    const doCliente = await walkPost<{ id: string }>('/api/v1/emissor-consentimento/filtro', cli.token, { dataFinal: todayInBahia(), perPage: 10 });
    expect(doCliente.map((p) => p.length)).toEqual([10, 4]);
    expect(doCliente.flat().map((e) => e.id)).toEqual(esperados);

    // The backfill (scripts/backfill-consent-links.ts) rewrites the links as a save does: nothing changes.
    for (const e of nomeados.slice(0, 3)) await reescreverVinculos((await findConsentimento(e.base))!);
    expect((await walkPost<{ id: string }>('/api/v1/emissor-consentimento/filtro', cli.token, { dataFinal: todayInBahia(), perPage: 10 })).flat().map((e) => e.id)).toEqual(esperados);
    expect((await consentimentosAPartirDe(null)).data.length).toBeGreaterThan(0);

    // The authority, by the name's beginning (a key range): every one of them once, the other two too.
    const daAutoridade = (await walkPost<{ id: string }>('/api/v1/emissor-consentimento/filtro', adminToken, { razaoSocialTransportadora: prefixo.toUpperCase(), perPage: 10 })).flat().map((e) => e.id);
    expect(new Set(daAutoridade).size).toBe(daAutoridade.length);
    expect(daAutoridade.filter((id) => esperados.includes(id))).toEqual(esperados);
    expect(daAutoridade).toEqual(expect.arrayContaining([alheio.base, mudou.base]));
    // The authority naming the client: the client's view.
    const peloCliente = (await walkPost<{ id: string }>('/api/v1/emissor-consentimento/filtro', adminToken, { cnpjCliente: cli.cnpj, perPage: 10 })).flat().map((e) => e.id);
    expect(peloCliente).toEqual(esperados);
    // A residual filter (status) over the pages: every one, once.
    const ativos = (await walkPost<{ id: string }>('/api/v1/emissor-consentimento/filtro', cli.token, { situacao: 1, perPage: 10 })).flat().map((e) => e.id);
    expect(ativos).toEqual(esperados);

    // The company filter's options: a bounded search by the name's beginning.
    const opcoes = (nome: string, token: string) => get(`/api/v1/emissor-consentimento-opcoes?nome=${encodeURIComponent(nome)}`, token).then((r) => (r.body as { emissores: { cnpj: string }[] }).emissores.map((e) => e.cnpj));
    expect(await opcoes(prefixo, cli.token)).toEqual(esperados);
    expect((await opcoes('', adminToken)).length).toBeLessThanOrEqual(20);
    expect(await opcoes(`${prefixo} Alheia`, adminToken)).toEqual([alheio.base]);
    expect(await opcoes(`${prefixo} Alheia`, cli.token)).toEqual([]);

    // Cursors: another client user's, or an altered one, are refused.
    const outro = await clienteAutorizado([a.cnpj]);
    await cursorRefusals((t, cursor) => post('/api/v1/emissor-consentimento/filtro', t, { dataFinal: todayInBahia(), perPage: 10, ...(cursor ? { cursor } : {}) }), cli.token, outro.token);
    const next = ((await post('/api/v1/emissor-consentimento/filtro', cli.token, { dataFinal: todayInBahia(), perPage: 10 })).body as Page<unknown>).nextCursor!;
    expect(await post('/api/v1/emissor-consentimento/filtro', cli.token, { dataFinal: todayInBahia(), perPage: 25, cursor: next })).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
  });

  it('walk the carriers’ consents newest first, each once, across the client’s institutions', async () => {
    const [a, b, c] = [base8(), base8(), base8()];
    const contrato = `PG-${randomInt(1e9)}`;
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const id = randomUUID();
      const at = new Date(Date.parse('2025-06-01T12:00:00.000Z') + i * 3_600_000).toISOString();
      await putTransporte({ cnpjInst: i % 2 ? a : b, id, sacadorRazaoSocial: `Transportes ${i}`, sacadorDocumento: cnpjDe(base8()), sacadorUf: 'PE', numeroContrato: `${contrato}/${i}`, dataAssinatura: at, tipoTransportador: 1, createdAt: at });
      ids.push(id);
    }
    await putTransporte({ cnpjInst: c, id: randomUUID(), sacadorRazaoSocial: 'Alheio', sacadorDocumento: cnpjDe(base8()), sacadorUf: 'PE', numeroContrato: `${contrato}/x`, dataAssinatura: '2025-06-01T12:30:00.000Z', createdAt: '2025-06-01T12:30:00.000Z' });
    // Written again with another signature instant (as the twin's seed does every day): replaced, not doubled.
    const outraVez = `OV-${randomInt(1e9)}`;
    const again = { cnpjInst: a, id: randomUUID(), sacadorRazaoSocial: 'Outra Vez', sacadorDocumento: cnpjDe(base8()), sacadorUf: 'PE', numeroContrato: outraVez, createdAt: '2025-06-01T00:00:00.000Z' };
    await putTransporte({ ...again, dataAssinatura: '2025-05-01T12:00:00.000Z' });
    await putTransporte({ ...again, dataAssinatura: '2025-05-02T12:00:00.000Z' });
    const cli = await clienteAutorizado([a, b]);
    type Linha = { consentimentoNumeroContrato: string };
    const vezes = (await walkPost<Linha>('/api/v1/emissor-consentimento-transporte/filtro', cli.token, { numeroContrato: outraVez, perPage: 10 })).flat();
    expect(vezes).toHaveLength(1);
    const esperado = ids.map((_, i) => `${contrato}/${i}`).reverse();
    const porData = await walkPost<Linha>('/api/v1/emissor-consentimento-transporte/filtro', cli.token, { dataInicial: '2025-06-01', dataFinal: '2025-06-02', perPage: 10 });
    expect(porData.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(porData.flat().map((t) => t.consentimentoNumeroContrato)).toEqual(esperado);
    const porContrato = (await walkPost<Linha>('/api/v1/emissor-consentimento-transporte/filtro', cli.token, { numeroContrato: contrato, perPage: 10 })).flat();
    expect(porContrato.map((t) => t.consentimentoNumeroContrato)).toEqual(esperado);
    const adminToken = await tokenFor(admin);
    const todos = (await walkPost<Linha>('/api/v1/emissor-consentimento-transporte/filtro', adminToken, { dataInicial: '2025-06-01', dataFinal: '2025-06-02', numeroContrato: contrato, perPage: 10 })).flat();
    // The other institution's consent (12:30) sits between the first (12:00) and the second (13:00).
    expect(todos.map((t) => t.consentimentoNumeroContrato)).toEqual([...esperado.slice(0, 22), `${contrato}/x`, esperado[22]]);
  });
});

// ---- invoices ---------------------------------------------------------------------------------------

async function fatura(clienteId: string, mes: string, situacao: 'A' | 'P' = 'A') {
  const at = new Date().toISOString();
  await emitirFatura({
    faturaId: faturaIdDe(clienteId, mes), clienteId, cnpj: '11222333000181', razaoSocial: `Listas ${clienteId}`, mes, situacao, itens: [],
    valorServicos: 100, valorAssinatura: 0, valorTotal: 100, assinaturaMinima: 0, execucaoId: 'listas', emitidaEm: at, revisao: 1,
  });
}

describe('invoices', () => {
  it('pages a month of every client, and a client’s months newest first, each invoice once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const clienteId = `listas-fat-${randomUUID()}`;
      await fatura(clienteId, '2024-03', i % 4 === 0 ? 'P' : 'A');
      ids.push(faturaIdDe(clienteId, '2024-03'));
    }
    const adminToken = await tokenFor(admin);
    const q = '/api/v1/fatura?dataInicio=2024-03&dataFim=2024-03&perPage=10';
    const { pages } = await walkGet<{ id: string }>(q, adminToken);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10]);
    expect(pages.flat().map((f) => f.id).sort()).toEqual([...ids].sort());
    const pagas = (await walkGet<{ id: string }>(`${q}&situacao=P`, adminToken)).pages.flat().map((f) => f.id);
    expect(pagas.sort()).toEqual(ids.filter((_, i) => i % 4 === 0).sort());
    await cursorRefusals((t, c) => get(`${q}${c ? `&cursor=${c}` : ''}`, t), adminToken, await tokenFor(outroAdmin));

    const clienteId = `listas-fat-${randomUUID()}`;
    const meses = Array.from({ length: 12 }, (_, i) => `2023-${String(i + 1).padStart(2, '0')}`);
    for (const mes of meses) await fatura(clienteId, mes);
    const cliente = await tokenFor({ userId: `cliente-${clienteId}`, name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId });
    const doCliente = await walkGet<{ id: string }>('/api/v1/fatura?dataInicio=2023-01&dataFim=2023-12&perPage=10', cliente);
    expect(doCliente.pages.map((p) => p.length)).toEqual([10, 2]);
    expect(doCliente.pages.flat().map((f) => f.id)).toEqual(meses.map((m) => faturaIdDe(clienteId, m)).reverse());
  });
});

// ---- prepaid DAEs -----------------------------------------------------------------------------------

describe('prepaid DAEs', () => {
  it('pages every bookkeeper’s DAEs of the months, newest first, each once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const clienteId = `listas-pa-${randomUUID()}`;
      const createdAt = new Date(Date.parse('2022-01-05T12:00:00.000Z') + i * 3_600_000).toISOString();
      const conta = { clienteId, cnpj: '11222333000181', razaoSocial: `Escriturador ${i}`, ciclo: 1, situacao: 'AGUARDANDO_PAGAMENTO' as const, valorContratado: 100, saldoMilesimos: 0, valores: {}, updatedAt: createdAt };
      const reserva = {
        clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj: conta.cnpj, razaoSocial: conta.razaoSocial, emailContato: 'e@x.local', qtdEnvioFate: 1, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0,
        valor: 100, faixaId: '1', mes: '2022-01', situacao: (i % 2 ? 'A' : 'P') as 'A' | 'P', dtVencimento: '2022-01-20', numeroDae: i, codigoBarras: '8'.repeat(44), linhaDigitavel: '8'.repeat(48),
        chavePdf: 'x.pdf', createdAt, createdBy: 'teste', lista: 'reservas',
      };
      expect(await abrirCiclo(conta, reserva, null, '2022-01-05', 1)).toBe(true);
      ids.push(`PA-${clienteId}-1`);
    }
    const adminToken = await tokenFor(admin);
    const q = '/api/v1/pagamento-antecipado/daes?dataInicio=2022-01&dataFim=2022-01&perPage=10';
    const { pages } = await walkGet<{ dae: { id: string } }>(q, adminToken);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(pages.flat().map((d) => d.dae.id)).toEqual([...ids].reverse());
    const abertos = (await walkGet<{ dae: { id: string } }>(`${q}&situacao=A`, adminToken)).pages.flat().map((d) => d.dae.id);
    expect(abertos).toEqual(ids.filter((_, i) => i % 2).reverse());
    await cursorRefusals((t, c) => get(`${q}${c ? `&cursor=${c}` : ''}`, t), adminToken, await tokenFor(outroAdmin));
  });
});
