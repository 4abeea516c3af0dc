import { isBusinessMonth } from '@plac/shared/domain';
import { countBusiness } from '../platform/business-metrics';
import { iniciarDetalhamento } from './detalhamento-job';
import { falhou, faturarShard, listarShards, resumir, type ResultadoShard, type ShardRef } from './service';

/**
 * Tasks of the billing run (infra/lib/constructs/faturamento.ts): ListShards → Map over the shards of
 * clients (FaturarShard, with Retry) → Summarise, and MarkFailed on the Catch. EventBridge Scheduler
 * starts it on the 1st of each month (America/Bahia) for the month before; an admin starts it for a
 * month from the portal (functions/faturamento/handler.ts), with the run already recorded.
 */
export type FaturamentoEvent =
  | { task: 'listShards'; input?: { mes?: unknown; execucaoId?: unknown }; execucao?: unknown }
  | { task: 'faturarShard'; shard: ShardRef }
  | { task: 'summarise'; execucaoId: string; results: ResultadoShard[] }
  | { task: 'markFailed'; execucaoId?: string; erro?: { Error?: string; Cause?: string } };

export async function handler(event: FaturamentoEvent) {
  switch (event.task) {
    case 'listShards': {
      const input = event.input ?? {};
      const mes = typeof input.mes === 'string' && isBusinessMonth(input.mes) ? input.mes : undefined;
      if (input.mes !== undefined && mes === undefined) throw new Error(`not a business month: ${String(input.mes)}`);
      const execucaoId = typeof input.execucaoId === 'string' ? input.execucaoId : undefined;
      // The execution's name ($$.Execution.Name): what a scheduled run is judged by (service.ts encerrarRunsMortas).
      const execucao = typeof event.execucao === 'string' && event.execucao ? event.execucao : undefined;
      return listarShards({ ...(mes ? { mes } : {}), ...(execucaoId ? { execucaoId } : {}), ...(execucao ? { execucao } : {}) });
    }
    case 'faturarShard':
      // Each invoice issued: its detail ZIP queued as a report job (made once, served from S3 afterwards).
      return faturarShard(event.shard, { aposEmitir: (fatura) => iniciarDetalhamento(fatura) });
    case 'summarise': {
      const resumo = await resumir(event.execucaoId, event.results);
      // Counted once the run is summarised, from the shards' results, so a retried shard counts once.
      countBusiness('FaturasEmitidas', event.results.reduce((n, r) => n + r.emitidas, 0));
      countBusiness('FaturamentoFalhas', event.results.reduce((n, r) => n + r.falhas, 0));
      return resumo;
    }
    case 'markFailed':
      return falhou(event.execucaoId, event.erro);
    default:
      throw new Error(`unknown task ${(event as { task?: unknown }).task as string}`);
  }
}
