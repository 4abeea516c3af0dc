import { paginaDoArquivo } from './relatorio-arquivo';
import { falhou, passo } from './relatorio-job';

/**
 * Tasks of the report job (infra/lib/constructs/relatorio.ts): Passo, again and again until the file
 * is complete (a Choice on `concluido`) or the job goes on in its next execution (`continuar`), and
 * MarcarFalha on the Catch. Passo is told its execution (`$$.Execution.Id`, `.Name`): which of the
 * job's executions it runs in, and the machine to start the next one on. An evidence job's lines are
 * read from the archive's Parquet parts (relatorio-arquivo.ts), a reader only this function carries.
 */
export type RelatorioEvent =
  | { task: 'passo'; jobId: string; execucaoId?: string; execucao?: string }
  | { task: 'marcarFalha'; jobId: string; erro?: { Error?: string; Cause?: string } };

export async function handler(event: RelatorioEvent) {
  switch (event.task) {
    case 'passo':
      return passo(event.jobId, event.execucaoId && event.execucao ? { id: event.execucaoId, nome: event.execucao } : undefined, { paginaDoArquivo });
    case 'marcarFalha':
      await falhou(event.jobId, event.erro);
      return { jobId: event.jobId };
    default:
      throw new Error(`unknown task ${(event as { task?: unknown }).task as string}`);
  }
}
