import type { fate, ResponseOf } from '@plac/shared/contracts';
import { UFS } from '@plac/shared/domain';

/** What the load-control and monitoring screens share: types, options and small pure helpers. */

export type DocumentoErro = ResponseOf<typeof fate.filtrarDocumentosErro>['items'][number];
export type ResultadoLote = ResponseOf<typeof fate.importarLote>;
export type Monitoramento = ResponseOf<typeof fate.monitoramento>;
export type ResumoProcessamento = Monitoramento['resumo'][number];
export type Historico = ResponseOf<typeof fate.historicoMes>;
export type TipoProcessamento = 'documentos' | 'eventos';

/** The 'Todas' option of the UF filter (sent as no UF: PrimeReact's Dropdown shows '' as empty). */
export const TODAS = '*';

/** 'Todas' and the 27 UFs. */
export const UF_ORIGEM_OPTIONS: readonly { value: string; label: string }[] = [
  { value: TODAS, label: 'Todas' },
  ...UFS.map((u) => ({ value: u.uf, label: `${u.uf} - ${u.nome}` })),
];

/** An NSU as shown: without the leading zeros of its 15-digit form ('000000000000046' → '46'). */
export function semZeros(nsu: string): string {
  return nsu.replace(/^0+(?=\d)/, '');
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A day picked in a Calendar (its local calendar day) as 'YYYY-MM-DD'. */
export function diaIso(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A day picked in a Calendar as 'DD/MM/YYYY', the error-document filter's form. */
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

/** A history label: 'YYYY-MM-DD' → 'DD/MM', 'YYYY-MM' → 'MM/YYYY'. */
export function rotuloHistorico(ponto: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(ponto)) return `${ponto.slice(8, 10)}/${ponto.slice(5, 7)}`;
  if (/^\d{4}-\d{2}$/.test(ponto)) return `${ponto.slice(5, 7)}/${ponto.slice(0, 4)}`;
  return ponto;
}

/** Per point, the sum over the Sefaz of a history series. */
export function somaPorPonto(serie: Historico['serie'], pontos: number): number[] {
  const total = Array.from({ length: pontos }, () => 0);
  for (const { valores } of serie) valores.forEach((v, i) => (total[i] = (total[i] ?? 0) + v));
  return total;
}

/** 'Fat-e novas: 3 · Eventos: 0 · Resumos: 1 · Erros: 0 · Ignorados: 0 · Já gravados: 46'. */
export function resumoContagem(c: ResultadoLote['contagem']): string {
  return [
    `Fat-e novas: ${c.fate}`,
    `Eventos: ${c.eventos}`,
    `Resumos: ${c.resumos}`,
    `Erros: ${c.erros}`,
    `Ignorados: ${c.ignorados}`,
    `Já gravados: ${c.repetidos}`,
  ].join(' · ');
}

export { jsonTree } from '../../components/JsonTree';
