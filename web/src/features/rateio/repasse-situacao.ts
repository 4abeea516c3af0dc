import type { rateio, ResponseOf } from '@plac/shared/contracts';
import { formatDateTime } from '../../lib/format';

/**
 * The words of the repasse runs on screen (issue 28 item 2): a status in words, never its code, with
 * date and time in America/Bahia (dd/mm/aaaa hh:mm); 'Solicitado' from the click until the API shows
 * the run; 'não gerado' only when no run of that kind exists and none was requested.
 */

export type Execucao = ResponseOf<typeof rateio.historicoRepasse>[number];
export type TipoRepasse = Execucao['tipo'];
type Situacao = NonNullable<ResponseOf<typeof rateio.situacaoRepasse>['simulacao']>;

export const SITUACAO_TEXTO: Record<Execucao['situacao'], string> = { EM_ANDAMENTO: 'Em andamento', CONCLUIDO: 'Concluído', FALHA: 'Falhou' };
export const TIPO_TEXTO: Record<TipoRepasse, string> = { SIMULACAO: 'Simulação', DEFINITIVO: 'Definitivo' };

/** A run requested on this screen: its id once the API answered the request. */
export interface Solicitacao {
  tipo: TipoRepasse;
  execucaoId: string | null;
}

/** A status code in words (an unknown code as it came). */
export function situacaoEmPalavras(codigo: string): string {
  return SITUACAO_TEXTO[codigo as Execucao['situacao']] ?? codigo;
}

/** Whether the requested run is still not shown by the API (its record absent or an older run's). */
export function aguardandoSolicitacao(s: Solicitacao | null, tipo: TipoRepasse, atual: Situacao | null | undefined): boolean {
  return s !== null && s.tipo === tipo && (s.execucaoId === null || atual?.execucaoId !== s.execucaoId);
}

/** The kind's line: 'Solicitado', 'Em andamento desde …', 'Concluído em …', 'Falhou em …' or 'não gerado'. */
export function textoSituacao(tipo: TipoRepasse, atual: Situacao | null | undefined, s: Solicitacao | null): string {
  if (aguardandoSolicitacao(s, tipo, atual)) return 'Solicitado';
  if (!atual) return 'não gerado';
  const palavras = situacaoEmPalavras(atual.situacao);
  if (atual.situacao === 'EM_ANDAMENTO') return `${palavras} desde ${formatDateTime(atual.iniciadoEm)}`;
  return atual.concluidoEm ? `${palavras} em ${formatDateTime(atual.concluidoEm)}` : palavras;
}
