import { todayInBahia, toTransportDate } from '@plac/shared/domain';
import type { MessageKey } from '@plac/shared/messages';

/**
 * The pure rules of the 'Registro de Cessão' (docs/cessao.md). No I/O here: service.ts reads the
 * Fat-e, the ownership and the registry, then asks these.
 */

/** What the rules need of a stored Fat-e. */
export interface FateParaCessao {
  status: 'ATIVA' | 'CANCELADA';
  /** ISO-8601 instant of issue. */
  emissao: string;
  duplicatas: readonly { numero: string; vencimento: string; valor: number }[];
}

export interface PedidoCessao {
  nDup: string;
  cnpjCessionario: string;
  /** 'YYYY-MM-DD'. */
  dataCessao: string;
  /** Centavos. */
  valor: number;
}

/** A refusal: a catalogue key and its placeholders, answered 422. */
export interface Recusa {
  key: MessageKey;
  vars: Record<string, string>;
}

/**
 * The Fat-e's instalment of that nDup: the one written exactly so, else (both all digits) the one of the
 * same number, so that '1' finds '001' as the look-ups do. The registry keys by the Fat-e's own nDup.
 */
export function parcelaDe<D extends { numero: string }>(duplicatas: readonly D[], nDup: string): D | undefined {
  const exata = duplicatas.find((d) => d.numero === nDup);
  if (exata) return exata;
  if (!/^\d+$/.test(nDup)) return undefined;
  return duplicatas.find((d) => /^\d+$/.test(d.numero) && BigInt(d.numero) === BigInt(nDup));
}

const reais = (centavos: number) =>
  `R$ ${(centavos / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const dataBr = (dia: string) => `${dia.slice(8, 10)}/${dia.slice(5, 7)}/${dia.slice(0, 4)}`;

/**
 * Whether the assignment may be registered on this Fat-e, in this order: a cancelled Fat-e, an
 * instalment it does not have, a date after today (Bahia) or before its issue day (Bahia), a value above
 * the instalment's. Answers the instalment when every rule passes.
 */
export function avaliarCessao<D extends { numero: string; valor: number }>(
  f: FateParaCessao & { duplicatas: readonly D[] },
  pedido: PedidoCessao,
  agora: Date,
): { parcela: D } | { recusa: Recusa } {
  if (f.status === 'CANCELADA') return { recusa: { key: 'cessaoFateCancelada', vars: {} } };
  const parcela = parcelaDe(f.duplicatas, pedido.nDup);
  if (!parcela) return { recusa: { key: 'cessaoParcelaInexistente', vars: { nDup: pedido.nDup } } };
  if (pedido.dataCessao > todayInBahia(agora)) return { recusa: { key: 'cessaoDataFutura', vars: {} } };
  const emitidaEm = toTransportDate(f.emissao);
  if (pedido.dataCessao < emitidaEm) return { recusa: { key: 'cessaoDataAnteriorEmissao', vars: { data: dataBr(emitidaEm) } } };
  if (pedido.valor > parcela.valor) return { recusa: { key: 'cessaoValorAcimaDaParcela', vars: { nDup: parcela.numero, valor: reais(parcela.valor) } } };
  return { parcela };
}

/** A registration found in place of ours: the same one (an idempotent retry) only when every datum and the client match. */
export function mesmaCessao(
  registrada: { clienteId: string; cnpjCessionario: string; dataCessao: string; valor: number },
  clienteId: string,
  pedido: Omit<PedidoCessao, 'nDup'>,
): boolean {
  return (
    registrada.clienteId === clienteId &&
    registrada.cnpjCessionario === pedido.cnpjCessionario &&
    registrada.dataCessao === pedido.dataCessao &&
    registrada.valor === pedido.valor
  );
}
