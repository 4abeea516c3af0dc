import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { abertasVencidasAntesDe, gravarFaturaSemContagem, lerFatura, linhasPagamentoDoCliente, registrarPagamento, totaisPagamentosDoMes, type FaturaRecord } from '../../functions/faturamento/store';
import { ownTable } from '../../tests/setup/own-table';
import { recontarMes } from './faturas-abertas';

/**
 * The open-invoice counters' migration (issue 38) against DynamoDB Local: invoices issued before the
 * counters (no share) are not counted; the migration counts the open ones at their due date and what
 * they owe, leaves the paid ones out, and a second run changes nothing.
 */

beforeAll(() => ownTable());

const mes = '2029-05';

function fatura(valorTotal: number): FaturaRecord {
  const clienteId = `abertas-${randomUUID()}`;
  return {
    faturaId: faturaIdDe(clienteId, mes), clienteId, cnpj: '12345678000195', razaoSocial: 'CLIENTE', mes, situacao: 'A', itens: [],
    valorServicos: 0, valorAssinatura: valorTotal, valorTotal, assinaturaMinima: 0, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
}

describe('the open-invoice counters migration', () => {
  it('counts the invoices issued before, and can run again', { timeout: 60_000 }, async () => {
    const [a, b, paga] = [fatura(100_00), fatura(250_00), fatura(75_00)];
    for (const f of [a, b, paga]) await gravarFaturaSemContagem(f);
    await registrarPagamento(paga.faturaId, 1, { codigoBarras: '8'.repeat(44), dataPagamento: '2029-06-01', dataRetornoBanco: '2029-06-02', valorPago: 75_00, valorAcrescimo: 0, importacaoId: 'mig' });
    // Before: nothing counted (the payment's own recount of a paid invoice adds nothing).
    expect(await abertasVencidasAntesDe([mes], '2099-01-01')).toEqual([]);

    expect(await recontarMes(mes)).toBe(3);
    const esperado = [{ mes, vencimento: '2029-06-15', quantidade: 2, saldo: 350_00 }];
    expect(await abertasVencidasAntesDe([mes], '2099-01-01')).toEqual(esperado);
    expect((await lerFatura(a.faturaId))!.contagemAberta).toBe('2029-06-15|10000');
    // And the Pagamento de Serviços rows and counters (no lines: one row of UF '' each).
    expect((await linhasPagamentoDoCliente(a.clienteId, mes, mes)).map((l) => [l.uf, l.situacao, l.valorTotal])).toEqual([['', 'A', 100_00]]);
    const contadores = async () => Object.fromEntries((await totaisPagamentosDoMes(mes)).filter((c) => /^[TN]\|/.test(c.chave)).map((c) => [c.chave, c.valor]));
    expect(await contadores()).toEqual({ 'T||A': 350_00, 'N||A': 2, 'T||P': 75_00, 'N||P': 1 });
    expect(await recontarMes(mes)).toBe(3);
    expect(await abertasVencidasAntesDe([mes], '2099-01-01')).toEqual(esperado);
    expect(await contadores()).toEqual({ 'T||A': 350_00, 'N||A': 2, 'T||P': 75_00, 'N||P': 1 });
    // Due on the 15th: not yet overdue that day.
    expect(await abertasVencidasAntesDe([mes], '2029-06-15')).toEqual([]);
  });
});
