import { randomUUID } from 'node:crypto';
import { cargaSefaz } from '@plac/shared/contracts/tarefas';
import { FLUXOS, type Fluxo } from '@plac/shared/domain';
import { logger } from '../platform/observability';
import { taskHandler } from '../platform/tarefa';
import { carregarComTrava } from './carga';
import { sefazAtivas } from './sefaz-ativas';

/**
 * Tasks of the Sefaz load state machine (infra/lib/constructs/sefaz-load.ts; their payloads: shared/src/
 * contracts/tarefas.ts `cargaSefaz`), started every 5 minutes
 * by EventBridge Scheduler: ListSefaz → Map over the stream kinds (goods, transport) → Map over that
 * kind's active UFs, every stream at once → LoadSefaz (one UF's one stream, under its lease, until
 * caught up or out of time, with Retry) → Summarise. A retried LoadSefaz resumes from the stream's
 * committed cursor; a UF still loading from the previous run is left to it ('ocupada').
 */
export interface CargaDeStream {
  uf: string;
  fluxo: Fluxo;
}

/** One kind's streams: the inner Map's items (at most the 27 UFs, within the 40 an Inline Map runs at once). */
export interface LoteDeStreams {
  fluxo: Fluxo;
  cargas: CargaDeStream[];
}

export const handler = taskHandler(cargaSefaz, {
  listSefaz: async () => {
    const ufs = sefazAtivas();
    return { lotes: FLUXOS.map((fluxo): LoteDeStreams => ({ fluxo, cargas: ufs.map((uf) => ({ uf, fluxo })) })) };
  },
  // The lease's owner is the execution, not the invocation: a Retry after an attempt died (a new
  // request id) takes over the stream at once instead of answering `ocupada` until the lease ends.
  loadSefaz: async ({ carga: { uf, fluxo }, execucao }, context) => carregarComTrava(uf, fluxo, execucao ?? context?.awsRequestId ?? randomUUID()),
  summarise: async ({ results }) => {
    const cargas = results.flat();
    const soma = (key: 'fate' | 'eventos' | 'resumos' | 'erros' | 'repetidos') => cargas.reduce((sum, r) => sum + (r[key] ?? 0), 0);
    const resumo = {
      ufs: new Set(cargas.map((r) => r.uf)).size,
      fate: soma('fate'),
      eventos: soma('eventos'),
      resumos: soma('resumos'),
      erros: soma('erros'),
      repetidos: soma('repetidos'),
      aguardando: cargas.filter((r) => r.situacao === 'aguardando').map((r) => `${r.uf}/${r.fluxo}`),
      ocupadas: cargas.filter((r) => r.situacao === 'ocupada').map((r) => `${r.uf}/${r.fluxo}`),
      recusadas: cargas.filter((r) => r.situacao === 'recusada' || r.situacao === 'indisponivel').map((r) => `${r.uf}/${r.fluxo}`),
    };
    logger.info('Sefaz load finished', resumo);
    return resumo;
  },
});
