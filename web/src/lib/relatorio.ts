import { consumo } from '@plac/shared/contracts';
import { message } from '@plac/shared/messages';
import { callApi, isApiError } from './api';
import { saveBlob } from './download';
import { getSession, setReportProcessing } from './session';
import { toast } from './toast';

/**
 * The consumption report, run outside any page: the server produces the file as a job (202 with the
 * job), whose real progress is read every POLL_MS and shown in the banner (lines written of the month's
 * total); when the job is done the file is fetched from its short-lived URL and saved under its name.
 * While it runs the session's report flag holds the client's name, the start and the progress, whatever
 * page the user goes to; on failure the toast 'Erro ao gerar relatório de consumo'. One report at a time.
 */

/** How often the job's progress is read. */
export const POLL_MS = 1000;

let emAndamento = false;

/** A flag left in the session by a report this page did not start (a reload mid-report) is stale. */
export function relatorioEmAndamento(): boolean {
  return emAndamento;
}

/**
 * A file the server produces as a job (this report, an invoice's detail ZIP) followed in the background
 * with the session's report flag and its banner: `iniciar` answers the job; its state is read until it
 * is done, then the file is fetched and saved under its name. false when another one is running
 * (nothing is asked) or it failed (the toast 'Erro ao gerar relatório de consumo'; the server's own
 * message when the client already has its limit of reports in production).
 */
export async function emSegundoPlano(cliente: { razaoSocial: string }, iniciar: () => Promise<consumo.RelatorioJob>): Promise<boolean> {
  if (emAndamento) return false;
  emAndamento = true;
  const startedAt = Date.now();
  setReportProcessing({ clienteNome: cliente.razaoSocial, startedAt });
  try {
    let job = await iniciar();
    for (;;) {
      setReportProcessing({ clienteNome: cliente.razaoSocial, startedAt, linhas: job.linhas, total: job.total });
      if (job.estado !== 'PROCESSANDO') break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      job = await callApi(consumo.relatorioJob, { params: { idRelatorio: job.id }, notify: false });
    }
    if (job.estado !== 'CONCLUIDO' || !job.url) throw new Error(`report job ${job.id} ${job.estado}`);
    const file = await fetch(job.url);
    if (!file.ok) throw new Error(`download ${file.status}`);
    saveBlob(job.nomeArquivo, await file.blob());
    return true;
  } catch (error) {
    // A token failure has already ended the session.
    // The catalogue's own words when the server says why: the client's reports at their limit (429),
    // a month whose evidence is not archived yet (409).
    if (isApiError(error) && (error.error === 'relatoriosEmAndamento' || error.error === 'evidenciaNaoArquivada')) toast.error(error.message);
    else if (!(isApiError(error) && error.isTokenError)) toast.error(message('relatorioConsumoFalhou'));
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
