import type { ResponseOf, tarifas } from '@plac/shared/contracts';
import { formatMonth } from '@plac/shared/domain';

/** Types and text helpers of the band and tariff screens. Money is never a float: text ↔ integers. */

export type Tarifacao = ResponseOf<typeof tarifas.getTarifacao>;
export type Versao = NonNullable<Tarifacao['vigente']>;

export const TIPO_LABEL: Record<Versao['tipo'], string> = { VIGENTE: 'Vigente', ELABORACAO: 'Em elaboração', HISTORICO: 'Histórico' };

/** 'MM/YYYY – MM/YYYY' (an open end: 'MM/YYYY – sem fim'). */
export function periodo(inicio: string, fim: string | null): string {
  return `${formatMonth(inicio)} – ${fim ? formatMonth(fim) : 'sem fim'}`;
}

/** 125 → '0,125' (3 decimals, no currency sign: the grid's input text). */
export function milesimosTexto(valor: number): string {
  const digits = String(Math.abs(valor)).padStart(4, '0');
  const inteiro = digits.slice(0, -3).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${inteiro},${digits.slice(-3)}`;
}

/**
 * A tariff value as typed ('0,125', '1,5', '2', '1.234,5') to thousandths; empty is 0 (spec 3, 5.1);
 * null for anything else (negative, more than 3 decimals, letters).
 */
export function parseMilesimos(texto: string): number | null {
  const t = texto.trim();
  if (t === '') return 0;
  const m = /^(\d{1,3}(?:\.\d{3})+|\d{1,9})(?:,(\d{0,3}))?$/.exec(t);
  if (!m) return null;
  const valor = Number(m[1]!.replaceAll('.', '')) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
  return Number.isSafeInteger(valor) && valor <= 999_999_999 ? valor : null;
}

/** Centavos as the subscription field shows them: 75000 → '750,00'. */
export function centavosTexto(valor: number): string {
  const digits = String(Math.abs(valor)).padStart(3, '0');
  return `${digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${digits.slice(-2)}`;
}

/** The grid's state of one band: the minimum follows the previous maximum; the last may be open. */
export interface FaixaLinha {
  qtdMinima: number;
  /** '' : open-ended (only the last). */
  qtdMaxima: string;
}

/** Next minimum = previous maximum + 1, first minimum 1 (spec 3, 5.1). */
export function recalcularMinimos(faixas: readonly FaixaLinha[]): FaixaLinha[] {
  let minimo = 1;
  return faixas.map((f) => {
    const linha = { ...f, qtdMinima: minimo };
    const max = Number(f.qtdMaxima);
    minimo = f.qtdMaxima !== '' && Number.isSafeInteger(max) ? max + 1 : minimo + 1;
    return linha;
  });
}

/** 'YYYY-MM' ↔ the first day of that month (a Calendar's value, local time). */
export function mesParaData(mes: string): Date {
  return new Date(Number(mes.slice(0, 4)), Number(mes.slice(5, 7)) - 1, 1);
}
