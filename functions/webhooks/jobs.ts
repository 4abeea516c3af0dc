import { randomUUID } from 'node:crypto';
import { message } from '@plac/shared/messages';
import { Entity, Service, type EntityItem } from 'electrodb';
import { logger } from '../platform/observability';
import { isConditionalFailure, tableConfig } from '../platform/table';
import * as endpoints from './endpoint-store';
import { enviarEmLotes } from './fila';
import * as log from './log-store';
import type { WebhookDelivery } from './dispatcher';

/**
 * Resume and replay-all as jobs (docs/webhooks.md "Resume and replay-all jobs"). A request only starts
 * the job (one per endpoint or client at a time: a conditional lock) and answers 202; the job then
 * runs in steps on the webhook queue itself: a control message `{ job, execucao }` that the dispatcher
 * hands to `executarPasso`, which queues batches of LOTE_DO_JOB (SQS batches of 10) for a time budget and puts
 * the next control message. A step that dies (a crash, a timeout) is received again by the queue and
 * starts from the job's record:
 *
 * - before each batch the job records the batch's delivery ids (`lote`) and its next read position;
 *   then each delivery moves PAUSADA→PENDENTE (or FALHA→PENDENTE) on condition, so it moves once;
 *   then the batch is sent; then `lote` is cleared with the count. A step that finds a `lote` left by
 *   a crash moves what is still held and sends what is PENDENTE: no delivery is left behind, and one
 *   is sent twice only if the crash fell between SQS's answer and the clearing write (at most one
 *   batch of LOTE_DO_JOB; the dispatcher then skips one already delivered, and receivers drop a repeated delivery id).
 * - a resume keeps the endpoint's pause (marked `retomadaEm`, so the dispatcher posts again) until
 *   every held delivery was queued; it deletes the pause last, then reads once more for a delivery
 *   held by a dispatcher whose copy of the pause list predates the mark (that read waits until every
 *   such copy has expired: ESPERA_DA_LEITURA_FINAL_MS).
 */

export const SITUACOES_JOB = ['EM_ANDAMENTO', 'CONCLUIDO'] as const;

/**
 * Deliveries per recorded batch of a job (sent as SQS batches of 10). The job's record is written twice
 * per batch (its ids, then their count), about 5 KB with 100 ids: 0.1 write units per delivery on the
 * record's one partition, so a resume at 2,000 deliveries a second puts 200 units a second on it (20 %;
 * with batches of 10 it was 0.25 and 50 %: issue 36). The price: a crash between SQS's answer and the
 * clearing write sends at most one batch of 100 twice (the dispatcher skips one already delivered).
 */
export const LOTE_DO_JOB = 100;
type Tipo = 'retomada' | 'reenvio';

/**
 * Kept: one item per lock (a resume per endpoint, a replay-all per client, one for every client), which
 * the next job of the same lock overwrites: bounded by the clients, not by the deliveries.
 */
const job = new Entity({
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
    posicao: { type: 'string' },
    lote: { type: 'list', items: { type: 'string' } },
    enfileiradas: { type: 'number', required: true },
    versao: { type: 'number', required: true },
    iniciadoEm: { type: 'string', required: true },
    /** Each write of a step: a running job's sign of life (see JOB_PARADO_MS). */
    atualizadoEm: { type: 'string' },
    concluidoEm: { type: 'string' },
    iniciadoPor: { type: 'string', required: true },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['jobId'] }, sk: { field: 'sk', composite: [] } } },
});

let service: Service<{ job: typeof job }> | undefined;
const db = () => (service ??= new Service({ job }, tableConfig()));

export type JobRecord = EntityItem<typeof job>;

export const jobDaRetomada = (clienteId: string, operacao: string) => `retomada.${clienteId}.${operacao}`;
export const jobDoReenvio = (clienteId: string | undefined) => (clienteId ? `reenvio.${clienteId}` : 'reenvio');

export async function lerJob(jobId: string): Promise<JobRecord | null> {
  const { data } = await db().entities.job.get({ jobId }).go({ consistent: true });
  return data;
}

export interface NovoJob {
  jobId: string;
  tipo: Tipo;
  clienteId?: string | undefined;
  operacao?: string | undefined;
  desde: string;
  ate: string;
  iniciadoPor: string;
}

/**
 * A running job writes at every batch (a few seconds apart) and its next step's control message is
 * taken within seconds; a job with no write for this long has stopped: its control message went to
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
    execucao: randomUUID(),
    situacao: 'EM_ANDAMENTO' as const,
    fase: 'fila' as const,
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
    return { job: registro as JobRecord, iniciou: true };
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const atual = await lerJob(novo.jobId);
    if (!atual) throw error;
    return { job: atual, iniciou: false };
  }
}

/** The control message that runs (or resumes) the job's next step. */
export const mensagemDoPasso = (j: Pick<JobRecord, 'jobId' | 'execucao'>) => JSON.stringify({ job: j.jobId, execucao: j.execucao });

