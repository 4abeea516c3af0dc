import { logger } from '../platform/observability';
import { passo } from './total-transportadoras';

/**
 * The task of the carrier report's total job (infra/lib/constructs/total-transportadoras.ts): one step
 * (a bounded part of the carrier registry, total-transportadoras.ts), again and again until `concluido`.
 * A step retried after a crash reads the record as it stands: its write is conditional on the version.
 */
export interface PassoTotal {
  totalId: string;
  execucao: string;
}

export async function handler(event: PassoTotal): Promise<PassoTotal & { concluido: boolean }> {
  const concluido = await passo(event.totalId, event.execucao);
  logger.info('carrier total step', { totalId: event.totalId, concluido });
  return { totalId: event.totalId, execucao: event.execucao, concluido };
}
