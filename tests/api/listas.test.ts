import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { describe, expect, it } from 'vitest';
import { registrarNaoEncontrada } from '../../functions/consumo/service';
import { gravarDocumentoErro } from '../../functions/fate/store';
import { registrarEntrega, registrarTentativa } from '../../functions/webhooks/log-store';
import { call } from './http';
import { bearer, tokenFor } from './session';

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
      if (i % 3 === 0) await registrarTentativa({ deliveryId, mensagemId: 'm', recebimento: 1, instante: new Date().toISOString(), status: 200, latenciaMs: 1 });
      else listadas.push(deliveryId);
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
