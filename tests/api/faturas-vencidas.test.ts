import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { foldText } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { emitirFatura, lerFatura, marcarDae, registrarPagamento, registrarRecebimento, reprecificar, type FaturaRecord } from '../../functions/faturamento/store';
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

async function fatura(mes: string, valorTotal: number, doCliente = clienteId): Promise<FaturaRecord> {
  const record: FaturaRecord = {
    faturaId: faturaIdDe(doCliente, mes), clienteId: doCliente, cnpj: '12345678000195', razaoSocial: 'CLIENTE VENCIDAS', mes, situacao: 'A', itens: [],
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

  it('is kept by counters as invoices change: a receipt, a DAE with a later due date, a re-price, a payment, a client in evaluation (issue 38)', async () => {
    // A window of its own: 03/2032 to 02/2033, seen on 10/03/2033.
    const agora = new Date('2033-03-10T15:00:00Z');
    const a = await fatura('2032-10', 200_00); // due 15/11/2032
    const b = await fatura('2032-11', 300_00); // due 15/12/2032
    const c = await fatura('2032-12', 400_00); // due 15/01/2033
    const avaliacao = `venc-aval-${randomUUID()}`;
    const em = new Date().toISOString();
    await putCliente({ clienteId: avaliacao, cnpj: '66342187000110', razaoSocial: 'Em Avaliação', razaoFolded: foldText('Em Avaliação'), tipoCliente: 'ESF', situacao: 'E', email: `${avaliacao}@teste.test`, uf: 'BA', createdAt: em, updatedAt: em, updatedBy: 'teste' });
    await fatura('2033-01', 999_00, avaliacao); // overdue, but its client is in evaluation
    expect(await resumoVencidas(agora)).toEqual({ quantidade: 3, total: 900_00, vencimentoMaisAntigo: '2032-11-15' });

    // 50,00 received of A: it owes 150,00.
    const recebimento = {
      codigoBarras: '8'.repeat(44), dataPagamento: '2033-01-05', dataRetornoBanco: '2033-01-06', banco: '001', nomeBanco: 'Banco do Brasil', nomeArquivo: 'r.ret',
      importacaoId: 'venc', linha: 2, autenticacao: 'A1', saldoAnterior: 200_00, acrescimoDevido: 0, valorPago: 50_00, valorAcrescimo: 0, valorAmortizado: 50_00, valorExcedente: 0,
    };
    expect(await registrarRecebimento(a.faturaId, { revisao: 1, versao: 0 }, { recebimentos: [recebimento], chave: 'venc-a', quitada: null })).toBe('gravado');
    // B's DAE falls due after today: not overdue any more.
    await marcarDae(b.faturaId, { dtVencimento: '2033-03-31', codigoBarras: '8'.repeat(43) + '1', revisao: 1 });
    // C re-priced to 450,00.
    const antes = (await lerFatura(c.faturaId))!;
    expect(await reprecificar(antes, { itens: [], valorServicos: 0, valorAssinatura: 450_00, valorTotal: 450_00, assinaturaMinima: 0, atualizadaEm: em, atualizadaPor: 'teste' }, { em, por: 'teste', justificativa: 'teste' })).toBe(true);
    expect(await resumoVencidas(agora)).toEqual({ quantidade: 2, total: 600_00, vencimentoMaisAntigo: '2032-11-15' });

    // A paid: C alone.
    expect(await registrarPagamento(a.faturaId, 1, { codigoBarras: '8'.repeat(44), dataPagamento: '2033-03-01', dataRetornoBanco: '2033-03-02', valorPago: 150_00, valorAcrescimo: 0, importacaoId: 'venc' })).toBe('paga');
    expect(await resumoVencidas(agora)).toEqual({ quantidade: 1, total: 450_00, vencimentoMaisAntigo: '2033-01-15' });
    // Each invoice's share is what it adds: none once paid.
    expect((await lerFatura(a.faturaId))!.contagemAberta).toBeUndefined();
    expect((await lerFatura(c.faturaId))!.contagemAberta).toBe('2033-01-15|45000');
  });
});
