import { randomUUID } from 'node:crypto';
import { message } from '@plac/shared/messages';
import { Entity, type EntityItem } from 'electrodb';
import { logger } from '../platform/observability';
import { isConditionalFailure } from '../platform/table';
import * as endpoints from './endpoint-store';
import { enviarEmLotes, LOTE_SQS } from './fila';
import * as log from './log-store';
import { passoDeJobSchema, type MensagemDePasso, type WebhookDelivery } from '@plac/shared/contracts/fila-webhooks';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Resume and replay-all as jobs (docs/webhooks.md "Resume and replay-all jobs"). A request only starts
 * the job (one per endpoint or client at a time: a conditional lock on the job's record) and answers
 * 202; the job then runs on the webhook queue itself, in PARALLEL SHARDS (issue 38): one shard worker
 * per shard of the open-deliveries index it reads (log-store.ts: a client's PARTES_DO_CLIENTE = 10
 * shards for a resume or a client's replay-all, each cut in FATIAS_DO_CLIENTE time slices of its own
 * worker; the FILAS_ABERTAS = 32 all-clients shards for the replay of every client). The job's first control message `{ job, execucao }` (service.ts puts it)
 * creates one record per shard and puts one control message per shard `{ job, execucao, parte, passo,
 * envio }`; each shard then runs in steps of its own, each step queueing batches of LOTE_DO_JOB (SQS
 * batches of 10, sent at once) for a time budget and answering its next step's message. A step that
 * dies (a crash, a timeout) is received again by the queue and starts from its shard's record:
 *
 * - before each batch the shard records the batch's delivery ids (`lote`) and its next read position;
 *   then each delivery moves PAUSADA→PENDENTE (or FALHA→PENDENTE) on condition, so it moves once;
 *   then the batch is sent; then `lote` is cleared with the count. A step that finds a `lote` left by
 *   a crash moves what is still held and sends what is PENDENTE: no delivery is left behind, and one
 *   is sent twice only if the crash fell between SQS's answer and the clearing write (at most one
 *   batch of LOTE_DO_JOB per shard; the dispatcher then skips one already delivered, and receivers
 *   drop a repeated delivery id). Every write of a shard's record is conditional on its version, so a
 *   step run twice (a redelivery, a duplicate message) writes once.
 * - each shard's steps are numbered (`passo`): a step claims its number on the shard's record
 *   (conditional) with its message's `envio`; a message of an older step, or a second message of the
 *   same step (`envio` differs), does nothing and answers no next step, so a shard never runs two
 *   chains of steps. The message of the step that claimed, received again after a crash, goes on.
 *   The shards do not wait for each other: one whose step fails is retried by the queue while the
 *   others go on.
 * - a resume keeps the endpoint's pause (marked `retomadaEm`, so the dispatcher posts again) until
 *   every shard read its held deliveries to the end (`lida`); the shard that finds all of them so
 *   deletes the pause and wakes each shard for a last read from the start, for a delivery held by a
 *   dispatcher whose copy of the pause list predates the mark (that read waits until every such copy
 *   has expired: ESPERA_DA_LEITURA_FINAL_MS). The job is done (CONCLUIDO, with the shards' sum) when
 *   every shard is (`fim`); the last shard to finish writes it.
 *
 * Partition load at 2,000 deliveries a second (docs/webhooks.md "Partition load"): each shard's record
 * is its own partition key (`$webhooks#jobid_<id>#parte_<nn>`), written twice per batch of 100 (its
 * ids, about 5 KB, then their count: ~10 WCU per batch, 0.1 WCU per delivery): 2,000/s over a
 * client's 10 shards is 200 deliveries/s per shard, 20 WCU/s per shard record (2 % of a partition's
 * 1,000; in one record it was 200 WCU/s, 20 %). The job's own record (the lock) takes one small write
 * per step and shard (a step is ~20 s: 10 shards ≈ 0.5 WCU/s) and the phase changes. Each index shard
 * is read by its own worker only: one Query of ≤ 101 markers (< 1 KB each, eventually consistent,
 * ~12 RCU) per batch of 100, ~24 RCU/s per index shard at 200/s; each delivery is read and moved in
 * its own partition.
 */

