import { arquivo } from '@plac/shared/contracts/tarefas';
import { taskHandler } from '../platform/tarefa';
import { falhou, iniciar, passo } from './job';

/**
 * Tasks of the archive job (infra/lib/constructs/arquivo.ts; their payloads: shared/src/contracts/
 * tarefas.ts `arquivo`): Iniciar (the schedule's input names no month: the month before), then Passo
 * until `concluido`, and MarcarFalha on the Catch. An administrator archives any past month by starting
 * the machine with `{"mes": "YYYY-MM"}`, optionally only some clients (`"clientes": [ids]`).
 */
export const handler = taskHandler(arquivo, {
  iniciar: async ({ entrada }) => iniciar({ mes: entrada?.mes, clientes: entrada?.clientes }),
  passo: async ({ mes }) => passo(mes),
  marcarFalha: async ({ mes, erro }) => {
    await falhou(mes, erro);
    return { mes };
  },
});
