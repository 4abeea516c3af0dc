import { consumo } from '@plac/shared/contracts';
import { message } from '@plac/shared/messages';
import { callApi, isApiError } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { getSession, setReportProcessing } from '../../lib/session';
import { toast } from '../../lib/toast';

/**
 * The consumption report, run outside any page: the server builds the CSV and answers a short-lived
 * URL; the file is fetched and saved under its name. While it runs the session's report flag holds the
 * client's name and the start (the banner shows them), whatever page the user goes to; on failure the
 * toast 'Erro ao gerar relatório de consumo'. One report at a time.
 */

let emAndamento = false;

/** A flag left in the session by a report this page did not start (a reload mid-report) is stale. */
export function relatorioEmAndamento(): boolean {
  return emAndamento;
}

/**
 * A file the server builds (this report, an invoice's detail ZIP) run in the background with the
 * session's report flag and its banner: `gerar` answers the file's name and a short-lived URL; the file
 * is fetched and saved under its name. false when another one is running (nothing is asked) or it failed
 * (the toast 'Erro ao gerar relatório de consumo').
 */
export async function emSegundoPlano(cliente: { razaoSocial: string }, gerar: () => Promise<{ nomeArquivo: string; url: string }>): Promise<boolean> {
  if (emAndamento) return false;
  emAndamento = true;
  setReportProcessing({ clienteNome: cliente.razaoSocial, startedAt: Date.now() });
  try {
    const answer = await gerar();
    const file = await fetch(answer.url);
    if (!file.ok) throw new Error(`download ${file.status}`);
    saveBlob(answer.nomeArquivo, await file.blob());
    return true;
  } catch (error) {
    // A token failure has already ended the session.
    if (!(isApiError(error) && error.isTokenError)) toast.error(message('relatorioConsumoFalhou'));
    return false;
  } finally {
    emAndamento = false;
    if (getSession().reportProcessing) setReportProcessing(null);
  }
}

/** The client's report of a month (the current one unless given), of one service or all. */
export async function gerarRelatorio(cliente: { id: string; razaoSocial: string }, idModuloServico?: number, mes?: string): Promise<boolean> {
  return emSegundoPlano(cliente, () =>
    callApi(consumo.relatorioConsumo, {
      params: { idCliente: cliente.id },
      query: { ...(idModuloServico === undefined ? {} : { idModuloServico }), ...(mes === undefined ? {} : { mes }) },
      notify: false,
    }),
  );
}
