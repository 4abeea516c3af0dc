import { createHash } from 'node:crypto';
import { Entity, Service, type EntityItem } from 'electrodb';
import { createConversions } from 'electrodb';
import { paginaEmSequencia, paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { isConditionalFailure, tableConfig, transactWithRetry } from '../platform/table';
import { MAX_RECEBIMENTOS } from './espera';

/**
 * The webhook delivery log (docs/webhooks.md "Delivery log, monitoring and replay"): one `entrega`
 * item per delivery id and one `tentativa` item per attempt. Every write is conditional, so a retried
 * SQS message never counts an attempt twice and a delivery is created once.
 *
 * Reads are key lookups: by id (the table's key), and two sparse indexes of the OPEN deliveries only
 * (PENDENTE, FALHA, PAUSADA; docs/webhooks.md "The open-deliveries index"): by client (gsi1) and by
 * shard for all clients (gsi2, `FILAS_ABERTAS` partitions chosen by the delivery id's hash). A delivered
 * delivery has no index keys at all: the platform's delivered traffic writes no index partition, and
 * no monitoring list reads past delivered items.
 */

/** SQS receives of one message before the dead-letter queue (the retry schedule's, functions/webhooks/espera.ts). */
export const MAX_TENTATIVAS = MAX_RECEBIMENTOS;

/** Stand-in client of a delivery whose producer named none (the index key cannot be empty). */
export const SEM_CLIENTE = 'sem-cliente';

/** PAUSADA: held, not posted, while its endpoint is paused (docs/webhooks.md); resuming enqueues it again. */
export const SITUACOES = ['PENDENTE', 'FALHA', 'ENTREGUE', 'PAUSADA'] as const;
export type Situacao = (typeof SITUACOES)[number];

/** Open: still the platform's to deliver (the index keys exist only then). */
export const ABERTAS: readonly Situacao[] = ['PENDENTE', 'FALHA', 'PAUSADA'];
export const aberta = (s: Situacao | undefined) => s !== undefined && ABERTAS.includes(s);

/**
 * Shards of the all-clients index: each holds about 1/16 of the open deliveries, so no partition takes
 * the platform's whole write rate (one DynamoDB partition takes ~1,000 writes a second).
 */
export const FILAS_ABERTAS = 16;

/** The shard of a delivery: from its id's hash, stable, so every write of one delivery names the same. */
export function filaDe(deliveryId: string): string {
  const n = createHash('sha256').update(deliveryId).digest().readUInt32BE(0) % FILAS_ABERTAS;
  return String(n).padStart(2, '0');
}

export const FILAS = Array.from({ length: FILAS_ABERTAS }, (_, i) => String(i).padStart(2, '0'));

const entrega = new Entity({
  model: { entity: 'webhookEntrega', version: '1', service: 'webhooks' },
  attributes: {
    deliveryId: { type: 'string', required: true },
    clienteId: { type: 'string', required: true },
    razaoSocial: { type: 'string' },
    operacao: { type: 'string', required: true },
    descricao: { type: 'string', required: true },
    /** The JSON sent, as sent. */
    body: { type: 'string', required: true },
    /** Where it goes and the delivery as queued without its secrets: what a replay enqueues again. */
    url: { type: 'string', required: true },
    /** Per-client ordering: the delivery that must be delivered before this one is posted. */
    dependeDe: { type: 'string' },
    dataCriacao: { type: 'string', required: true },
    tentativas: { type: 'number', required: true, default: 0 },
    ultimaTentativa: { type: 'string' },
    ultimoStatus: { type: 'string' },
    situacao: { type: SITUACOES, required: true },
    /** The shard of the all-clients open index (filaDe). */
    fila: { type: 'string', required: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['deliveryId'] }, sk: { field: 'sk', composite: [] } },
    // Sparse: ElectroDB evaluates `condition` on every write that names all of the index's composites
    // (each situation change below does) and removes the keys when it is false.
    abertasDoCliente: {
      index: 'gsi1',
      condition: (a) => aberta(a.situacao as Situacao | undefined),
      pk: { field: 'gsi1pk', composite: ['clienteId'] },
      sk: { field: 'gsi1sk', composite: ['dataCriacao', 'deliveryId'] },
    },
    abertas: {
      index: 'gsi2',
      condition: (a) => aberta(a.situacao as Situacao | undefined),
      pk: { field: 'gsi2pk', composite: ['fila'] },
      sk: { field: 'gsi2sk', composite: ['dataCriacao', 'deliveryId'] },
    },
  },
});

const tentativa = new Entity({
  model: { entity: 'webhookTentativa', version: '1', service: 'webhooks' },
  attributes: {
    deliveryId: { type: 'string', required: true },
    /** The SQS message and its receive count: one attempt, whatever redelivers the same receive. */
    mensagemId: { type: 'string', required: true },
    recebimento: { type: 'number', required: true },
    instante: { type: 'string', required: true },
    /** The HTTP status answered, absent when no answer came (refused connection, timeout, refused URL). */
    status: { type: 'number' },
    erro: { type: 'string' },
    latenciaMs: { type: 'number', required: true },
  },
  indexes: {
    byDelivery: { pk: { field: 'pk', composite: ['deliveryId'] }, sk: { field: 'sk', composite: ['mensagemId', 'recebimento'] } },
  },
});

