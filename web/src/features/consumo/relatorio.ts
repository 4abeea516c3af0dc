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

export async function gerarRelatorio(cliente: { id: string; razaoSocial: string }, idModuloServico?: number): Promise<boolean> {
  if (emAndamento) return false;
  emAndamento = true;
  setReportProcessing({ clienteNome: cliente.razaoSocial, startedAt: Date.now() });
  try {
    const answer = await callApi(consumo.relatorioConsumo, {
      params: { idCliente: cliente.id },
      query: idModuloServico === undefined ? {} : { idModuloServico },
      notify: false,
    });
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
