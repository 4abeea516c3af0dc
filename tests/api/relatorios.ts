import { expect } from 'vitest';
import type { RelatorioJob } from '@plac/shared/contracts/consumo';
import { call } from './http';

/**
 * A report job's answer (202) followed to its end: its state read from /api/v1/consumo/relatorios/{id}
 * until it is no longer PROCESSANDO; every reading's progress is kept (lines written never go back).
 */
export async function aguardarRelatorio(answer: { status: number; body: unknown }, headers: Record<string, string>, timeoutMs = 60_000) {
  expect(answer.status).toBe(202);
  let job = answer.body as RelatorioJob;
  const progresso = [job.linhas];
  const ate = Date.now() + timeoutMs;
  while (job.estado === 'PROCESSANDO') {
    if (Date.now() > ate) throw new Error(`report job ${job.id} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
    const lido = await call(`/api/v1/consumo/relatorios/${job.id}`, { headers });
    expect(lido.status).toBe(200);
    job = lido.body as RelatorioJob;
    progresso.push(job.linhas);
  }
  expect(progresso).toEqual([...progresso].sort((a, b) => a - b));
  return { job, progresso };
}