export const SITUACOES_JOB = ['EM_ANDAMENTO', 'CONCLUIDO'] as const;

/**
 * Deliveries per recorded batch of a shard (sent as SQS batches of 10, all at once). The shard's record
 * is written twice per batch (its ids, then their count), about 5 KB with 100 ids: 0.1 write units per
 * delivery on the shard's own partition (above). The price: a crash between SQS's answer and the
 * clearing write sends at most one batch of 100 twice (the dispatcher skips one already delivered).
 */
export const LOTE_DO_JOB = 100;
type Tipo = 'retomada' | 'reenvio';

/**
 * The job's record: its lock and what the request asked. Kept: one item per lock (a resume per
 * endpoint, a replay-all per client, one for every client), which the next job of the same lock
 * overwrites: bounded by the clients, not by the deliveries. `posicao` and `lote` are the form before
 * the shards (one serial worker): a record left so is only read, its batch finished by the first step.
 */
const job = entidadeSobDemanda(() => new Entity({
  model: { entity: 'webhookJob', version: '1', service: 'webhooks' },
  attributes: {
    /** The lock: `retomada.<client>.<operation>`, `reenvio.<client>` or `reenvio` (all clients); also the job's id. */
    jobId: { type: 'string', required: true },
    tipo: { type: ['retomada', 'reenvio'] as const, required: true },
    /** Fencing: a control message of an earlier run of the same lock does nothing. */
    execucao: { type: 'string', required: true },
    clienteId: { type: 'string' },
    operacao: { type: 'string' },
    desde: { type: 'string', required: true },
    ate: { type: 'string', required: true },
    situacao: { type: SITUACOES_JOB, required: true },
    /** 'fila': queueing the held ones; 'final': the pause is gone, the last read. */
    fase: { type: ['fila', 'final'] as const, required: true },
    /** The shards (one per index shard read); absent: a record of the form before the shards. */
    partes: { type: 'number' },
    /** Time slices of each index shard, each its own worker (FATIAS_DO_CLIENTE); absent: 1, the form before. */
    fatias: { type: 'number' },
    /** Where the even cut of the slices starts (a resume: the pause's start, where the held ones are); absent: `desde`. */
    cortarDe: { type: 'string' },
    posicao: { type: 'string' },
    lote: { type: 'list', items: { type: 'string' } },
    /** Queued by the job's record itself (a batch of the old form); once done, the job's total. */
    enfileiradas: { type: 'number', required: true },
    versao: { type: 'number', required: true },
    iniciadoEm: { type: 'string', required: true },
    /** Each step of any shard: a running job's sign of life (see JOB_PARADO_MS). */
    atualizadoEm: { type: 'string' },
    concluidoEm: { type: 'string' },
    iniciadoPor: { type: 'string', required: true },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['jobId'] }, sk: { field: 'sk', composite: [] } } },
}));

/** A shard's phases: reading to the end, read (waiting for the others: a resume), the last read, done. */
export const FASES_DA_PARTE = ['fila', 'lida', 'final', 'fim'] as const;

/**
 * One shard worker of a job: its own partition key (jobId and shard), its own cursor, batch, count and
 * conditional version, so the shards never write the same item. Kept: one item per lock and shard
 * (at most 40 per lock), overwritten by the next run of the lock: bounded by the clients, not the deliveries.
 */
