import { isBusinessMonth } from '@plac/shared/domain';
import { distribuir, falhou, preparar, type Tipo } from './repasse';

/**
 * Tasks of the repasse run (infra/lib/constructs/repasse.ts): Preparar → Distribuir, and MarcarFalha
 * on the Catch. Started by the rateio API (POST /api/v1/repasse/simulacao and …/definitivo) with the
 * run already recorded.
 */
export type RepasseEvent =
  | { task: 'preparar'; input: { mes?: unknown; tipo?: unknown; execucaoId?: unknown } }
  | { task: 'distribuir'; input: { mes: string; tipo: Tipo; execucaoId: string } }
  | { task: 'marcarFalha'; input?: { mes?: string; tipo?: Tipo; execucaoId?: string }; erro?: { Error?: string; Cause?: string } };

export async function handler(event: RepasseEvent) {
  switch (event.task) {
    case 'preparar': {
      const { mes, tipo, execucaoId } = event.input;
      if (typeof mes !== 'string' || !isBusinessMonth(mes)) throw new Error(`not a business month: ${String(mes)}`);
      if (tipo !== 'SIMULACAO' && tipo !== 'DEFINITIVO') throw new Error(`unknown repasse kind ${String(tipo)}`);
      if (typeof execucaoId !== 'string') throw new Error('a run id is required');
      return preparar({ mes, tipo, execucaoId });
    }
    case 'distribuir':
      return distribuir(event.input);
    case 'marcarFalha':
      return falhou({ ...(event.input ?? {}), ...(event.erro ? { erro: event.erro } : {}) });
    default:
      throw new Error(`unknown task ${(event as { task?: unknown }).task as string}`);
  }
}
