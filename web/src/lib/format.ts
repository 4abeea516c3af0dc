/**
 * pt-BR display formatting for the portal (times are stored in UTC and shown in America/Bahia).
 * Deliberately minimal: the domain formatting (CNPJ/CPF masks, money rules, business dates) is being
 * written in @plac/shared/domain and will replace or back these helpers.
 */

export const TIME_ZONE = 'America/Bahia';
export const LOCALE = 'pt-BR';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const dateTimeParts = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const money = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'BRL' });

function parts(value: Date): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of dateTimeParts.formatToParts(value)) out[p.type] = p.value;
  return out;
}

function asDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * DD/MM/YYYY. A calendar date (YYYY-MM-DD) is shown as it is, never shifted by time zones; an instant
 * is shown as the date in America/Bahia. Invalid input gives ''.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (value == null || value === '') return '';
  if (typeof value === 'string') {
    const m = DATE_ONLY.exec(value);
    if (m) return `${m[3]}/${m[2]}/${m[1]}`;
  }
  const date = asDate(value);
  if (!date) return '';
  const p = parts(date);
  return `${p.day}/${p.month}/${p.year}`;
}

/** DD/MM/YYYY HH:mm in America/Bahia. Invalid input gives ''. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (value == null || value === '') return '';
  const date = asDate(value);
  if (!date) return '';
  const p = parts(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** The transport format YYYY-MM-DD of a date picked in the browser (its local calendar date). */
export function toTransportDate(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, '0');
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Money from integer centavos (money is never a float), e.g. 123456 → 'R$ 1.234,56'. */
export function formatMoney(centavos: number | null | undefined): string {
  if (centavos == null || !Number.isFinite(centavos)) return '';
  return money.format(centavos / 100);
}

const quantidade = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0, useGrouping: true });

/** A count (requests, band limits) with pt-BR thousands separators, e.g. 50000000 → '50.000.000'. */
export function formatQuantidade(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '';
  return quantidade.format(n);
}

/** A band's 'min - max' header with separators ('5.001 - 50.000'; an open band: '50.001 -'). */
export function formatIntervalo(qtdMinima: number, qtdMaxima: number | null | undefined): string {
  return `${formatQuantidade(qtdMinima)} - ${formatQuantidade(qtdMaxima)}`.trimEnd();
}