const parteDoJob = entidadeSobDemanda(() => new Entity({
  model: { entity: 'webhookJobParte', version: '1', service: 'webhooks' },
  attributes: {
    jobId: { type: 'string', required: true },
    /** What it reads: a client's index shard and time slice (`<00..09>.<0..3>`; `<00..09>` alone before the slices) or an all-clients `fila` (00..31). */
    parte: { type: 'string', required: true },
    execucao: { type: 'string', required: true },
    fase: { type: FASES_DA_PARTE, required: true },
    posicao: { type: 'string' },
    lote: { type: 'list', items: { type: 'string' } },
    enfileiradas: { type: 'number', required: true },
    versao: { type: 'number', required: true },
    /** The last step claimed, and the `envio` of the message that claimed it. */
    passo: { type: 'number', required: true },
    envio: { type: 'string' },
    atualizadoEm: { type: 'string' },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['jobId', 'parte'] }, sk: { field: 'sk', composite: [] } } },
}));

const db = servicoSobDemanda({ job, parteDoJob });

export type JobRecord = EntityItem<typeof job> & {
  /** Shards done (read: lerJob); the view shows them. */
  partesConcluidas?: number;
};
export type ParteRecord = EntityItem<typeof parteDoJob>;

export const jobDaRetomada = (clienteId: string, operacao: string) => `retomada.${clienteId}.${operacao}`;
export const jobDoReenvio = (clienteId: string | undefined) => (clienteId ? `reenvio.${clienteId}` : 'reenvio');

/**
 * Time slices per index shard of a client's job (issue 38 item 4): each index shard's range of creation
 * times is cut in this many slices, each read by its own worker, so a client's resume runs 10 × 4 = 40
 * workers. One worker released 60-74 deliveries a second on the twin (bench/webhooks-volume.ts), so 40
 * reach 2,000 a second (a held hour, 7.2 M, in about an hour) where the 10 shards alone reached about
 * 700. The all-clients replay keeps one worker per each of its 32 shards.
 */
export const FATIAS_DO_CLIENTE = 4;

/**
 * The shards of a job: a client's index shards (each cut in `fatias` time slices: `<shard>.<slice>`),
 * or the all-clients ones.
 */
export const partesDo = (j: Pick<JobRecord, 'clienteId'> & { fatias?: number | undefined }): readonly string[] => {
  const indices = j.clienteId ? log.PARTES : log.FILAS;
  const fatias = j.fatias ?? 1;
  return fatias <= 1 ? indices : indices.flatMap((indice) => Array.from({ length: fatias }, (_, k) => `${indice}.${k}`));
};

/**
 * What a worker reads: its index shard and its slice of creation times. The slices cut evenly the range
 * where the deliveries to move were created: from `cortarDe` (a resume: the pause's start, since the
 * deliveries held are those created while it lasted; a replay: `desde`) to the job's start
 * (`iniciadoEm`). The first slice reaches back to `desde` (a resume also reads the three days before the
 * pause, for a delivery still retrying when it began) and the last runs on to `ate`, so a delivery held
 * after the start is read by it. Disjoint and together the whole range: each slice starts where the one
 * before ends (its `ate` is a millisecond earlier, as the index's upper bound is inclusive).
 */
export function faixaDaParte(j: Pick<JobRecord, 'desde' | 'ate' | 'iniciadoEm'> & { fatias?: number | undefined; cortarDe?: string | undefined }, parte: string): { shard: string; desde: string; ate: string } {
  const [shard, fatia] = parte.split('.') as [string, string | undefined];
  const fatias = j.fatias ?? 1;
  if (fatia === undefined || fatias <= 1) return { shard, desde: j.desde, ate: j.ate };
  const de = Math.max(Date.parse(j.desde), Date.parse(j.cortarDe ?? j.desde));
  const inicio = Math.max(de, Math.min(Date.parse(j.iniciadoEm), Date.parse(j.ate)));
  const corte = (k: number) => Math.floor(de + ((inicio - de) * k) / fatias);
  const k = Number(fatia);
  return {
    shard,
    desde: k === 0 ? j.desde : new Date(corte(k)).toISOString(),
    ate: k === fatias - 1 ? j.ate : new Date(corte(k + 1) - 1).toISOString(),
  };
}

