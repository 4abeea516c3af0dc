import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { iniciar } from './relatorio-job';
import { lerJob } from './relatorio-job-store';

/** Starting a report job against the twin's Step Functions endpoint: a start that fails leaves no job that nothing runs. */
describe('starting a report job', () => {
  const arn = process.env.RELATORIO_STATE_MACHINE_ARN;
  afterEach(() => {
    process.env.RELATORIO_STATE_MACHINE_ARN = arn;
  });

  it('a start refused by Step Functions marks the job FALHA, and the next request starts it again (attempt 2)', async () => {
    const clienteId = `rel-${randomUUID()}`;
    const novo = {
      jobId: `det-teste-${clienteId}`,
      tipo: 'detalhamento' as const,
      clienteId,
      cliente: { razaoSocial: 'CLIENTE', cnpj: '12345678000195' },
      mes: '2026-08',
      chave: `faturas/${clienteId}/teste/detalhamento.zip`,
      nomeArquivo: 'detalhamento_fatura.zip',
    };
    process.env.RELATORIO_STATE_MACHINE_ARN = `${arn}-nao-existe`;
    await expect(iniciar(novo)).rejects.toThrow();
    expect(await lerJob(novo.jobId)).toMatchObject({ estado: 'FALHA', tentativa: 1 });

    process.env.RELATORIO_STATE_MACHINE_ARN = arn;
    expect(await iniciar(novo)).toMatchObject({ estado: 'PROCESSANDO', tentativa: 2 });
    await expect.poll(async () => (await lerJob(novo.jobId))?.estado, { timeout: 30_000, interval: 200 }).toBe('CONCLUIDO');
    // Done: asked again, the same job, nothing started.
    expect(await iniciar(novo)).toMatchObject({ estado: 'CONCLUIDO', tentativa: 2 });
  }, 60_000);
});