const entities = { entrega, tentativa };
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

export type EntregaRecord = EntityItem<typeof entrega>;
export type TentativaRecord = EntityItem<typeof tentativa>;

export interface NovaEntrega {
  deliveryId: string;
  clienteId: string;
  razaoSocial?: string;
  operacao: string;
  descricao: string;
  body: string;
  url: string;
  dependeDe?: string;
  dataCriacao: string;
}

/** What every write that changes a delivery's situation names, so the sparse indexes are kept or removed. */
export interface ChavesDaEntrega {
  deliveryId: string;
  clienteId: string;
  dataCriacao: string;
}

const composites = (c: ChavesDaEntrega) => ({ clienteId: c.clienteId, dataCriacao: c.dataCriacao, fila: filaDe(c.deliveryId) });

/** Creates the delivery's log item unless it exists (a retry or a replay of the same id): idempotent. */
export async function registrarEntrega(nova: NovaEntrega): Promise<void> {
  try {
    await db().entities.entrega.create({ ...nova, fila: filaDe(nova.deliveryId), tentativas: 0, situacao: 'PENDENTE' }).go({ response: 'none' });
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}

export async function lerEntrega(deliveryId: string): Promise<EntregaRecord | null> {
  const { data } = await db().entities.entrega.get({ deliveryId }).go({ consistent: true });
  return data;
}

/** The situation after an attempt: delivered on 2xx; failed for good once the queue gives up. */
export function situacaoApos(ok: boolean, recebimento: number): Situacao {
  if (ok) return 'ENTREGUE';
  return recebimento >= MAX_TENTATIVAS ? 'FALHA' : 'PENDENTE';
}

export interface Tentativa {
  deliveryId: string;
  mensagemId: string;
  recebimento: number;
  instante: string;
  status?: number;
  erro?: string;
  latenciaMs: number;
}

/**
 * Records one attempt and, in the same transaction, counts it on the delivery: the attempt item is
 * created only if absent, so the redelivery of an attempt already recorded changes nothing (false).
 * A delivered delivery is never set back to pending or failed.
 */
export async function registrarTentativa(t: Tentativa, conhecidas?: Omit<ChavesDaEntrega, 'deliveryId'>): Promise<boolean> {
  // The dispatcher knows the keys; another caller (a test, a tool) has them read.
  const chaves = conhecidas ?? (await lerEntrega(t.deliveryId));
  if (!chaves) return false;
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ entrega: e, tentativa: a }) => [
        a.create(t).commit(),
        e
          .patch({ deliveryId: t.deliveryId })
          .add({ tentativas: 1 })
          .set(valoresDaTentativa(t, chaves))
          .where((attr, { ne }) => ne(attr.situacao, 'ENTREGUE'))
          .commit(),
      ])
      .go(),
  );
  return !result.canceled;
}

/**
 * The delivery's side of an attempt: its situation after it, and every composite of both open indexes,
 * so ElectroDB keeps their keys (still open) or removes them (delivered). Exported for the unit test
 * of the keys.
 */
export function valoresDaTentativa(t: Tentativa, chaves: Pick<ChavesDaEntrega, 'clienteId' | 'dataCriacao'>) {
  const ok = t.status !== undefined && t.status >= 200 && t.status < 300;
  return {
    ultimaTentativa: t.instante,
    situacao: situacaoApos(ok, t.recebimento),
    ultimoStatus: t.status !== undefined ? String(t.status) : (t.erro ?? 'erro'),
    ...composites({ deliveryId: t.deliveryId, clienteId: chaves.clienteId, dataCriacao: chaves.dataCriacao }),
  };
}

/** The entity, for the unit tests of the index keys (params only, nothing is written). */
export const entidadeEntrega = () => db().entities.entrega;

export async function tentativasDe(deliveryId: string): Promise<TentativaRecord[]> {
  const { data } = await db().entities.tentativa.query.byDelivery({ deliveryId }).go({ pages: 'all' });
  return data.sort((a, b) => a.instante.localeCompare(b.instante) || a.recebimento - b.recebimento);
}

type Leitura = { data: EntregaRecord[]; cursor: string | null };

/** One key-range Query of the client's open deliveries created in [desde, ate]. */
function lerDoCliente(clienteId: string, desde: string, ate: string, order: 'asc' | 'desc'): Ler<EntregaRecord> {
  return async (cursor, limite) => {
    const { data, cursor: next } = await db()
      .entities.entrega.query.abertasDoCliente({ clienteId })
      .between({ dataCriacao: desde }, { dataCriacao: `${ate}\uffff` })
      .go({ order, limit: limite, cursor: cursor ?? null });
    return { data, cursor: next } satisfies Leitura;
  };
}

