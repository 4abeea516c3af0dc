/**
 * What an invoice has received and still owes (issue 37; docs/faturamento.md "Partial payments"), pure.
 *
 * Every payment a bank reports for one of the invoice's DAEs is a receipt (`Recebimento`), kept on the
 * invoice in the order recorded. A receipt is applied as the Civil Code applies a payment to a debt with
 * interest (art. 354: first to the interest due, then to the capital): first to the late-payment
 * surcharge due on that day, then to the balance; what is left over is an overpayment, kept and
 * reported for refund, never absorbed. The balance owed is the invoice's total less what the receipts
 * amortised; the invoice is paid (P) when it reaches zero, "Pago parcialmente" while something was
 * amortised and something is still owed.
 *
 * A receipt is recognised by what identifies a payment, whatever file reports it: the barcode, the day
 * paid, the amount and the bank's authentication (`chaveDoRecebimento`). Invoices recorded before the
 * ledger kept a full payment (`pagamento`) and short payments (`pagamentosParciais`) apart: they are read
 * as receipts here, so old and new invoices answer the same.
 */

export interface Recebimento {
  codigoBarras: string;
  /** 'YYYY-MM-DD'. */
  dataPagamento: string;
  dataRetornoBanco: string;
  /** The bank's code and name, the file's name and its import (SHA-256), the line in it. */
  banco: string;
  nomeBanco: string;
  nomeArquivo: string;
  importacaoId: string;
  linha: number;
  autenticacao: string;
  /** Centavos owed before it (0: the invoice was paid already) and the surcharge due on them that day. */
  saldoAnterior: number;
  acrescimoDevido: number;
  /** Centavos received, and how they were applied: surcharge, balance, overpayment (they add up). */
  valorPago: number;
  valorAcrescimo: number;
  valorAmortizado: number;
  valorExcedente: number;
}

/** What identifies one payment in any file: barcode, day paid, amount and the bank's authentication. */
export const chaveDoRecebimento = (p: { codigoBarras: string; dataPagamento: string; valorPago: number; autenticacao: string }) =>
  `${p.codigoBarras}|${p.dataPagamento}|${p.valorPago}|${p.autenticacao}`;

/**
 * Applies `valorPago` to a debt of `saldo` on which `acrescimo` is due that day (Civil Code art. 354):
 * the surcharge first, then the balance, the rest an overpayment.
 */
export function imputar(valorPago: number, saldo: number, acrescimo: number): Pick<Recebimento, 'valorAcrescimo' | 'valorAmortizado' | 'valorExcedente'> {
  const valorAcrescimo = Math.min(valorPago, saldo > 0 ? acrescimo : 0);
  const valorAmortizado = Math.min(valorPago - valorAcrescimo, Math.max(saldo, 0));
  return { valorAcrescimo, valorAmortizado, valorExcedente: valorPago - valorAcrescimo - valorAmortizado };
}

/** The invoice's fields the ledger reads (store.ts FaturaRecord). */
export interface FaturaComRecebimentos {
  valorTotal: number;
  situacao: 'A' | 'P';
  recebimentos?: Recebimento[] | undefined;
  pagamento?: { codigoBarras: string; dataPagamento: string; dataRetornoBanco: string; valorPago: number; valorAcrescimo: number; importacaoId: string } | undefined;
  pagamentosParciais?: { codigoBarras: string; dataPagamento: string; dataRetornoBanco: string; valorPago: number; valorDevido: number; importacaoId: string; linha: number }[] | undefined;
}

/**
 * The invoice's receipts in the order recorded: the ledger when it has one; else those of before it
 * (short payments, then the full payment), applied by the same rule: a short payment's surcharge is what
 * was due on top of the total that day (`valorDevido` − total), a full payment's is the one recorded.
 */
export function recebimentosDaFatura(f: FaturaComRecebimentos): Recebimento[] {
  if (f.recebimentos?.length) return f.recebimentos;
  const antigos: Recebimento[] = [];
  let saldo = f.valorTotal;
  const semOrigem = { banco: '', nomeBanco: '', nomeArquivo: '', autenticacao: '' };
  for (const p of f.pagamentosParciais ?? []) {
    const { valorDevido, ...resto } = p;
    const acrescimoDevido = Math.max(valorDevido - f.valorTotal, 0);
    const r = { ...semOrigem, ...resto, saldoAnterior: saldo, acrescimoDevido, ...imputar(p.valorPago, saldo, acrescimoDevido) };
    antigos.push(r);
    saldo -= r.valorAmortizado;
  }
  if (f.pagamento) {
    const p = f.pagamento;
    antigos.push({ ...semOrigem, ...p, linha: 0, saldoAnterior: saldo, acrescimoDevido: p.valorAcrescimo, ...imputar(p.valorPago, saldo, p.valorAcrescimo) });
  }
  return antigos;
}

export interface Saldo {
  /** Centavos of the total the receipts amortised. */
  valorRecebido: number;
  /** Centavos still owed (zero once paid). */
  saldoDevedor: number;
  /** Centavos received over what was owed, to be refunded. */
  valorExcedente: number;
  /** Centavos of late-payment surcharge received. */
  valorAcrescimo: number;
}

export function saldoDaFatura(f: FaturaComRecebimentos): Saldo {
  const rs = recebimentosDaFatura(f);
  const soma = (k: 'valorAmortizado' | 'valorExcedente' | 'valorAcrescimo') => rs.reduce((s, r) => s + r[k], 0);
  const valorRecebido = soma('valorAmortizado');
  // An invoice paid before the ledger whose payment was recorded without its split still owes nothing.
  const saldoDevedor = f.situacao === 'P' ? 0 : Math.max(f.valorTotal - valorRecebido, 0);
  return { valorRecebido, saldoDevedor, valorExcedente: soma('valorExcedente'), valorAcrescimo: soma('valorAcrescimo') };
}

/** 'Pago parcialmente' while something was received and something is owed; else the stored status. */
export function pagaParcialmente(f: FaturaComRecebimentos): boolean {
  const s = saldoDaFatura(f);
  return f.situacao === 'A' && s.valorRecebido > 0 && s.saldoDevedor > 0;
}