async function lerRegistro(jobId: string): Promise<JobRecord | null> {
  const { data } = await db().entities.job.get({ jobId }).go({ consistent: true });
  return data;
}

/** The job's shards of this run (consistent reads; a shard of an earlier run, or not yet created, is absent). */
export async function lerPartes(j: Pick<JobRecord, 'jobId' | 'execucao' | 'clienteId'>): Promise<ParteRecord[]> {
  const { data, unprocessed } = await db()
    .entities.parteDoJob.get(partesDo(j).map((parte) => ({ jobId: j.jobId, parte })))
    .go({ consistent: true });
  if (unprocessed.length > 0) throw new Error(`webhook job ${j.jobId}: ${unprocessed.length} shards not read`);
  return data.filter((p) => p.execucao === j.execucao).sort((a, b) => a.parte.localeCompare(b.parte));
}

/** The job as the screen and the lock see it: while it runs, its count is its shards' sum. */
export async function lerJob(jobId: string): Promise<JobRecord | null> {
  const j = await lerRegistro(jobId);
  if (!j || j.partes === undefined) return j;
  if (j.situacao === 'CONCLUIDO') return { ...j, partesConcluidas: j.partes };
  const partes = await lerPartes(j);
  return { ...j, enfileiradas: j.enfileiradas + partes.reduce((s, p) => s + p.enfileiradas, 0), partesConcluidas: partes.filter((p) => p.fase === 'fim').length };
}

export interface NovoJob {
  jobId: string;
  tipo: Tipo;
  clienteId?: string | undefined;
  operacao?: string | undefined;
  desde: string;
  ate: string;
  iniciadoPor: string;
  /** Time slices per index shard: a client's job FATIAS_DO_CLIENTE unless told (the tests take fewer). */
  fatias?: number | undefined;
  /** Where the slices' even cut starts (a resume: the pause's start); absent: `desde`. */
  cortarDe?: string | undefined;
}

/**
 * A running job writes at every step of each shard (~20 s apart) and its steps' control messages are
 * taken within seconds; a job with no write for this long has stopped: a control message went to
 * the dead-letter queue (a step failing on every receive) or was lost. Starting the same lock again
 * then takes it over with a new `execucao`, which fences off anything left of the old run.
 */
export const JOB_PARADO_MS = 15 * 60_000;

/**
 * Starts the job unless one of the same lock is running: the put is conditional on no record, a
 * finished one or a stopped one (no write for JOB_PARADO_MS; a record older than `atualizadoEm`
 * counts from its start). Answers the running job either way (`iniciou` says whether this call
 * started it).
 */
export async function iniciarJob(novo: NovoJob, agora = new Date()): Promise<{ job: JobRecord; iniciou: boolean }> {
  const registro = {
    ...novo,
    fatias: novo.fatias ?? (novo.clienteId ? FATIAS_DO_CLIENTE : 1),
    execucao: randomUUID(),
    situacao: 'EM_ANDAMENTO' as const,
    fase: 'fila' as const,
    partes: partesDo({ clienteId: novo.clienteId, fatias: novo.fatias ?? (novo.clienteId ? FATIAS_DO_CLIENTE : 1) }).length,
    enfileiradas: 0,
    versao: 0,
    iniciadoEm: agora.toISOString(),
    atualizadoEm: agora.toISOString(),
  };
  const parado = new Date(agora.getTime() - JOB_PARADO_MS).toISOString();
  try {
    await db()
      .entities.job.put(registro)
      .where(
        (attr, { notExists, eq, lt }) =>
          `${notExists(attr.jobId)} OR ${eq(attr.situacao, 'CONCLUIDO')} OR ${lt(attr.atualizadoEm, parado)} OR (${notExists(attr.atualizadoEm)} AND ${lt(attr.iniciadoEm, parado)})`,
      )
      .go({ response: 'none' });
    return { job: { ...registro, partesConcluidas: 0 } as JobRecord, iniciou: true };
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const atual = await lerJob(novo.jobId);
    if (!atual) throw error;
    return { job: atual, iniciou: false };
  }
}

