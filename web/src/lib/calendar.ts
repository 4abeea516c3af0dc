/**
 * Dates picked in a PrimeReact Calendar (local midnights) in the forms the API takes, and the
 * arithmetic the filters' rules need. Days and months are the user's calendar ones, never UTC's.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A day picked in a Calendar (its local calendar day) as 'YYYY-MM-DD'. */
export function diaIso(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

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

/** Calendar days from a to b (dates picked in a Calendar, local midnights; DST-proof). */
export function diasEntre(a: Date, b: Date): number {
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  return Math.round((utc(b) - utc(a)) / 86_400_000);
}

/** Months from a to b ('YYYY-MM' of each). */
export function mesesEntre(a: Date, b: Date): number {
  return (b.getFullYear() - a.getFullYear()) * 12 + b.getMonth() - a.getMonth();
}

/** A chart point's label: 'YYYY-MM-DD' → 'DD/MM', 'YYYY-MM' → 'MM/YYYY'. */
export function rotuloPonto(ponto: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(ponto)) return `${ponto.slice(8, 10)}/${ponto.slice(5, 7)}`;
  if (/^\d{4}-\d{2}$/.test(ponto)) return `${ponto.slice(5, 7)}/${ponto.slice(0, 4)}`;
  return ponto;
}