/** One key-range Query of one shard of the all-clients open index. */
function lerDaFila(fila: string, desde: string, ate: string, order: 'asc' | 'desc'): Ler<EntregaRecord> {
  return async (cursor, limite) => {
    const { data, cursor: next } = await db()
      .entities.entrega.query.abertas({ fila })
      .between({ dataCriacao: desde }, { dataCriacao: `${ate}\uffff` })
      .go({ order, limit: limite, cursor: cursor ?? null });
    return { data, cursor: next } satisfies Leitura;
  };
}

type Chave = [string, string];
const chaveDe = (e: EntregaRecord): Chave => [e.dataCriacao, e.deliveryId];
const ehChave = (k: unknown): k is Chave => Array.isArray(k) && k.length === 2 && k.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 200);

/**
 * One page of the OPEN deliveries created in [desde, ate] (ISO instants), newest first, in the given
 * situations: of one client, a Query of its partition of the open index (gsi1); of all clients, the
 * 16 shards of gsi2 merged by creation instant (platform/paginas.ts paginaIntercalada). Delivered ones
 * are not in either index, so a page is full unless the period has fewer open ones; the situation
 * filter only separates open situations (bounded loop).
 */
export async function paginaDeEntregas(
  filtro: { clienteId?: string | undefined; desde: string; ate: string; situacoes: readonly Situacao[] },
  pagina: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<EntregaRecord>> {
  const conv = createConversions(db().entities.entrega);
  const todasAbertas = ABERTAS.every((s) => filtro.situacoes.includes(s));
  const aceita = todasAbertas ? undefined : (e: EntregaRecord) => filtro.situacoes.includes(e.situacao);
  if (filtro.clienteId) {
    const clienteId = filtro.clienteId;
    return paginaEmSequencia<EntregaRecord>(
      [lerDoCliente(clienteId, filtro.desde, filtro.ate, 'desc')],
      (_, item) => conv.byAccessPattern.abertasDoCliente.fromComposite.toCursor(item)!,
      { ...pagina, aceita },
    );
  }
  return paginaIntercalada<EntregaRecord, Chave>(
    FILAS.map((f) => lerDaFila(f, filtro.desde, filtro.ate, 'desc')),
    {
      ...pagina,
      aceita,
      chave: chaveDe,
      // Newest first: the greater key comes first.
      comparar: (a, b) => b[0].localeCompare(a[0]) || b[1].localeCompare(a[1]),
      apos: (i, [dataCriacao, deliveryId]) => conv.byAccessPattern.abertas.fromComposite.toCursor({ fila: FILAS[i]!, dataCriacao, deliveryId })!,
      validarChave: ehChave,
    },
  );
}

/**
 * Oldest first, from a job's position: one batch of the open deliveries of a client (one source) or of
 * every shard in turn (16 sources), in the situation asked. The position is paginaEmSequencia's.
 */
export function loteDeAbertas(
  filtro: { clienteId?: string | undefined; desde: string; ate: string; situacao: Situacao; operacao?: string | undefined },
  lote: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<EntregaRecord>> {
  const conv = createConversions(db().entities.entrega);
  const fontes = filtro.clienteId
    ? [lerDoCliente(filtro.clienteId, filtro.desde, filtro.ate, 'asc')]
    : FILAS.map((f) => lerDaFila(f, filtro.desde, filtro.ate, 'asc'));
  return paginaEmSequencia<EntregaRecord>(
    fontes,
    (fonte, item) =>
      filtro.clienteId
        ? conv.byAccessPattern.abertasDoCliente.fromComposite.toCursor(item)!
        : conv.byAccessPattern.abertas.fromComposite.toCursor({ ...item, fila: FILAS[fonte]! })!,
    { ...lote, aceita: (e) => e.situacao === filtro.situacao && (!filtro.operacao || e.operacao === filtro.operacao) },
  );
}

/** Changes a delivery's situation on condition that it is `de`: false when it is not (another writer won). */
async function mudarSituacao(e: ChavesDaEntrega, de: Situacao, para: Situacao): Promise<boolean> {
  try {
    await db()
      .entities.entrega.patch({ deliveryId: e.deliveryId })
      .set({ situacao: para, ...composites(e) })
      .where((attr, { eq }) => eq(attr.situacao, de))
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** A pending delivery held because its endpoint is paused. */
export const marcarPausada = (e: ChavesDaEntrega) => mudarSituacao(e, 'PENDENTE', 'PAUSADA');

/** A held delivery back to pending when its endpoint resumes: true once, so it is enqueued once. */
export const marcarRetomada = (e: ChavesDaEntrega) => mudarSituacao(e, 'PAUSADA', 'PENDENTE');

/**
 * A replay: a failed delivery back to pending, on condition that it is still failed. False otherwise
 * (delivered, or already pending again after another replay): so a replay is enqueued once.
 */
export const marcarReenvio = (e: ChavesDaEntrega) => mudarSituacao(e, 'FALHA', 'PENDENTE');