export type { MensagemDePasso };

/** The control message that starts the job (its first step creates the shards). */
export const mensagemDoPasso = (j: Pick<JobRecord, 'jobId' | 'execucao'>) => JSON.stringify({ job: j.jobId, execucao: j.execucao });

/** Whether a queue message is a job's step (its contract, shared/src/contracts/fila-webhooks.ts), not a delivery. */
export function ehMensagemDePasso(corpo: unknown): corpo is MensagemDePasso {
  return passoDeJobSchema.safeParse(corpo).success;
}

/** The message a delivery is queued again with: the same id, the client and operation (not the URL) when it has a client. */
export function mensagemDaEntrega(e: log.EntregaRecord): string {
  const delivery: WebhookDelivery = {
    deliveryId: e.deliveryId,
    operacao: e.operacao,
    payload: JSON.parse(e.body) as Record<string, unknown>,
    ...(e.clienteId !== log.SEM_CLIENTE ? { clienteId: e.clienteId } : { url: e.url }),
    ...(e.razaoSocial ? { razaoSocial: e.razaoSocial } : {}),
    ...(e.dependeDe ? { dependeDe: e.dependeDe } : {}),
    descricao: e.descricao,
  };
  return JSON.stringify(delivery);
}

export interface Ambiente {
  /** Message bodies onto the webhook queue (SendMessageBatch); the tests count them. */
  enviar: (corpos: readonly string[]) => Promise<void>;
  /** How long one step runs before it hands over to the next control message. */
  orcamentoMs: number;
  /** Deliveries read and queued per batch (LOTE_DO_JOB; the tests take smaller ones to cross batches with fewer deliveries). */
  lote: number;
  /** The tests' crash: called after each phase of a batch (with the shard), it may throw. */
  aposFase?: (fase: 'registrado' | 'movido' | 'enviado', parte: string | undefined) => void;
}

/** A batch of 100 goes as its 10 SendMessageBatch calls at once. */
const PADRAO: Ambiente = { enviar: (corpos) => enviarEmLotes(corpos, LOTE_DO_JOB / LOTE_SQS), orcamentoMs: 20_000, lote: LOTE_DO_JOB };

/** Writes a shard on condition of the version it read: another step of the same shard (a redelivery, a duplicate) loses. */
async function gravarParte(p: ParteRecord, mudancas: Partial<ParteRecord>, remover: ('posicao' | 'lote')[] = []): Promise<ParteRecord> {
  const versao = p.versao + 1;
  mudancas = { ...mudancas, atualizadoEm: new Date().toISOString() };
  let op = db().entities.parteDoJob.patch({ jobId: p.jobId, parte: p.parte }).set({ ...mudancas, versao });
  if (remover.length > 0) op = op.remove(remover);
  await op.where((attr, { eq }) => `${eq(attr.versao, p.versao)} AND ${eq(attr.execucao, p.execucao)}`).go({ response: 'none' });
  const { lote, posicao, ...resto } = p;
  return {
    ...resto,
    ...(remover.includes('lote') ? {} : lote ? { lote } : {}),
    ...(remover.includes('posicao') ? {} : posicao !== undefined ? { posicao } : {}),
    ...mudancas,
    versao,
  } as ParteRecord;
}

