import { createHash } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { monthOf } from '@plac/shared/domain';
import { HttpError, notFound, unavailable } from '../platform/errors';
import * as clientes from '../clientes';
import * as jobs from './relatorio-job';
import type { VistaRelatorio } from './relatorio-job';
import { avancarGeracao, emProducao, geracaoDoPedido, lerJob, marcarFalha, ocuparVaga, type RelatorioJobRecord } from './relatorio-job-store';
import { clienteDoFiltro } from '../platform/escopo';

/**
 * The consumption report's routes: start the client's report of a month as a report job
 * (relatorio-job.ts; its CSV is relatorio-csv.ts) and read a job's progress.
 */

/** Consumption reports a client may have in production at once (each reads a whole month of its log); the message 'relatoriosEmAndamento' names it. */
export const RELATORIOS_POR_CLIENTE = 3;
/** A done report of the current month answers an identical request for this long (the month still grows). */
export const FRESCO_MS = 10 * 60_000;

/** The job of a client's request (month and service) in a generation: identical requests meet on it. */
function idDoJob(clienteId: string, pedido: string, geracao: number): string {
  return `consumo-${createHash('sha256').update(`${clienteId}\u0000${pedido}`).digest('base64url').slice(0, 32)}-${geracao}`;
}

/**
 * Whether a job answers an identical request as it is: while it runs, and once done, for a month already
 * closed (its lines no longer change) as long as the job is kept, for the current month FRESCO_MS.
 */
function serve(job: RelatorioJobRecord, mesAtual: string, agora: Date): boolean {
  if (emProducao(job, agora)) return true;
  if (job.estado !== 'CONCLUIDO') return false;
  return job.mes < mesAtual || agora.getTime() - Date.parse(job.atualizadoEm ?? job.criadoEm) < FRESCO_MS;
}

/**
 * The client's report of a month as a job (relatorio-job.ts), answered 202: its progress and, once
 * done, the URL come from `situacao`. Who may: an administrator, or the client's own users. Requested
 * once: an identical request (client, month, service) answers the same job while it runs or is fresh
 * (`serve`); after that a new generation of the request starts a new one. A failed one is started again.
 * A client has at most RELATORIOS_POR_CLIENTE in production (429 'relatoriosEmAndamento' past them).
 */
export async function gerar(principal: Principal, idCliente: string, filtro: { idModuloServico?: number | undefined; mes?: string | undefined }): Promise<VistaRelatorio> {
  const clienteId = clienteDoFiltro(principal, idCliente)!;
  const cliente = await clientes.clienteResumo(clienteId);
  if (!cliente) throw notFound();
  const agora = new Date();
  const mesAtual = monthOf(agora);
  const mes = filtro.mes ?? mesAtual;
  const servico = filtro.idModuloServico === undefined ? '' : `-servico-${filtro.idModuloServico}`;
  const nomeArquivo = `relatorio-consumo-${cliente.cnpj}-${mes}${servico}.csv`;
  const pedido = `${mes}|${filtro.idModuloServico ?? '*'}`;
  const expiresAt = Math.floor(agora.getTime() / 1000) + jobs.CONSUMO_TTL_SECONDS;
  // Each turn either answers or moves the request one generation on (or sees another request do it).
  for (let volta = 0; volta < 5; volta++) {
    const geracao = await geracaoDoPedido(clienteId, pedido);
    const jobId = idDoJob(clienteId, pedido, geracao);
    const atual = await lerJob(jobId);
    if (atual && serve(atual, mesAtual, agora)) return jobs.vista(atual);
    if (atual && atual.estado !== 'FALHA') {
      // Done but stale, or stopped: the next generation.
      if (atual.estado === 'PROCESSANDO') await marcarFalha(jobId, 'parado: nenhum passo gravado em 15 minutos');
      await avancarGeracao(clienteId, pedido, geracao, expiresAt);
      continue;
    }
    // None yet, or failed: this generation's job (its conditional create: one of identical requests makes it).
    const job = await jobs.iniciar(
      {
        jobId,
        tipo: 'consumo',
        clienteId,
        cliente: { razaoSocial: cliente.razao_social, cnpj: cliente.cnpj },
        mes,
        idModuloServico: filtro.idModuloServico,
        chave: `consumo/${clienteId}/${jobId}/${nomeArquivo}`,
        nomeArquivo,
      },
      async (novo) => {
        if (!(await ocuparVaga(clienteId, novo.jobId, RELATORIOS_POR_CLIENTE, expiresAt, agora))) throw new HttpError(429, 'relatoriosEmAndamento');
      },
    );
    return jobs.vista(job);
  }
  // Five generations moved on under this request by others: answer what is there now.
  const job = await lerJob(idDoJob(clienteId, pedido, await geracaoDoPedido(clienteId, pedido)));
  if (!job) throw unavailable();
  return jobs.vista(job);
}

/** A report job's progress, to an administrator or to its client's users only (403 to anyone else). */
export async function situacao(principal: Principal, jobId: string): Promise<VistaRelatorio> {
  const job = await lerJob(jobId);
  if (!job) throw notFound();
  clienteDoFiltro(principal, job.clienteId);
  return jobs.vista(job);
}
