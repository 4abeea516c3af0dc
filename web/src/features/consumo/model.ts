import type { consumo, ResponseOf } from '@plac/shared/contracts';
import { UFS } from '@plac/shared/domain';

/** What the consumption screens share: types, options and small pure helpers. */

export type ConsumoCliente = ResponseOf<typeof consumo.consumoPorCliente>['clientes'][number];
export type NaoEncontrada = ResponseOf<typeof consumo.naoEncontradas>['items'][number];
export type SerieMonitoramento = ResponseOf<typeof consumo.monitoramentoConsumo>;

export const UF_OPTIONS: readonly { value: string; label: string }[] = UFS.map((u) => ({ value: u.uf, label: `${u.uf} - ${u.nome}` }));

const count = new Intl.NumberFormat('pt-BR');
export const formatCount = (value: number) => count.format(value);

/** Elapsed time as 'mm:ss' (minutes keep counting past 59). */
export function decorrido(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A day picked in a Calendar as 'DD/MM/YYYY', the filters' transport form. */
export function diaBr(date: Date): string {
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${pad(date.getFullYear(), 4)}`;
}

/** A month picked in a Calendar as 'YYYY-MM'. */
export function mesIso(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}`;
}

/** Local midnight of today, shifted by whole days. */
export function hojeMais(days: number, now: Date = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
}

/** The first day of the current month, shifted by whole months. */
export function mesAtualMais(months: number, now: Date = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth() + months, 1);
}

/** Calendar days from a to b (dates picked in a Calendar). */
export function diasEntre(a: Date, b: Date): number {
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  return Math.round((utc(b) - utc(a)) / 86_400_000);
}

/** Months from a to b. */
export function mesesEntre(a: Date, b: Date): number {
  return (b.getFullYear() - a.getFullYear()) * 12 + b.getMonth() - a.getMonth();
}

/** A chart label: 'YYYY-MM-DD' → 'DD/MM', 'YYYY-MM' → 'MM/YYYY'. */
export function rotulo(ponto: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(ponto)) return `${ponto.slice(8, 10)}/${ponto.slice(5, 7)}`;
  if (/^\d{4}-\d{2}$/.test(ponto)) return `${ponto.slice(5, 7)}/${ponto.slice(0, 4)}`;
  return ponto;
}
