import { falhou, iniciar, passo } from './job';

/**
 * Tasks of the archive job (infra/lib/constructs/arquivo.ts): Iniciar (the schedule's input names no
 * month: the month before), then Passo until `concluido`, and MarcarFalha on the Catch. An
 * administrator archives any past month by starting the machine with `{"mes": "YYYY-MM"}`, optionally
 * only some clients (`"clientes": [ids]`).
 */
export type ArquivoEvent =
  | { task: 'iniciar'; entrada?: { mes?: string; clientes?: string[] } }
  | { task: 'passo'; mes: string }
  | { task: 'marcarFalha'; mes: string; erro?: { Error?: string; Cause?: string } };

export async function handler(event: ArquivoEvent) {
  switch (event.task) {
    case 'iniciar':
      return iniciar({ mes: event.entrada?.mes, clientes: event.entrada?.clientes });
    case 'passo':
      return passo(event.mes);
    case 'marcarFalha':
      await falhou(event.mes, event.erro);
      return { mes: event.mes };
    default:
      throw new Error(`unknown task ${(event as { task?: unknown }).task as string}`);
  }
}
