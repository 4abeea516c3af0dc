import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as endpoints from './endpoint-store';
import {
  executarPasso,
  faixaDaParte,
  FATIAS_DO_CLIENTE,
  iniciarJob,
  JOB_PARADO_MS,
  jobDaRetomada,
  jobDoReenvio,
  lerJob,
  lerPartes,
  LOTE_DO_JOB,
  partesDo,
  vistaDoJob,
  type Ambiente,
  type JobRecord,
  type MensagemDePasso,
} from './jobs';
import { lerEntrega, marcarPausada, paginaDeEntregas, PARTES_DO_CLIENTE, parteDe, registrarEntrega, registrarTentativa } from './log-store';

/**
 * Resume and replay-all as jobs in parallel shards (functions/webhooks/jobs.ts) against DynamoDB Local:
 * 500 held deliveries of one endpoint, created over the three hours before, over the client's 10 index shards
 * cut in FATIAS_DO_CLIENTE time slices, one worker each (40), in batches of 4 (LOTE, against 100 in
 * production, so each worker crosses several batches), their
 * steps run as the queue runs them (each step's next message its own, all shards at once). One shard
 * killed half-way, one failing for a while, duplicate and stale messages: every held delivery is
 * queued exactly once (no duplicate, no loss), the other shards go on, the pause is removed only when
 * every shard has read to the end, and the job's view sums the shards.
 */
const HELD = 500;
const LOTE = 4;
const WORKERS = PARTES_DO_CLIENTE * FATIAS_DO_CLIENTE;
/** The held deliveries are created over the 3 hours before the resume (less 5 minutes), so every time slice holds some. */
const JANELA_MS = 3 * 3_600_000 - 300_000;

async function emParalelo<T>(itens: readonly T[], n: number, f: (t: T) => Promise<unknown>) {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (i < itens.length) await f(itens[i++]!);
  }));
}

class Queda extends Error {}

/**
 * The queue, in rounds: every message of a round runs at once; what a step answers goes to the next
 * round; a step that throws is received again in the next round. `aposRodada` may stop early.
 */
async function rodarFila(inicio: MensagemDePasso[], amb: Partial<Ambiente>, aposRodada?: (rodada: number) => Promise<boolean>): Promise<MensagemDePasso[]> {
  let fila = inicio;
  for (let rodada = 0; fila.length > 0 && rodada < 300; rodada++) {
    const atual = fila;
    fila = [];
    const res = await Promise.allSettled(atual.map((m) => executarPasso(m, amb)));
    res.forEach((r, i) => {
      if (r.status === 'fulfilled') fila.push(...r.value);
      else if (r.reason instanceof Queda) fila.push(atual[i]!);
      else throw r.reason;
    });
    if (aposRodada && (await aposRodada(rodada))) return fila;
  }
  return fila;
}

/** When `reter` created a held delivery: spread over the hours after `inicio`, so every time slice of the job holds some. */
const dataDaRetida = (deliveryId: string, inicio: number, n: number) => new Date(inicio + Math.floor((Number(deliveryId.slice(-5)) * JANELA_MS) / n)).toISOString();

/** The worker (index shard and time slice) that reads a held delivery. */
const trabalhadorDa = (job: JobRecord, deliveryId: string, dataCriacao: string) =>
  partesDo(job).find((p) => {
    const f = faixaDaParte(job, p);
    return f.shard === parteDe(deliveryId) && f.desde <= dataCriacao && dataCriacao <= f.ate;
  })!;

async function reter(clienteId: string, operacao: string, inicio: number, n: number) {
  const ids = Array.from({ length: n }, (_, i) => `${operacao}:${clienteId}:${String(i).padStart(5, '0')}`);
  await emParalelo(ids, 16, async (deliveryId) => {
    const dataCriacao = dataDaRetida(deliveryId, inicio, n);
    await registrarEntrega({ deliveryId, clienteId, operacao, descricao: 'x', body: '{"n":1}', url: 'https://h.example/x', dataCriacao });
    await marcarPausada({ deliveryId, clienteId, dataCriacao });
  });
  return ids;
}

function contador() {
  const enfileiradas = new Map<string, number>();
  const enviar = async (corpos: readonly string[]) => {
    expect(corpos.length).toBeLessThanOrEqual(LOTE_DO_JOB);
    for (const c of corpos) {
      const id = (JSON.parse(c) as { deliveryId: string }).deliveryId;
      enfileiradas.set(id, (enfileiradas.get(id) ?? 0) + 1);
    }
  };
  return { enfileiradas, enviar };
}

const primeiroPasso = (j: JobRecord): MensagemDePasso => ({ job: j.jobId, execucao: j.execucao });

