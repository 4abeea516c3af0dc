import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { monthOf } from '@plac/shared/domain';
import { notFound } from '../platform/errors';
import * as clientes from '../clientes/service';
import * as jobs from './relatorio-job';
import type { VistaRelatorio } from './relatorio-job';
import { lerJob } from './relatorio-job-store';
import { clienteDoFiltro } from './telas';

/**
 * The consumption report's routes: start the client's report of a month as a report job
 * (relatorio-job.ts; its CSV is relatorio-csv.ts) and read a job's progress.
 */

/**
 * Starts the client's report of a month as a job (relatorio-job.ts) and answers it (202): its progress
 * and, once done, the URL come from `situacao`. Who may: an administrator, or the client's own users.
 */
export async function gerar(principal: Principal, idCliente: string, filtro: { idModuloServico?: number | undefined; mes?: string | undefined }): Promise<VistaRelatorio> {
  const clienteId = clienteDoFiltro(principal, idCliente)!;
  const cliente = await clientes.clienteResumo(clienteId);
  if (!cliente) throw notFound();
  const mes = filtro.mes ?? monthOf(new Date());
  const servico = filtro.idModuloServico === undefined ? '' : `-servico-${filtro.idModuloServico}`;
  const nomeArquivo = `relatorio-consumo-${cliente.cnpj}-${mes}${servico}.csv`;
  const job = await jobs.iniciar({
    tipo: 'consumo',
    clienteId,
    cliente: { razaoSocial: cliente.razao_social, cnpj: cliente.cnpj },
    mes,
    idModuloServico: filtro.idModuloServico,
    // One object per job: two reports of the same month never write over each other while running.
    chave: `consumo/${clienteId}/${randomUUID()}/${nomeArquivo}`,
    nomeArquivo,
  });
  return jobs.vista(job);
}

/** A report job's progress, to an administrator or to its client's users only (403 to anyone else). */
export async function situacao(principal: Principal, jobId: string): Promise<VistaRelatorio> {
  const job = await lerJob(jobId);
  if (!job) throw notFound();
  clienteDoFiltro(principal, job.clienteId);
  return jobs.vista(job);
}
