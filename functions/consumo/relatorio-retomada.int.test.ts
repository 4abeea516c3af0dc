import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registrar } from './relatorio-job';
import { criarJob, emProducao, lerJob, PARADO_MS, type RelatorioJobRecord } from './relatorio-job-store';

/**
 * A report job whose process died (issue 42): an invoice's detail ZIP left PROCESSANDO with no step for
 * PARADO_MS is failed and started again as a new attempt by the next request for it; one still writing
 * its steps is answered as it is.
 */

const cliente = { razaoSocial: 'CLIENTE RETOMADA', cnpj: '12345678000195' };

async function jobParado(minutosSemPasso: number): Promise<RelatorioJobRecord> {
  const jobId = `retomada-${randomUUID()}`;
  const quando = new Date(Date.now() - minutosSemPasso * 60_000).toISOString();
  const job: RelatorioJobRecord = {
    jobId, tipo: 'detalhamento', clienteId: `cli-${jobId}`, mes: '2026-10', chave: `detalhamento/${jobId}.zip`, nomeArquivo: 'detalhamento.zip',
    contentType: 'application/zip', estado: 'PROCESSANDO', passo: 3, tentativa: 1, linhas: 10, total: 100, progresso: '{}', criadoEm: quando, atualizadoEm: quando,
  };
  expect(await criarJob(job)).toBe(true);
  return job;
}

const pedido = (job: RelatorioJobRecord) => ({ jobId: job.jobId, tipo: 'detalhamento' as const, clienteId: job.clienteId, cliente, mes: job.mes, chave: job.chave, nomeArquivo: job.nomeArquivo });

describe('a report job whose steps stopped', () => {
  it('is started again by the next request, as a new attempt from its start', async () => {
    const parado = await jobParado(PARADO_MS / 60_000 + 5);
    expect(emProducao(parado)).toBe(false);
    const { job, criado } = await registrar(pedido(parado));
    expect(criado).toBe(true);
    expect(job).toMatchObject({ estado: 'PROCESSANDO', tentativa: 2, passo: 0, linhas: 0 });
    expect(await lerJob(parado.jobId)).toMatchObject({ tentativa: 2, passo: 0 });
  });

  it('one still writing its steps is answered as it is', async () => {
    const vivo = await jobParado(1);
    expect(emProducao(vivo)).toBe(true);
    const { job, criado } = await registrar(pedido(vivo));
    expect(criado).toBe(false);
    expect(job).toMatchObject({ tentativa: 1, passo: 3 });
  });
});
