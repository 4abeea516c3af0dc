import { totalTransportadoras } from '@plac/shared/contracts/tarefas';
import { logger } from '../platform/observability';
import { taskHandler } from '../platform/tarefa';
import { passo } from './total-transportadoras';

/**
 * The task of the carrier report's total job (infra/lib/constructs/total-transportadoras.ts; its
 * payload: shared/src/contracts/tarefas.ts `totalTransportadoras`): one step (a bounded part of the
 * carrier registry, total-transportadoras.ts), again and again until `concluido`. A step retried after
 * a crash reads the record as it stands: its write is conditional on the version.
 */
export const handler = taskHandler(totalTransportadoras, {
  passo: async ({ totalId, execucao }) => {
    const concluido = await passo(totalId, execucao);
    logger.info('carrier total step', { totalId, concluido });
    return { totalId, execucao, concluido };
  },
});
