import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { addDays, cnpjCheckDigits, foldText, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { daesDaFatura } from '../../functions/dae/store';
import { emitirFatura } from '../../functions/faturamento/store';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * Answers that do not lie under concurrency (issue 27 item 2): 20 reservations at once with one
 * Idempotency-Key create one and answer it (or 409 'em andamento' while it runs); a retry answers the
 * same resource; 20 without a key create one and refuse the rest with the rule's own message; 20 first
 * DAEs of an invoice store one and answer it to all. No 500, no English, no HTML.
 */

const admin: Principal = { userId: 'reintento-admin', name: 'Admin Reintento', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
let tokenAdmin: string;

function cnpjNovo(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

async function imf(): Promise<{ cnpj: string; token: string }> {
  const clienteId = `reintento-${randomUUID()}`;
  const cnpj = cnpjNovo();
  const at = new Date().toISOString();
  const razaoSocial = `Escriturador ${clienteId}`;
  await putCliente({ clienteId, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'IMF', situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at });
  return { cnpj, token: await tokenFor({ userId: `u-${clienteId}`, name: 'Usuário IMF', tipo: 'C', roles: ['cliente_imf'], clienteId }) };
}

const reservar = (token: string, body: Record<string, unknown>, key?: string) =>
  call('/api/v1/pagamento-antecipado', {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });

const corpo = (cnpj: string, qtd = '50000000') => ({ cnpjEscriturador: cnpj, emailContato: 'contato@escriturador.com.br', qtdEnvioFate: qtd, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 });
type Reserva = { dae: { dae: { id: string } } };

/** Every answer is the catalogue's JSON: a pt-BR message, never the gateway's English default. */
function honesta(r: { status: number; body: unknown }) {
  expect(r.status).toBeLessThan(500);
  expect(JSON.stringify(r.body)).not.toMatch(/Internal Server Error|Service Unavailable|<html|at \//i);
}

beforeAll(async () => {
  tokenAdmin = await tokenFor(admin);
});

describe('20 reservations at once', () => {
  it('with one Idempotency-Key: one reservation; every answer is it, or 409 while it runs; a retry answers the same', async () => {
    const { cnpj, token } = await imf();
    const key = `reserva-${randomUUID()}`;
    const rs = await Promise.all(Array.from({ length: 20 }, () => reservar(token, corpo(cnpj), key)));
    rs.forEach(honesta);
    const criadas = rs.filter((r) => r.status === 201);
    const emAndamento = rs.filter((r) => r.status === 409);
    expect(criadas.length).toBeGreaterThanOrEqual(1);
    expect(criadas.length + emAndamento.length).toBe(20);
    expect(new Set(criadas.map((r) => (r.body as Reserva).dae.dae.id)).size).toBe(1);
    for (const r of emAndamento) {
      expect(r.body).toMatchObject({ error: 'requisicaoEmAndamento', message: 'Uma requisição com esta Idempotency-Key ainda está em andamento. Aguarde alguns instantes e repita a mesma requisição.' });
    }
    const id = (criadas[0]!.body as Reserva).dae.dae.id;

    const retry = await reservar(token, corpo(cnpj), key);
    expect(retry.status).toBe(201);
    expect((retry.body as Reserva).dae.dae.id).toBe(id);
    const lista = await call(`/api/v1/pagamento-antecipado/daes?dataInicio=${monthOf(new Date())}&cnpj=${cnpj}`, { headers: bearer(tokenAdmin) });
    expect((lista.body as { items: unknown[] }).items).toHaveLength(1);

    // The same key with another body is refused, and creates nothing.
    const outra = await reservar(token, corpo(cnpj, '60000000'), key);
    expect(outra).toMatchObject({ status: 422, body: { error: 'chaveIdempotenciaReutilizada' } });
  }, 60_000);

  it('without a key: one is created, the others refused with the rule’s own message', async () => {
    const { cnpj, token } = await imf();
    const rs = await Promise.all(Array.from({ length: 20 }, () => reservar(token, corpo(cnpj))));
    rs.forEach(honesta);
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    const recusadas = rs.filter((r) => r.status === 409);
    expect(recusadas).toHaveLength(19);
    for (const r of recusadas) expect(r.body).toMatchObject({ message: 'Rejeição: Já existe um cadastro de pagamento antecipado para este CNPJ.' });
  }, 60_000);
});

describe('20 first DAEs of an invoice at once', () => {
  it('store one DAE and answer it to all', async () => {
    const clienteId = `reintento-${randomUUID()}`;
    const mes = previousMonth(previousMonth(monthOf(new Date())));
    const faturaId = faturaIdDe(clienteId, mes);
    await emitirFatura({
      faturaId, clienteId, cnpj: '12345678000195', razaoSocial: `CLIENTE REINTENTO ${clienteId.slice(10, 18)}`, mes, situacao: 'A', itens: [],
      valorServicos: 0, valorAssinatura: 750_60, valorTotal: 750_60, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
    });
    const dia = addDays(todayInBahia(), 3);
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(`/api/v1/fatura/${faturaId}/dae`, { method: 'POST', headers: { ...bearer(tokenAdmin), 'content-type': 'application/json' }, body: JSON.stringify({ dataVencimento: dia }) }),
      ),
    );
    rs.forEach(honesta);
    expect(rs.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(rs.map((r) => (r.body as { codigoBarras: string }).codigoBarras)).size).toBe(1);
    expect(await daesDaFatura(faturaId)).toHaveLength(1);
  }, 60_000);
});
