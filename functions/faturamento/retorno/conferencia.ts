import { formatDate } from '@plac/shared/domain';
import type { MessageKey } from '@plac/shared/messages';
import type { Cabecalho, Pagamento } from './layout';

/**
 * The sanity checks of a bank return file beyond its layout (docs/faturamento.md "Payments"), pure:
 * - the layout version (header positions 80–81) must be one this reading was written for: another
 *   version may place the fields elsewhere, so the whole file is refused and nothing is recorded;
 * - the file's generation date (header positions 66–73) may not be after today (America/Bahia, the
 *   day every business rule counts in): a file from the future is refused whole;
 * - a payment dated after the file that reports it cannot have happened: that line is reported and
 *   not paid, the other lines are processed.
 */

/**
 * The FEBRABAN arrecadação layout versions read here: 05 (what our own generator, escreverRetorno,
 * writes) to 07, whose A, G and Z records have the positions of layout.ts.
 */
export const VERSOES_SUPORTADAS = ['05', '06', '07'] as const;

export interface Recusa {
  chave: Extract<MessageKey, 'retornoVersaoNaoSuportada' | 'retornoDataFutura'>;
  vars: Record<string, string>;
}

/** The version refused, or null when supported. */
export function recusaDaVersao(versao: string): Recusa | null {
  if ((VERSOES_SUPORTADAS as readonly string[]).includes(versao)) return null;
  const encontrada = versao.trim() === '' ? '(em branco)' : `'${versao}'`;
  return { chave: 'retornoVersaoNaoSuportada', vars: { encontrada, suportadas: VERSOES_SUPORTADAS.join(', ') } };
}

/** A generation date after today ('YYYY-MM-DD', Bahia), or null. */
export function recusaDaData(cabecalho: Pick<Cabecalho, 'dataGeracao'>, hoje: string): Recusa | null {
  return cabecalho.dataGeracao > hoje ? { chave: 'retornoDataFutura', vars: { data: formatDate(cabecalho.dataGeracao), hoje: formatDate(hoje) } } : null;
}

/** Whether a payment line is dated after its file's generation date (reported, not paid). */
export function pagamentoPosteriorAoArquivo(p: Pick<Pagamento, 'dataPagamento'>, cabecalho: Pick<Cabecalho, 'dataGeracao'>): boolean {
  return p.dataPagamento > cabecalho.dataGeracao;
}
