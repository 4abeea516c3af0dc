import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura, registrarPagamento, type FaturaRecord } from '../../functions/faturamento/store';
import { resumoVencidas } from '../../functions/faturamento/vencidas';
import { call } from './http';
import { sefazToken } from './people';
import { bearer, tokenFor } from './session';

/**
 * The administrator's overdue-invoice summary (issue 28 item 6): open invoices of the last twelve closed
 * months whose due date has passed, counted and added up. The rule is checked at a clock years ahead,
 * whose months only this file writes; the route, for its contract and role check.
 */

const AGORA = new Date('2031-03-10T15:00:00Z');
const clienteId = `venc-${randomUUID()}`;

async function fatura(mes: string, valorTotal: number): Promise<FaturaRecord> {
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, mes), clienteId, cnpj: '12345678000195', razaoSocial: 'CLIENTE VENCIDAS', mes, situacao: 'A', itens: [],
    valorServicos: 0, valorAssinatura: valorTotal, valorTotal, assinaturaMinima: 0, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
  await emitirFatura(record);
  return record;
}

beforeAll(async () => {
  await fatura('2030-12', 321_00); // due 15/01/2031: overdue
  await fatura('2031-01', 100_00); // due 15/02/2031: overdue
  await fatura('2031-02', 999_00); // due 15/03/2031: not yet
  const paga = await fatura('2030-11', 555_00); // paid: not counted
  expect(await registrarPagamento(paga.faturaId, 1, { codigoBarras: '8'.repeat(44), dataPagamento: '2030-12-10', dataRetornoBanco: '2030-12-11', valorPago: 555_00, valorAcrescimo: 0, importacaoId: 'teste' })).toBe('paga');
  await fatura('2030-02', 777_00); // thirteen months before: out of the window
}, 60_000);

describe('the overdue invoices summary', () => {
  it('counts the open invoices past their due date in the last twelve closed months', async () => {
    expect(await resumoVencidas(AGORA)).toEqual({ quantidade: 2, total: 421_00, vencimentoMaisAntigo: '2031-01-15' });
    // A month earlier the window is 02/2030 to 01/2031: 01/2031's invoice, on its due day, is not yet
    // overdue; 02/2030's is, and is the oldest.
    expect(await resumoVencidas(new Date('2031-02-15T15:00:00Z'))).toEqual({ quantidade: 2, total: 1_098_00, vencimentoMaisAntigo: '2030-03-15' });
  });

  it('is the administrator’s only: its shape for the admin, 403 for a client', async () => {
    const admin = await sefazToken();
    const r = await call('/api/v1/faturamento-mensal/vencidas', { headers: bearer(admin) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ quantidade: expect.any(Number), total: expect.any(Number), vencimentoMaisAntigo: expect.toSatisfy((v: unknown) => v === null || /^\d{4}-\d{2}-\d{2}$/.test(String(v))) });
    const cliente = await tokenFor({ userId: 'venc-cli', name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId });
    expect((await call('/api/v1/faturamento-mensal/vencidas', { headers: bearer(cliente) })).status).toBe(403);
  });
});
