import { faturamento } from '@plac/shared/contracts/tarefas';
import { countBusiness } from '../platform/business-metrics';
import { taskHandler } from '../platform/tarefa';
import { iniciarDetalhamento } from './detalhamento-job';
import { falhou, faturarShard, listarShards, resumir } from './service';

/**
 * Tasks of the billing run (infra/lib/constructs/faturamento.ts; their payloads: shared/src/contracts/
 * tarefas.ts `faturamento`): ListShards → Map over the shards of clients (FaturarShard, with Retry) →
 * Summarise, and MarkFailed on the Catch. EventBridge Scheduler starts it on the 1st of each month
 * (America/Bahia) for the month before; an admin starts it for a month from the portal
 * (functions/faturamento/handler.ts), with the run already recorded.
 */
export const handler = taskHandler(faturamento, {
  listShards: async ({ input = {}, execucao }) =>
    listarShards({
      ...(input.mes ? { mes: input.mes } : {}),
      ...(input.execucaoId ? { execucaoId: input.execucaoId } : {}),
      // The execution's name ($$.Execution.Name): what a scheduled run is judged by (service.ts encerrarRunsMortas).
      ...(execucao ? { execucao } : {}),
    }),
  // Each invoice issued: its detail ZIP queued as a report job (made once, served from S3 afterwards).
  faturarShard: async ({ shard }) => faturarShard(shard, { aposEmitir: (fatura) => iniciarDetalhamento(fatura) }),
  summarise: async ({ execucaoId, results }) => {
    const resumo = await resumir(execucaoId, results);
    // Counted once the run is summarised, from the shards' results, so a retried shard counts once.
    countBusiness('FaturasEmitidas', results.reduce((n, r) => n + r.emitidas, 0));
    countBusiness('FaturamentoFalhas', results.reduce((n, r) => n + r.falhas, 0));
    return resumo;
  },
  markFailed: async ({ execucaoId, erro }) => falhou(execucaoId, erro),
});