describe('resume job in parallel shards', () => {
  it(`queues ${HELD} held deliveries over ${WORKERS} workers (${PARTES_DO_CLIENTE} shards × ${FATIAS_DO_CLIENTE} slices) exactly once, a worker killed half-way and one failing, and removes the pause last`, async () => {
    const clienteId = `ret-${randomUUID().slice(0, 8)}`;
    const operacao = 'EVENTO';
    const inicio = Date.now() - 3 * 3_600_000;
    const ids = await reter(clienteId, operacao, inicio, HELD);
    const porParte = new Map<string, number>();
    for (const id of ids) porParte.set(parteDe(id), (porParte.get(parteDe(id)) ?? 0) + 1);
    expect(porParte.size).toBe(PARTES_DO_CLIENTE);
    // Two open ones of the same client that are not held (or of another operation): not touched.
    const outros = [`EVENTO:${clienteId}:pendente`, `ESCR_FAT:${clienteId}:pausada-outra-operacao`];
    await registrarEntrega({ deliveryId: outros[0]!, clienteId, operacao, descricao: 'x', body: '{}', url: 'https://h', dataCriacao: new Date(inicio).toISOString() });
    await registrarEntrega({ deliveryId: outros[1]!, clienteId, operacao: 'ESCR_FAT', descricao: 'x', body: '{}', url: 'https://h', dataCriacao: new Date(inicio).toISOString() });
    await marcarPausada({ deliveryId: outros[1]!, clienteId, dataCriacao: new Date(inicio).toISOString() });
    await endpoints.pausar({ clienteId, operacao, pausadoEm: new Date().toISOString(), motivoEntrega: ids[0]!, url: 'https://h.example/x' });
    expect(await endpoints.marcarRetomada(clienteId, operacao, new Date().toISOString())).not.toBeNull();

    // As the route starts it: from three days before the pause, the time slices cutting the pause's period.
    const pausadoEm = new Date(inicio - 1000).toISOString();
    const novo = { jobId: jobDaRetomada(clienteId, operacao), tipo: 'retomada' as const, clienteId, operacao, desde: new Date(inicio - 1000 - 3 * 86_400_000).toISOString(), ate: '9999-12-31T23:59:59.999Z', cortarDe: pausadoEm, iniciadoPor: 'teste' };
    const { job, iniciou } = await iniciarJob(novo);
    expect(iniciou).toBe(true);
    expect(vistaDoJob(job)).toMatchObject({ situacao: 'EM_ANDAMENTO', enfileiradas: 0, partes: WORKERS, partesConcluidas: 0 });
    const PARTES = partesDo(job);
    expect(PARTES).toHaveLength(WORKERS);
    // Which worker reads each held delivery: its index shard and the time slice its creation falls in.
    const trabalhadorDe = (id: string) => trabalhadorDa(job, id, dataDaRetida(id, inicio, HELD));
    const porTrabalhador = new Map<string, number>();
    for (const id of ids) porTrabalhador.set(trabalhadorDe(id), (porTrabalhador.get(trabalhadorDe(id)) ?? 0) + 1);
    // The slices split each shard's hour: every worker has some, and each delivery one worker.
    expect(porTrabalhador.size).toBe(WORKERS);
    // A retried resume while it runs: the same job, none started.
    expect(await iniciarJob(novo)).toMatchObject({ iniciou: false, job: { execucao: job.execucao } });

    const { enfileiradas, enviar } = contador();
    // The first step creates the shards and answers one message per shard; run again, it keeps them.
    const primeiras = await executarPasso(primeiroPasso(job), { enviar });
    expect(primeiras.map((m) => m.parte)).toEqual(PARTES);
    const repetidas = await executarPasso(primeiroPasso(job), { enviar });
    expect(repetidas).toHaveLength(WORKERS);

    // Shard 00 dies on its second batch, moved but not sent; shard 01 fails on every receive until told otherwise.
    const [morta, falhando] = [PARTES[0]!, PARTES[1]!];
    let lotesDaMorta = 0;
    let falhar = true;
    const amb: Partial<Ambiente> = {
      enviar,
      orcamentoMs: 1_000,
      lote: LOTE,
      aposFase: (fase, parte) => {
        if (parte === morta && fase === 'movido' && ++lotesDaMorta === 2) throw new Queda('killed half-way');
        if (parte === falhando && fase !== 'enviado' && falhar) throw new Queda('failing');
      },
    };
    // Both copies of each first step go to the queue: each shard runs one of them.
    let vistaNoMeio: ReturnType<typeof vistaDoJob> | undefined;
    const sobra = await rodarFila([...primeiras, ...repetidas], amb, async () => {
      const partes = await lerPartes(job);
      const outras = partes.filter((p) => p.parte !== falhando);
      if (!outras.every((p) => p.fase === 'lida')) return false;
      // Every other shard read to the end while shard 01 fails: its record is still reading; the pause stays.
      expect(partes.find((p) => p.parte === falhando)).toMatchObject({ fase: 'fila' });
      expect(await endpoints.pausaDe(clienteId, operacao)).not.toBeNull();
      vistaNoMeio = vistaDoJob((await lerJob(job.jobId))!);
      return true;
    });
    expect(lotesDaMorta).toBeGreaterThanOrEqual(2);
    const semFalhando = ids.filter((id) => trabalhadorDe(id) !== falhando).length;
    expect(vistaNoMeio).toMatchObject({ situacao: 'EM_ANDAMENTO', enfileiradas: semFalhando, partesConcluidas: 0 });
    expect(enfileiradas.size).toBe(semFalhando);
    // The failing shard's message is the only one left; it recovers and the job runs to the end.
    expect(sobra.map((m) => m.parte)).toEqual([falhando]);
    falhar = false;
    expect(await rodarFila(sobra, amb)).toEqual([]);

    const fim = (await lerJob(job.jobId))!;
    expect(fim).toMatchObject({ situacao: 'CONCLUIDO', fase: 'final', enfileiradas: HELD });
    expect(vistaDoJob(fim)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: HELD, partes: WORKERS, partesConcluidas: WORKERS });
    const partes = await lerPartes(job);
    expect(partes.every((p) => p.fase === 'fim' && !p.lote)).toBe(true);
    expect(Object.fromEntries(partes.map((p) => [p.parte, p.enfileiradas]))).toEqual(Object.fromEntries(porTrabalhador));

    const duplicadas = [...enfileiradas.values()].filter((n) => n > 1).length;
    const perdidas = ids.filter((id) => !enfileiradas.has(id)).length;
    expect({ duplicadas, perdidas, outras: outros.filter((id) => enfileiradas.has(id)) }).toEqual({ duplicadas: 0, perdidas: 0, outras: [] });
    expect(await endpoints.pausaDe(clienteId, operacao)).toBeNull();
    for (const id of [ids[0]!, ids[HELD / 2]!, ids.at(-1)!]) expect((await lerEntrega(id))?.situacao).toBe('PENDENTE');
    expect((await lerEntrega(outros[1]!))?.situacao).toBe('PAUSADA');

    // Late messages of the same run, or a new start: nothing is queued twice.
    expect(await rodarFila([primeiroPasso(job), ...primeiras], amb)).toEqual([]);
    const denovo = await iniciarJob(novo);
    expect(denovo.iniciou).toBe(true);
    expect(await rodarFila([primeiroPasso(denovo.job)], { enviar, orcamentoMs: 5_000 })).toEqual([]);
    expect(await lerJob(denovo.job.jobId)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 0 });
    expect([...enfileiradas.values()].every((n) => n === 1)).toBe(true);
  }, 600_000);

  it("a shard's step run twice writes once: a second message of the step, and an older step's, do nothing", async () => {
    const clienteId = `dup-${randomUUID().slice(0, 8)}`;
    const operacao = 'EVENTO';
    const inicio = Date.now() - 3 * 3_600_000;
    const N = 400;
    const ids = await reter(clienteId, operacao, inicio, N);
    await endpoints.pausar({ clienteId, operacao, pausadoEm: new Date().toISOString(), motivoEntrega: ids[0]!, url: 'https://h.example/x' });
    await endpoints.marcarRetomada(clienteId, operacao, new Date().toISOString());
    const { job } = await iniciarJob({ jobId: jobDaRetomada(clienteId, operacao), tipo: 'retomada', clienteId, operacao, desde: new Date(inicio - 1000 - 3 * 86_400_000).toISOString(), ate: '9999-12-31T23:59:59.999Z', cortarDe: new Date(inicio - 1000).toISOString(), iniciadoPor: 't' });
    const { enfileiradas, enviar } = contador();
    const primeiras = await executarPasso(primeiroPasso(job), { enviar });
    // The worker with the most deliveries: more than one batch, so the step that runs one has a next step.
    const porTrabalhador = new Map<string, number>();
    for (const id of ids) {
      const t = trabalhadorDa(job, id, dataDaRetida(id, inicio, N));
      porTrabalhador.set(t, (porTrabalhador.get(t) ?? 0) + 1);
    }
    const [maior, quantas] = [...porTrabalhador].sort((x, y) => y[1] - x[1])[0]!;
    expect(quantas).toBeGreaterThan(LOTE);
    const m = primeiras.find((x) => x.parte === maior)!;
    const copia = { ...m, envio: randomUUID() };
    // The same step twice at once, from two messages: one runs it (one batch of the shard's ~40: the budget ends after it).
    const [a, b] = await Promise.all([executarPasso(m, { enviar, orcamentoMs: 1, lote: LOTE }), executarPasso(copia, { enviar, orcamentoMs: 1, lote: LOTE })]);
    expect([a.length, b.length].sort()).toEqual([0, 1]);
    const proximo = [...a, ...b][0]!;
    expect(proximo).toMatchObject({ parte: m.parte, passo: m.passo! + 1 });
    const [depois] = (await lerPartes(job)).filter((p) => p.parte === m.parte);
    expect(depois).toMatchObject({ passo: m.passo, fase: 'fila' });
    expect(depois!.enfileiradas).toBeGreaterThan(0);
    const antes = enfileiradas.size;
    // The losing copy again, and the step after, whose message comes twice: written once.
    expect(await executarPasso(m.envio === depois!.envio ? copia : m, { enviar })).toEqual([]);
    const seguinte = await executarPasso(proximo, { enviar, orcamentoMs: 1, lote: LOTE });
    const [apos] = (await lerPartes(job)).filter((p) => p.parte === m.parte);
    expect(await executarPasso({ ...proximo, envio: randomUUID() }, { enviar })).toEqual([]);
    // An older step's message (a late redelivery) does nothing either.
    expect(await executarPasso(m, { enviar })).toEqual([]);
    expect((await lerPartes(job)).find((p) => p.parte === m.parte)).toMatchObject({ versao: apos!.versao, enfileiradas: apos!.enfileiradas });
    expect(enfileiradas.size).toBeGreaterThan(antes);
    // The rest of the job as the queue runs it: each delivery once.
    expect(await rodarFila([...seguinte, ...primeiras.filter((x) => x.parte !== m.parte)], { enviar, orcamentoMs: 5_000 })).toEqual([]);
    expect(await lerJob(job.jobId)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: ids.length });
    expect({ n: enfileiradas.size, duplicadas: [...enfileiradas.values()].filter((n) => n > 1).length }).toEqual({ n: ids.length, duplicadas: 0 });
  }, 300_000);

  it('takes over a stopped job (its control message dead-lettered) when started again, and fences off the old run', async () => {
    const clienteId = `par-${randomUUID().slice(0, 8)}`;
    const novo = { jobId: jobDoReenvio(clienteId), tipo: 'reenvio' as const, clienteId, desde: new Date(Date.now() - 60_000).toISOString(), ate: new Date().toISOString(), iniciadoPor: 't' };
    const { job: velho, iniciou } = await iniciarJob(novo);
    expect(iniciou).toBe(true);
    const enviar = async () => undefined;
    const velhas = await executarPasso(primeiroPasso(velho), { enviar });
    // Its steps never run again (the control messages are in the dead-letter queue): it stays EM_ANDAMENTO.
    const logo = new Date(Date.now() + JOB_PARADO_MS - 60_000);
    expect(await iniciarJob(novo, logo)).toMatchObject({ iniciou: false, job: { execucao: velho.execucao, situacao: 'EM_ANDAMENTO' } });
    // With no write for JOB_PARADO_MS, a new start takes the lock over with a new execution.
    const depois = await iniciarJob(novo, new Date(Date.now() + JOB_PARADO_MS + 60_000));
    expect(depois.iniciou).toBe(true);
    expect(depois.job.execucao).not.toBe(velho.execucao);
    // Late steps of the old run do nothing; the new one runs to the end.
    expect(await rodarFila([primeiroPasso(velho), ...velhas], { enviar })).toEqual([]);
    expect(await lerJob(velho.jobId)).toMatchObject({ execucao: depois.job.execucao, situacao: 'EM_ANDAMENTO' });
    expect(await rodarFila([primeiroPasso(depois.job)], { enviar })).toEqual([]);
    expect(await lerJob(velho.jobId)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 0 });
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

    const { enfileiradas, enviar } = contador();
    const { job } = await iniciarJob({ jobId: jobDoReenvio(clienteId), tipo: 'reenvio', clienteId, desde: new Date(agora - 3_600_000).toISOString(), ate: new Date(agora + 1000).toISOString(), iniciadoPor: 't' });
    expect(await rodarFila([primeiroPasso(job)], { enviar })).toEqual([]);
    expect(await lerJob(job.jobId)).toMatchObject({ situacao: 'CONCLUIDO', enfileiradas: 20 });
    expect(enfileiradas.size).toBe(20);
    expect([...enfileiradas.keys()].filter((id) => Number(id.split(':')[2]) % 5 === 0)).toEqual([]);
  }, 120_000);
});
