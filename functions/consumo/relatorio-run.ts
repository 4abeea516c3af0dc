import { relatorio } from '@plac/shared/contracts/tarefas';
import { taskHandler } from '../platform/tarefa';
import { paginaDoArquivo } from './relatorio-arquivo';
import { falhou, passo } from './relatorio-job';

/**
 * Tasks of the report job (infra/lib/constructs/relatorio.ts; their payloads: shared/src/contracts/
 * tarefas.ts `relatorio`): Passo, again and again until the file is complete (a Choice on `concluido`)
 * or the job goes on in its next execution (`continuar`), and MarcarFalha on the Catch. Passo is told
 * its execution (`$$.Execution.Id`, `.Name`): which of the job's executions it runs in, and the machine
 * to start the next one on. An evidence job's lines are read from the archive's Parquet parts
 * (relatorio-arquivo.ts), a reader only this function carries.
 */
export const handler = taskHandler(relatorio, {
  passo: async ({ jobId, execucaoId, execucao }) => passo(jobId, execucaoId && execucao ? { id: execucaoId, nome: execucao } : undefined, { paginaDoArquivo }),
  marcarFalha: async ({ jobId, erro }) => {
    await falhou(jobId, erro);
    return { jobId };
  },
});
