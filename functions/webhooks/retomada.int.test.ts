import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as endpoints from './endpoint-store';
import { executarPasso, iniciarJob, JOB_PARADO_MS, jobDaRetomada, jobDoReenvio, lerJob, LOTE_DO_JOB } from './jobs';
import { lerEntrega, marcarPausada, paginaDeEntregas, registrarEntrega, registrarTentativa } from './log-store';

/**
 * Resume and replay-all as jobs (functions/webhooks/jobs.ts) against DynamoDB Local: 2,000 held
 * deliveries resumed, the job killed half-way (a step that throws in the middle of a batch), run again
 * from its record: every held delivery is queued exactly once (no duplicate, no loss), the pause is
 * removed only at the end, and a second start while it runs starts nothing.
 */
const HELD = 2_000;

async function emParalelo<T>(itens: readonly T[], n: number, f: (t: T) => Promise<unknown>) {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (i < itens.length) await f(itens[i++]!);
  }));
}

class Queda extends Error {}

describe('resume job', () => {
  it(`queues ${HELD} held deliveries exactly once although killed half-way, and removes the pause last`, async () => {
    const clienteId = `ret-${randomUUID().slice(0, 8)}`;
    const operacao = 'EVENTO';
    const inicio = Date.now() - 3_600_000;
    const ids = Array.from({ length: HELD }, (_, i) => `EVENTO:${clienteId}:${String(i).padStart(5, '0')}`);
    await emParalelo(ids, 16, async (deliveryId) => {
      const dataCriacao = new Date(inicio + Number(deliveryId.slice(-5)) * 10).toISOString();
      await registrarEntrega({ deliveryId, clienteId, operacao, descricao: 'x', body: '{"n":1}', url: 'https://h.example/x', dataCriacao });
      await marcarPausada({ deliveryId, clienteId, dataCriacao });
    });
    // Two open ones of the same client that are not held, and one delivered: not touched.
    const outros = [`EVENTO:${clienteId}:pendente`, `ESCR_FAT:${clienteId}:pausada-outra-operacao`];
    await registrarEntrega({ deliveryId: outros[0]!, clienteId, operacao, descricao: 'x', body: '{}', url: 'https://h', dataCriacao: new Date(inicio).toISOString() });
    await registrarEntrega({ deliveryId: outros[1]!, clienteId, operacao: 'ESCR_FAT', descricao: 'x', body: '{}', url: 'https://h', dataCriacao: new Date(inicio).toISOString() });
    await marcarPausada({ deliveryId: outros[1]!, clienteId, dataCriacao: new Date(inicio).toISOString() });
    await endpoints.pausar({ clienteId, operacao, pausadoEm: new Date().toISOString(), motivoEntrega: ids[0]!, url: 'https://h.example/x' });
    expect(await endpoints.marcarRetomada(clienteId, operacao, new Date().toISOString())).not.toBeNull();
    expect(await endpoints.marcarRetomada(clienteId, operacao, new Date().toISOString())).toBeNull();

    const novo = { jobId: jobDaRetomada(clienteId, operacao), tipo: 'retomada' as const, clienteId, operacao, desde: new Date(inicio - 1000).toISOString(), ate: '9999-12-31T23:59:59.999Z', iniciadoPor: 'teste' };
    const { job, iniciou } = await iniciarJob(novo);
    expect(iniciou).toBe(true);
    // A retried resume while it runs: the same job, none started.
    const outra = await iniciarJob(novo);
    expect(outra).toMatchObject({ iniciou: false, job: { execucao: job.execucao } });

    const enfileiradas = new Map<string, number>();
    const enviar = async (corpos: readonly string[]) => {
      expect(corpos.length).toBeLessThanOrEqual(LOTE_DO_JOB);
      for (const c of corpos) {
        const id = (JSON.parse(c) as { deliveryId: string }).deliveryId;
        enfileiradas.set(id, (enfileiradas.get(id) ?? 0) + 1);
      }
    };
    // The crash: half-way, a batch whose deliveries were moved to PENDENTE dies before it is sent.
    let lotes = 0;
    await expect(
      executarPasso(job.jobId, job.execucao, {
        enviar,
        orcamentoMs: 600_000,
        aposFase: (fase) => {
          if (fase === 'movido' && ++lotes === HELD / 2 / LOTE_DO_JOB) throw new Queda('killed half-way');
        },
      }),
    ).rejects.toBeInstanceOf(Queda);
    const metade = await lerJob(job.jobId);
    expect(metade).toMatchObject({ situacao: 'EM_ANDAMENTO', fase: 'fila' });
    expect(metade!.lote).toHaveLength(LOTE_DO_JOB);
    expect(enfileiradas.size).toBe(HELD / 2 - LOTE_DO_JOB);
    // The pause is still there, so a retry is not refused and nothing is left held for good.
    expect(await endpoints.pausaDe(clienteId, operacao)).not.toBeNull();

    // Run again from its record, in short steps as the queue would.
    let fim = await executarPasso(job.jobId, job.execucao, { enviar, orcamentoMs: 2_000 });
    for (let passos = 0; fim?.situacao === 'EM_ANDAMENTO' && passos < 200; passos++) fim = await executarPasso(job.jobId, job.execucao, { enviar, orcamentoMs: 2_000 });
    expect(fim).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: HELD });

    const duplicadas = [...enfileiradas.values()].filter((n) => n > 1).length;
    const perdidas = ids.filter((id) => !enfileiradas.has(id)).length;
    expect({ duplicadas, perdidas, outras: outros.filter((id) => enfileiradas.has(id)) }).toEqual({ duplicadas: 0, perdidas: 0, outras: [] });
    expect(await endpoints.pausaDe(clienteId, operacao)).toBeNull();
    for (const id of [ids[0]!, ids[HELD / 2]!, ids.at(-1)!]) expect((await lerEntrega(id))?.situacao).toBe('PENDENTE');
    expect((await lerEntrega(outros[1]!))?.situacao).toBe('PAUSADA');

    // Resumed again (a late step of the same run, or a new start): nothing is queued twice.
    expect(await executarPasso(job.jobId, job.execucao, { enviar })).toMatchObject({ situacao: 'CONCLUIDO' });
    const denovo = await iniciarJob(novo);
    let j = denovo.job;
    for (let passos = 0; j.situacao === 'EM_ANDAMENTO' && passos < 50; passos++) j = (await executarPasso(j.jobId, j.execucao, { enviar }))!;
    expect(j).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 0 });
    expect([...enfileiradas.values()].every((n) => n === 1)).toBe(true);
  }, 600_000);

  it('takes over a stopped job (its control message dead-lettered) when started again, and fences off the old run', async () => {
    const clienteId = `par-${randomUUID().slice(0, 8)}`;
    const novo = { jobId: jobDoReenvio(clienteId), tipo: 'reenvio' as const, clienteId, desde: new Date(Date.now() - 60_000).toISOString(), ate: new Date().toISOString(), iniciadoPor: 't' };
    const { job: velho, iniciou } = await iniciarJob(novo);
    expect(iniciou).toBe(true);
    // Its step never runs again (the control message is in the dead-letter queue): it stays EM_ANDAMENTO.
    const logo = new Date(Date.now() + JOB_PARADO_MS - 60_000);
    expect(await iniciarJob(novo, logo)).toMatchObject({ iniciou: false, job: { execucao: velho.execucao, situacao: 'EM_ANDAMENTO' } });
    // With no write for JOB_PARADO_MS, a new start takes the lock over with a new execution.
    const depois = await iniciarJob(novo, new Date(Date.now() + JOB_PARADO_MS + 60_000));
    expect(depois.iniciou).toBe(true);
    expect(depois.job.execucao).not.toBe(velho.execucao);
    // A late step of the old run does nothing; the new one runs to the end.
    const enviar = async () => undefined;
    expect(await executarPasso(velho.jobId, velho.execucao, { enviar })).toMatchObject({ execucao: depois.job.execucao, situacao: 'EM_ANDAMENTO' });
    expect(await executarPasso(depois.job.jobId, depois.job.execucao, { enviar })).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 0 });
  });

  it('replays every failed delivery of a client as a job, and the list shows only open ones', async () => {
    const clienteId = `rep-${randomUUID().slice(0, 8)}`;
    const agora = Date.now();
    const ids = Array.from({ length: 25 }, (_, i) => `ESCR_FAT:${clienteId}:${i}`);
    for (const [i, deliveryId] of ids.entries()) {
      await registrarEntrega({ deliveryId, clienteId, operacao: 'ESCR_FAT', descricao: 'x', body: '{}', url: 'https://h', dataCriacao: new Date(agora - i * 1000).toISOString() });
      // Every fifth delivered, the others failed for good.
      await registrarTentativa({ deliveryId, mensagemId: 'm', recebimento: 13, instante: new Date().toISOString(), status: i % 5 === 0 ? 204 : 500, latenciaMs: 1 });
    }
    const lista = await paginaDeEntregas({ clienteId, desde: new Date(agora - 3_600_000).toISOString(), ate: new Date(agora + 1000).toISOString(), situacoes: ['PENDENTE', 'FALHA', 'PAUSADA'] }, { perPage: 50 });
    expect(lista.items).toHaveLength(20);
    expect(lista.items.every((e) => e.situacao === 'FALHA')).toBe(true);

    const enfileiradas: string[] = [];
    const { job } = await iniciarJob({ jobId: jobDoReenvio(clienteId), tipo: 'reenvio', clienteId, desde: new Date(agora - 3_600_000).toISOString(), ate: new Date(agora + 1000).toISOString(), iniciadoPor: 't' });
    const fim = await executarPasso(job.jobId, job.execucao, { enviar: async (c) => void enfileiradas.push(...c.map((x) => (JSON.parse(x) as { deliveryId: string }).deliveryId)) });
    expect(fim).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 20 });
    expect(new Set(enfileiradas).size).toBe(20);
    expect(enfileiradas.filter((id) => Number(id.split(':')[2]) % 5 === 0)).toEqual([]);
  }, 120_000);
});