export function ehMensagemDePasso(corpo: unknown): corpo is { job: string; execucao: string } {
  const c = corpo as { job?: unknown; execucao?: unknown } | null;
  return typeof c === 'object' && c !== null && typeof c.job === 'string' && typeof c.execucao === 'string';
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
  /** The tests' crash: called after each phase of a batch, it may throw. */
  aposFase?: (fase: 'registrado' | 'movido' | 'enviado') => void;
}

const PADRAO: Ambiente = { enviar: enviarEmLotes, orcamentoMs: 20_000 };

/** Writes the job on condition of the version it read: another step of the same job (a redelivery) loses. */
async function gravar(j: JobRecord, mudancas: Partial<JobRecord>, remover: ('posicao' | 'lote')[] = []): Promise<JobRecord> {
  const versao = j.versao + 1;
  mudancas = { ...mudancas, atualizadoEm: new Date().toISOString() };
  let op = db().entities.job.patch({ jobId: j.jobId }).set({ ...mudancas, versao });
  if (remover.length > 0) op = op.remove(remover);
  await op.where((attr, { eq }) => `${eq(attr.versao, j.versao)} AND ${eq(attr.execucao, j.execucao)}`).go({ response: 'none' });
  const { lote, posicao, ...resto } = j;
  return {
    ...resto,
    ...(remover.includes('lote') ? {} : lote ? { lote } : {}),
    ...(remover.includes('posicao') ? {} : posicao !== undefined ? { posicao } : {}),
    ...mudancas,
    versao,
  } as JobRecord;
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
async function moverEEnviar(j: JobRecord, entregas: readonly (log.EntregaRecord | string)[], amb: Ambiente): Promise<number> {
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
  amb.aposFase?.('movido');
  if (enviar.length > 0) await amb.enviar(enviar);
  amb.aposFase?.('enviado');
  return enviar.length;
}

/**
 * One step of the job: runs batches until the budget ends or the job is done. Answers the job as it
 * left it; EM_ANDAMENTO means the caller puts the next control message.
 */
export async function executarPasso(jobId: string, execucao: string, amb: Partial<Ambiente> = {}): Promise<JobRecord | null> {
  const ambiente = { ...PADRAO, ...amb };
  const fim = Date.now() + ambiente.orcamentoMs;
  let j = await lerJob(jobId);
  if (!j || j.execucao !== execucao || j.situacao !== 'EM_ANDAMENTO') return j;
  // A batch a crashed step left recorded: finish it first.
  if (j.lote && j.lote.length > 0) {
    const n = await moverEEnviar(j, j.lote, ambiente);
    j = await gravar(j, { enfileiradas: j.enfileiradas + n }, ['lote']);
  }
  while (Date.now() < fim) {
    if (j.tipo === 'retomada' && j.fase === 'final') await esperarCopiasDaPausa(j);
    const pagina = await log.loteDeAbertas(
      { clienteId: j.clienteId, operacao: j.operacao, desde: j.desde, ate: j.ate, situacao: de(j) },
      { perPage: LOTE_DO_JOB, posicao: j.posicao },
    );
    const ids = pagina.items.map((e) => e.deliveryId);
    if (ids.length > 0 || pagina.posicao !== null) {
      j = await gravar(j, { lote: ids, ...(pagina.posicao !== null ? { posicao: pagina.posicao } : {}) }, pagina.posicao === null ? ['posicao'] : []);
      ambiente.aposFase?.('registrado');
      const n = ids.length > 0 ? await moverEEnviar(j, pagina.items, ambiente) : 0;
      j = await gravar(j, { enfileiradas: j.enfileiradas + n }, ['lote']);
      if (pagina.posicao !== null) continue;
    }
    // Read to the end.
    if (j.tipo === 'retomada' && j.fase === 'fila') {
      // Every held delivery is queued: the pause goes last, then one more read from the start.
      await endpoints.retomar(j.clienteId!, j.operacao!);
      j = await gravar(j, { fase: 'final' }, ['posicao']);
      continue;
    }
    j = await gravar(j, { situacao: 'CONCLUIDO', concluidoEm: new Date().toISOString() });
    logger.info('webhook job finished', { jobId, enfileiradas: j.enfileiradas });
    return j;
  }
  return j;
}

/** Runs a step from its control message and, while the job is not done, puts the next one. */
export async function passoDaFila(mensagem: { job: string; execucao: string }): Promise<void> {
  const j = await executarPasso(mensagem.job, mensagem.execucao);
  if (j?.situacao === 'EM_ANDAMENTO' && j.execucao === mensagem.execucao) await enviarEmLotes([mensagemDoPasso(j)]);
}

/** What the screen shows of a job. */
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
    iniciadoEm: j.iniciadoEm,
    concluidoEm: j.concluidoEm ?? null,
    ...(j.clienteId ? { clienteId: j.clienteId } : {}),
    ...(j.operacao ? { operacao: j.operacao } : {}),
  };
}
