import type { fate, ResponseOf } from '@plac/shared/contracts';
import { UF_OPTIONS } from '../../lib/opcoes';

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
  ...UF_OPTIONS,
];

/** An NSU as shown: without the leading zeros of its 15-digit form ('000000000000046' → '46'). */
export function semZeros(nsu: string): string {
  return nsu.replace(/^0+(?=\d)/, '');
}

export { diaBr, diaIso, diasEntre, hojeMais, mesAtualMais, mesesEntre, mesIso, rotuloPonto as rotuloHistorico } from '../../lib/calendar';

/**
 * How many of a history's points (ascending 'YYYY-MM-DD' or 'YYYY-MM') are not in the future: a day after
 * today, or a month after this one, has loaded nothing yet, and drawn as 0 it would read as a collapse
 * (issue 28 item 5); the chart and its table stop at today.
 */
export function pontosAteHoje(pontos: readonly string[], hoje: string): number {
  return pontos.filter((p) => p <= hoje.slice(0, p.length)).length;
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
