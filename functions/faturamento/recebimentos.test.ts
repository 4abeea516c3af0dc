import { describe, expect, it } from 'vitest';
import { chaveDoRecebimento, imputar, pagaParcialmente, recebimentosDaFatura, saldoDaFatura } from './recebimentos';

describe('a payment applied to an invoice (Civil Code art. 354)', () => {
  it('pays the surcharge first, then the balance; the rest is an overpayment', () => {
    expect(imputar(519_90, 1_000_00, 19_90)).toEqual({ valorAcrescimo: 19_90, valorAmortizado: 500_00, valorExcedente: 0 });
    expect(imputar(10_00, 1_000_00, 19_90)).toEqual({ valorAcrescimo: 10_00, valorAmortizado: 0, valorExcedente: 0 });
    expect(imputar(1_019_90, 1_000_00, 19_90)).toEqual({ valorAcrescimo: 19_90, valorAmortizado: 1_000_00, valorExcedente: 0 });
    expect(imputar(1_030_00, 1_000_00, 19_90)).toEqual({ valorAcrescimo: 19_90, valorAmortizado: 1_000_00, valorExcedente: 10_10 });
  });

  it('on an invoice that owes nothing, all of it is an overpayment', () => {
    expect(imputar(300_00, 0, 0)).toEqual({ valorAcrescimo: 0, valorAmortizado: 0, valorExcedente: 300_00 });
    expect(imputar(300_00, 0, 5_00)).toEqual({ valorAcrescimo: 0, valorAmortizado: 0, valorExcedente: 300_00 });
  });

  it('a payment is identified by barcode, day, amount and the bank authentication', () => {
    const p = { codigoBarras: '8'.repeat(44), dataPagamento: '2026-11-30', valorPago: 100, autenticacao: 'A1' };
    expect(chaveDoRecebimento(p)).toBe(chaveDoRecebimento({ ...p }));
    expect(chaveDoRecebimento(p)).not.toBe(chaveDoRecebimento({ ...p, autenticacao: 'A2' }));
    expect(chaveDoRecebimento(p)).not.toBe(chaveDoRecebimento({ ...p, valorPago: 101 }));
  });
});

describe('the ledger of an invoice recorded before it (issue 37)', () => {
  const antigo = { codigoBarras: '8'.repeat(44), dataPagamento: '2026-11-30', dataRetornoBanco: '2026-11-30', importacaoId: 'x' };

  it('reads short payments as receipts: the surcharge due that day first, the rest amortised; the balance is what is left', () => {
    const f = {
      valorTotal: 750_00,
      situacao: 'A' as const,
      pagamentosParciais: [{ ...antigo, valorPago: 750_00, valorDevido: 759_98, linha: 3 }],
    };
    expect(recebimentosDaFatura(f)).toEqual([
      expect.objectContaining({ valorPago: 750_00, saldoAnterior: 750_00, acrescimoDevido: 9_98, valorAcrescimo: 9_98, valorAmortizado: 740_02, valorExcedente: 0, autenticacao: '' }),
    ]);
    expect(saldoDaFatura(f)).toEqual({ valorRecebido: 740_02, saldoDevedor: 9_98, valorExcedente: 0, valorAcrescimo: 9_98 });
    expect(pagaParcialmente(f)).toBe(true);
  });

  it('a full payment after a short one is paid; what the short one paid is then an overpayment, no longer absorbed', () => {
    const f = {
      valorTotal: 800_00,
      situacao: 'P' as const,
      pagamentosParciais: [{ ...antigo, valorPago: 300_00, valorDevido: 800_00, linha: 2 }],
      pagamento: { ...antigo, valorPago: 800_00, valorAcrescimo: 0 },
    };
    expect(saldoDaFatura(f)).toEqual({ valorRecebido: 800_00, saldoDevedor: 0, valorExcedente: 300_00, valorAcrescimo: 0 });
    expect(pagaParcialmente(f)).toBe(false);
  });

  it('the ledger, once written, is what is read', () => {
    const r = { ...antigo, banco: '001', nomeBanco: 'BB', nomeArquivo: 'a.ret', linha: 2, autenticacao: 'A', saldoAnterior: 100, acrescimoDevido: 0, valorPago: 40, valorAcrescimo: 0, valorAmortizado: 40, valorExcedente: 0 };
    const f = { valorTotal: 100, situacao: 'A' as const, recebimentos: [r], pagamentosParciais: [{ ...antigo, valorPago: 40, valorDevido: 100, linha: 2 }] };
    expect(recebimentosDaFatura(f)).toEqual([r]);
    expect(saldoDaFatura(f).saldoDevedor).toBe(60);
  });
});
