/**
 * The DAE's due date (spec 2 section 4 "DAE generation" and section 9; docs/faturamento.md "DAE"),
 * shared by the API (which decides) and the screen (which asks for a new date). Days are 'YYYY-MM-DD'
 * counted in America/Bahia (the caller passes today in Bahia):
 * - the default is the DAE's own due date when the invoice already has one, else the 15th of the month
 *   after the reference month;
 * - a default before today cannot be used: a new date is asked for;
 * - a new date must lie between today and the last day of next month, both included.
 */
import { nextMonth } from './dates';
import { motivoDiaNaoUtil, proximoDiaUtil } from './feriados';
import type { Uf } from './uf';

/** Spec 2 section 9: the default due date is the 15th of the following month. */
export const DAE_DIA_VENCIMENTO = 15;

/** The last day of the month after today's: `2026-11-23` → `2026-12-31`. */
export function fimDoProximoMes(hoje: string): string {
  const proximo = nextMonth(hoje.slice(0, 7));
  const [ano, mes] = proximo.split('-').map(Number) as [number, number];
  return `${proximo}-${String(new Date(Date.UTC(ano, mes, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** The default due date: the invoice's DAE's, else the 15th of the month after the reference month ('YYYY-MM'). */
export function vencimentoPadraoDae(mes: string, vencimentoDoDae?: string | null): string {
  return vencimentoDoDae ?? `${nextMonth(mes)}-${String(DAE_DIA_VENCIMENTO).padStart(2, '0')}`;
}

export type VencimentoDae =
  | { ok: true; dtVencimento: string }
  | { ok: false; erro: 'daeVencimentoExpirado'; padrao: string }
  | { ok: false; erro: 'daeVencimentoForaDoPrazo'; inicio: string; fim: string };

/** The due date a DAE is issued for: the one asked (within today … end of next month), else the default unless it is past. */
export function resolverVencimentoDae(p: { mes: string; vencimentoDoDae?: string | null | undefined; pedido?: string | undefined; hoje: string }): VencimentoDae {
  const fim = fimDoProximoMes(p.hoje);
  if (p.pedido !== undefined) {
    return p.pedido >= p.hoje && p.pedido <= fim ? { ok: true, dtVencimento: p.pedido } : { ok: false, erro: 'daeVencimentoForaDoPrazo', inicio: p.hoje, fim };
  }
  const padrao = vencimentoPadraoDae(p.mes, p.vencimentoDoDae);
  return padrao < p.hoje ? { ok: false, erro: 'daeVencimentoExpirado', padrao } : { ok: true, dtVencimento: padrao };
}

/**
 * The state that issues the DAE, whose business days its payment counts in: the Sefaz that runs the
 * platform, Bahia (every business rule counts days in America/Bahia; docs/faturamento.md "DAE").
 */
export const UF_EMISSORA_DAE: Uf = 'BA';

/**
 * The last day a DAE due on `dtVencimento` is paid without surcharge: the due date itself, or, when it
 * falls on a non-business day in the issuing state, the next business day (CTN art. 210, sole
 * paragraph; feriados.ts).
 */
export function vencimentoEfetivoDae(dtVencimento: string): string {
  return proximoDiaUtil(dtVencimento, UF_EMISSORA_DAE);
}

/** For the screens: why the due date is not a business day and until when it is paid without surcharge, or null. */
export function vencimentoEmDiaNaoUtil(dtVencimento: string): { motivo: string; pagavelAte: string } | null {
  const motivo = motivoDiaNaoUtil(dtVencimento, UF_EMISSORA_DAE);
  return motivo ? { motivo, pagavelAte: vencimentoEfetivoDae(dtVencimento) } : null;
}
