import { repasse } from '@plac/shared/contracts/tarefas';
import { taskHandler } from '../platform/tarefa';
import { distribuir, falhou, preparar } from './repasse';

/**
 * Tasks of the repasse run (infra/lib/constructs/repasse.ts; their payloads: shared/src/contracts/
 * tarefas.ts `repasse`): Preparar → Distribuir, and MarcarFalha on the Catch. Started by the rateio
 * API (POST /api/v1/repasse/simulacao and …/definitivo) with the run already recorded.
 */
export const handler = taskHandler(repasse, {
  preparar: async ({ input }) => preparar(input),
  distribuir: async ({ input }) => distribuir(input),
  marcarFalha: async ({ input, erro }) => falhou({ ...(input ?? {}), ...(erro ? { erro } : {}) }),
});
