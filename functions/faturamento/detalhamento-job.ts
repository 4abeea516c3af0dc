import { NOME_DETALHAMENTO } from '@plac/shared/domain';
import { iniciarRelatorio } from '../consumo';

/**
 * The invoice's detail as a report job (functions/consumo/relatorio-job.ts): one id per invoice (and
 * service, when one is asked), so the detail is made once — queued by the billing run when it issues
 * the invoice, served from the documents bucket afterwards — and a failed one is made again on the
 * next request.
 */
export function iniciarDetalhamento(
  f: { faturaId: string; clienteId: string; mes: string; razaoSocial: string; cnpj: string },
  idModuloServico?: number,
): Promise<Awaited<ReturnType<typeof iniciarRelatorio>>> {
  const servico = idModuloServico === undefined ? '' : `-servico-${idModuloServico}`;
  return iniciarRelatorio({
    jobId: `det-${f.faturaId}${idModuloServico === undefined ? '' : `-s${idModuloServico}`}`,
    tipo: 'detalhamento',
    clienteId: f.clienteId,
    cliente: { razaoSocial: f.razaoSocial, cnpj: f.cnpj },
    mes: f.mes,
    idModuloServico,
    faturaId: f.faturaId,
    chave: `faturas/${f.clienteId}/${f.faturaId}/detalhamento${servico}.zip`,
    nomeArquivo: NOME_DETALHAMENTO,
  });
}
