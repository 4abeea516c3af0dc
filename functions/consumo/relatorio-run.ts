import { falhou, passo } from './relatorio-job';

/**
 * Tasks of the report job (infra/lib/constructs/relatorio.ts): Passo, again and again until the file
 * is complete (a Choice on `concluido`), and MarcarFalha on the Catch.
 */
export type RelatorioEvent = { task: 'passo'; jobId: string } | { task: 'marcarFalha'; jobId: string; erro?: { Error?: string; Cause?: string } };

export async function handler(event: RelatorioEvent) {
  switch (event.task) {
    case 'passo':
      return passo(event.jobId);
    case 'marcarFalha':
      await falhou(event.jobId, event.erro);
      return { jobId: event.jobId };
    default:
      throw new Error(`unknown task ${(event as { task?: unknown }).task as string}`);
  }
}
