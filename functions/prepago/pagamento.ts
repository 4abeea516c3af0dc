import { prazoDeConsumo } from '@plac/shared/domain';
import * as store from './store';

/**
 * A reservation's DAE paid, for the bank-return import (functions/faturamento/retorno): the
 * reservation paid and the account credited with its value and the consumption deadline, once. Only
 * the store under it, so the billing function gains nothing else.
 */

/** `PA-<clienteId>-<ciclo>` → its parts. */
export function cicloDoId(id: string): { clienteId: string; ciclo: number } | null {
  const m = /^PA-(.+)-(\d{1,6})$/.exec(id);
  return m ? { clienteId: m[1]!, ciclo: Number(m[2]) } : null;
}

export type ResultadoPagamento = 'paga' | 'jaPaga' | 'naoEncontrada';

export async function registrarPagamentoDae(documentoId: string, p: { codigoBarras: string; dataPagamento: string }, agora: Date = new Date()): Promise<ResultadoPagamento> {
  const ref = cicloDoId(documentoId);
  const r = ref ? await store.lerReserva(ref.clienteId, ref.ciclo) : null;
  if (!r) return 'naoEncontrada';
  if (r.situacao === 'P') return 'jaPaga';
  // The unit values the reservation fixed are on the account (its cycle's); the shards get a copy.
  const conta = await store.lerContaItem(r.clienteId);
  if (!conta) return 'naoEncontrada';
  const ok = await store.creditar(r, { pagoEm: p.dataPagamento, codigoBarras: p.codigoBarras, prazoConsumo: prazoDeConsumo(p.dataPagamento), agora: agora.toISOString(), valores: conta.valores });
  return ok ? 'paga' : 'jaPaga';
}

/** The reservation's company name, for the bank-return report. */
export async function razaoSocialDaReserva(documentoId: string): Promise<string> {
  const ref = cicloDoId(documentoId);
  return (ref ? await store.lerReserva(ref.clienteId, ref.ciclo) : null)?.razaoSocial ?? '';
}