/** A change of the job's own record, on condition that this run holds it and it is running: false when not applied. */
async function mudarJob(j: JobRecord, mudancas: Partial<JobRecord>, condicao?: { fase: JobRecord['fase'] }): Promise<boolean> {
  try {
    await db()
      .entities.job.patch({ jobId: j.jobId })
      .set({ ...mudancas, atualizadoEm: new Date().toISOString() })
      .where(
        (attr, { eq }) =>
          `${eq(attr.execucao, j.execucao)} AND ${eq(attr.situacao, 'EM_ANDAMENTO')}${condicao ? ` AND ${eq(attr.fase, condicao.fase)}` : ''}`,
      )
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/**
 * A resume's last read (phase 'final') starts no sooner than this after the job started: until then a
 * dispatcher may still hold a delivery on its copy of the pause list from before the resume's mark
 * (endpoint-store.ts PAUSAS_VALIDADE_MS), and the job starts after the mark. One second more for the
 * held delivery's marker to reach the index (indexes are read eventually consistent).
 */
export const ESPERA_DA_LEITURA_FINAL_MS = endpoints.PAUSAS_VALIDADE_MS + 1_000;

async function esperarCopiasDaPausa(j: JobRecord): Promise<void> {
  const falta = Date.parse(j.iniciadoEm) + ESPERA_DA_LEITURA_FINAL_MS - Date.now();
  if (falta > 0) await new Promise((resolve) => setTimeout(resolve, falta));
}

const de = (j: JobRecord): log.Situacao => (j.tipo === 'retomada' ? 'PAUSADA' : 'FALHA');
const mover = (j: JobRecord, e: log.ChavesDaEntrega) => (j.tipo === 'retomada' ? log.marcarRetomada(e) : log.marcarReenvio(e));

/**
 * Moves a batch on and sends it: a fresh batch with the records just read, the batch a crashed step
 * left with each re-read (its state says what was done). The moves of a batch run together.
 */
async function moverEEnviar(j: JobRecord, entregas: readonly (log.EntregaRecord | string)[], amb: Ambiente, parte: string | undefined): Promise<number> {
  const corpos = await Promise.all(
    entregas.map(async (x) => {
      const e = typeof x === 'string' ? await log.lerEntrega(x) : x;
      if (!e) return null;
      if (e.situacao === de(j)) return (await mover(j, e)) ? mensagemDaEntrega(e) : null;
      // Moved by this batch before a crash (or by another writer): sent, at worst once more.
      if (typeof x === 'string' && e.situacao === 'PENDENTE') return mensagemDaEntrega(e);
      return null;
    }),
  );
  const enviar = corpos.filter((c): c is string => c !== null);
  amb.aposFase?.('movido', parte);
  if (enviar.length > 0) await amb.enviar(enviar);
  amb.aposFase?.('enviado', parte);
  return enviar.length;
}

const mensagemDaParte = (j: JobRecord, p: Pick<ParteRecord, 'parte' | 'passo'>): MensagemDePasso => ({
  job: j.jobId,
  execucao: j.execucao,
  parte: p.parte,
  passo: p.passo + 1,
  envio: randomUUID(),
});

/**
 * The job's first step: the record of each shard (created once per run: a put on condition that none
 * of this run is there, so a repeat keeps the shards' progress) and the first step of each. A record
 * of the form before the shards with a batch left by a crash has that batch finished first.
 */
async function repartir(j: JobRecord, amb: Ambiente): Promise<MensagemDePasso[]> {
  if (j.lote && j.lote.length > 0) {
    const n = await moverEEnviar(j, j.lote, amb, undefined);
    await db()
      .entities.job.patch({ jobId: j.jobId })
      .set({ enfileiradas: j.enfileiradas + n, versao: j.versao + 1, partes: partesDo(j).length, atualizadoEm: new Date().toISOString() })
      .remove(['lote', 'posicao'])
      .where((attr, { eq }) => `${eq(attr.versao, j.versao)} AND ${eq(attr.execucao, j.execucao)}`)
      .go({ response: 'none' });
  } else if (j.partes === undefined) {
    await mudarJob(j, { partes: partesDo(j).length });
  }
  const agora = new Date().toISOString();
  const partes = await Promise.all(
    partesDo(j).map(async (parte) => {
      const nova: ParteRecord = { jobId: j.jobId, parte, execucao: j.execucao, fase: 'fila', enfileiradas: 0, versao: 0, passo: 0, atualizadoEm: agora };
      try {
        await db()
          .entities.parteDoJob.put(nova)
          .where((attr, { notExists, ne }) => `${notExists(attr.execucao)} OR ${ne(attr.execucao, j.execucao)}`)
          .go({ response: 'none' });
      } catch (error) {
        if (!isConditionalFailure(error)) throw error;
      }
      return nova;
    }),
  );
  // A repeat of this step sends the shards' first steps again: each shard runs the first it receives
  // (or none, if it is past its first step), never two.
  return partes.map((p) => mensagemDaParte(j, p));
}

/**
 * When a shard finished a phase: with every shard of the run at least as far (consistent reads; the
 * last shard to write its phase sees all the others'), a resume's pause is deleted and every shard
 * read to the end is woken for the last read; or the job is done with its shards' sum. Several shards
 * may find it at once: each step it does is conditional or harmless to repeat (the pause's delete,
 * the job's change, a wake-up message the shard already had: it runs one).
 */
async function seTodasProntas(j: JobRecord): Promise<MensagemDePasso[]> {
  const partes = await lerPartes(j);
  if (partes.length < partesDo(j).length) return [];
  if (partes.every((p) => p.fase === 'fim')) {
    const total = j.enfileiradas + partes.reduce((s, p) => s + p.enfileiradas, 0);
    if (await mudarJob(j, { situacao: 'CONCLUIDO', enfileiradas: total, concluidoEm: new Date().toISOString() })) {
      logger.info('webhook job finished', { jobId: j.jobId, enfileiradas: total, partes: partes.length });
    }
    return [];
  }
  if (j.tipo !== 'retomada' || !partes.every((p) => p.fase !== 'fila')) return [];
  // Every held delivery is queued: the pause goes last, then one more read from the start by each shard.
  await endpoints.retomar(j.clienteId!, j.operacao!);
  await mudarJob(j, { fase: 'final' }, { fase: 'fila' });
  return partes.filter((p) => p.fase === 'lida').map((p) => mensagemDaParte(j, p));
}

/**
 * One step of one shard: claims the step, then runs batches of its index shard until the budget ends
 * or the shard is done. Answers the control messages to put next (its own next step, or the wake-up
 * of every shard for a resume's last read).
 */
async function passoDaParte(j: JobRecord, m: Required<MensagemDePasso>, amb: Ambiente): Promise<MensagemDePasso[]> {
  const fim = Date.now() + amb.orcamentoMs;
  let p: ParteRecord | null;
  let reivindicou = false;
  for (let vez = 0; ; vez++) {
    const { data } = await db().entities.parteDoJob.get({ jobId: j.jobId, parte: m.parte }).go({ consistent: true });
    p = data;
    if (!p || p.execucao !== j.execucao || p.passo > m.passo) return [];
    // A second message of the same step (the first step's repeat, a resent handover): the one that claimed runs it.
    if (p.passo === m.passo) {
      if (p.envio !== m.envio) return [];
      break;
    }
    try {
      p = await gravarParte(p, { passo: m.passo, envio: m.envio });
      reivindicou = true;
      break;
    } catch (error) {
      if (!isConditionalFailure(error) || vez >= 5) throw error;
    }
  }
  // The job's sign of life: one small write per step and shard.
  await mudarJob(j, {});
  if (p.lote && p.lote.length > 0) {
    // A batch a crashed step left recorded: finish it first.
    const n = await moverEEnviar(j, p.lote, amb, p.parte);
    p = await gravarParte(p, { enfileiradas: p.enfileiradas + n }, ['lote']);
  }
  if (p.fase === 'fim') return seTodasProntas(j);
  if (p.fase === 'lida') {
    // Woken for the last read once the pause is gone; else this is the step that read to the end, run again.
    if (!(reivindicou && j.fase === 'final')) return seTodasProntas(j);
    p = await gravarParte(p, { fase: 'final' }, ['posicao']);
  }
  // At least one batch a step, whatever its budget.
  for (let primeiro = true; primeiro || Date.now() < fim; primeiro = false) {
    if (p.fase === 'final') await esperarCopiasDaPausa(j);
    const pagina = await log.loteDeAbertas(
      { clienteId: j.clienteId, operacao: j.operacao, situacao: de(j), ...faixaDaParte(j, p.parte) },
      { perPage: amb.lote, posicao: p.posicao },
    );
    const ids = pagina.items.map((e) => e.deliveryId);
    if (ids.length > 0 || pagina.posicao !== null) {
      p = await gravarParte(p, { lote: ids, ...(pagina.posicao !== null ? { posicao: pagina.posicao } : {}) }, pagina.posicao === null ? ['posicao'] : []);
      amb.aposFase?.('registrado', p.parte);
      const n = ids.length > 0 ? await moverEEnviar(j, pagina.items, amb, p.parte) : 0;
      p = await gravarParte(p, { enfileiradas: p.enfileiradas + n }, ['lote']);
      if (pagina.posicao !== null) continue;
    }
    // Read to the end: a resume's first read waits for the other shards; otherwise the shard is done.
    await gravarParte(p, { fase: j.tipo === 'retomada' && p.fase === 'fila' ? 'lida' : 'fim' }, ['posicao']);
    return seTodasProntas(j);
  }
  return [mensagemDaParte(j, p)];
}

/**
 * One step from its control message: the job's first step (the shards), or a shard's. Answers the
 * control messages to put next; none when the job (or this shard) is done, or the message is stale (an
 * earlier run of the lock, an older step, a second message of a step).
 */
export async function executarPasso(m: MensagemDePasso, amb: Partial<Ambiente> = {}): Promise<MensagemDePasso[]> {
  const ambiente = { ...PADRAO, ...amb };
  const j = await lerRegistro(m.job);
  if (!j || j.execucao !== m.execucao || j.situacao !== 'EM_ANDAMENTO') return [];
  if (m.parte === undefined) return repartir(j, ambiente);
  if (typeof m.passo !== 'number' || typeof m.envio !== 'string' || typeof m.parte !== 'string' || !partesDo(j).includes(m.parte)) return [];
  return passoDaParte(j, { ...m, parte: m.parte, passo: m.passo, envio: m.envio }, ambiente);
}

/** Runs a step from its control message and puts the next ones (each shard's next step is its own message). */
export async function passoDaFila(mensagem: MensagemDePasso): Promise<void> {
  const proximas = await executarPasso(mensagem);
  if (proximas.length > 0) await enviarEmLotes(proximas.map((x) => JSON.stringify(x)), LOTE_DO_JOB / LOTE_SQS);
}

/** What the screen shows of a job: its shards' sum while it runs. */
export function vistaDoJob(j: JobRecord) {
  const n = String(j.enfileiradas);
  const texto =
    j.situacao === 'EM_ANDAMENTO'
      ? message('webhookJobEmAndamento', { n })
      : j.tipo === 'retomada'
        ? message('webhookRetomado', { n })
        : message('webhookReenviados', { n });
  return {
    message: texto,
    jobId: j.jobId,
    tipo: j.tipo,
    situacao: j.situacao,
    enfileiradas: j.enfileiradas,
    ...(j.partes !== undefined ? { partes: j.partes, partesConcluidas: j.partesConcluidas ?? (j.situacao === 'CONCLUIDO' ? j.partes : 0) } : {}),
    iniciadoEm: j.iniciadoEm,
    concluidoEm: j.concluidoEm ?? null,
    ...(j.clienteId ? { clienteId: j.clienteId } : {}),
    ...(j.operacao ? { operacao: j.operacao } : {}),
  };
}
