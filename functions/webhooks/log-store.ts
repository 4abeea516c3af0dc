import { Entity, Service, type EntityItem } from 'electrodb';
import { createConversions } from 'electrodb';
import { paginaEmSequencia, type Pagina } from '../platform/paginas';
import { isConditionalFailure, tableConfig, transactWithRetry } from '../platform/table';
import { MAX_RECEBIMENTOS } from './espera';

/**
 * The webhook delivery log (docs/webhooks.md "Delivery log, monitoring and replay"): one `entrega`
 * item per delivery id and one `tentativa` item per attempt. Every write is conditional, so a retried
 * SQS message never counts an attempt twice and a delivery is created once.
 *
 * Reads are key lookups: by id (the table's key), by client and creation instant (gsi1) and by all
 * clients and creation instant (gsi2, one partition `entregas`: monitoring reads a bounded period).
 */

/** SQS receives of one message before the dead-letter queue (the retry schedule's, functions/webhooks/espera.ts). */
export const MAX_TENTATIVAS = MAX_RECEBIMENTOS;

/** Stand-in client of a delivery whose producer named none (the index key cannot be empty). */
export const SEM_CLIENTE = 'sem-cliente';

/** PAUSADA: held, not posted, while its endpoint is paused (docs/webhooks.md); resuming enqueues it again. */
export const SITUACOES = ['PENDENTE', 'FALHA', 'ENTREGUE', 'PAUSADA'] as const;
export type Situacao = (typeof SITUACOES)[number];

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
    lista: { type: 'string', required: true, default: 'entregas' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['deliveryId'] }, sk: { field: 'sk', composite: [] } },
    porCliente: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['clienteId'] }, sk: { field: 'gsi1sk', composite: ['dataCriacao', 'deliveryId'] } },
    todas: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['lista'] }, sk: { field: 'gsi2sk', composite: ['dataCriacao', 'deliveryId'] } },
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

/** Creates the delivery's log item unless it exists (a retry or a replay of the same id): idempotent. */
export async function registrarEntrega(nova: NovaEntrega): Promise<void> {
  try {
    await db().entities.entrega.create({ ...nova, tentativas: 0, situacao: 'PENDENTE' }).go({ response: 'none' });
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
export async function registrarTentativa(t: Tentativa): Promise<boolean> {
  const ok = t.status !== undefined && t.status >= 200 && t.status < 300;
  const situacao = situacaoApos(ok, t.recebimento);
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ entrega: e, tentativa: a }) => [
        a.create(t).commit(),
        e
          .patch({ deliveryId: t.deliveryId })
          .add({ tentativas: 1 })
          .set({ ultimaTentativa: t.instante, situacao, ultimoStatus: t.status !== undefined ? String(t.status) : (t.erro ?? 'erro') })
          .where((attr, { ne }) => ne(attr.situacao, 'ENTREGUE'))
          .commit(),
      ])
      .go(),
  );
  return !result.canceled;
}

export async function tentativasDe(deliveryId: string): Promise<TentativaRecord[]> {
  const { data } = await db().entities.tentativa.query.byDelivery({ deliveryId }).go({ pages: 'all' });
  return data.sort((a, b) => a.instante.localeCompare(b.instante) || a.recebimento - b.recebimento);
}

/**
 * Deliveries created in [desde, ate] (ISO instants), newest first, of one client or of all: a Query
 * on gsi1 or gsi2 with the instant range on the sort key, filtered by situation. Bounded by `limite`.
 */
export async function entregasNoPeriodo(
  filtro: { clienteId?: string; desde: string; ate: string; situacoes: readonly Situacao[] },
  limite: number,
): Promise<EntregaRecord[]> {
  const where = (attr: { situacao: Situacao }, { eq }: { eq: (a: Situacao, v: Situacao) => string }) =>
    filtro.situacoes.map((s) => eq(attr.situacao, s)).join(' OR ');
  const range = { gte: { dataCriacao: filtro.desde }, lte: { dataCriacao: `${filtro.ate}\uffff` } };
  const query = filtro.clienteId
    ? db().entities.entrega.query.porCliente({ clienteId: filtro.clienteId }).between(range.gte, range.lte)
    : db().entities.entrega.query.todas({ lista: 'entregas' }).between(range.gte, range.lte);
  const { data } = await query.where(where as never).go({ order: 'desc', pages: 'all' });
  return data.slice(0, limite);
}

/**
 * One page of the deliveries created in [desde, ate] (ISO instants), newest first, of one client (gsi1)
 * or of all (gsi2), in the given situations: key-range Queries on the instant from the page cursor's
 * position, the situation checked on each item read (no key holds it: the log keeps its layout until
 * it is redesigned), in a bounded read loop (platform/paginas.ts): a page may come short, with the
 * cursor of where the reading stopped, when the period holds mostly delivered ones.
 */
export async function paginaDeEntregas(
  filtro: { clienteId?: string | undefined; desde: string; ate: string; situacoes: readonly Situacao[] },
  pagina: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<EntregaRecord>> {
  const entity = db().entities.entrega;
  const indice = filtro.clienteId ? 'porCliente' : 'todas';
  return paginaEmSequencia<EntregaRecord>(
    [
      async (desde, limite) => {
        const range = [{ dataCriacao: filtro.desde }, { dataCriacao: `${filtro.ate}\uffff` }] as const;
        const query = filtro.clienteId ? entity.query.porCliente({ clienteId: filtro.clienteId }) : entity.query.todas({ lista: 'entregas' });
        const { data, cursor } = await query.between(...range).go({ order: 'desc', limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, item) => createConversions(entity).byAccessPattern[indice].fromComposite.toCursor(item)!,
    { ...pagina, aceita: (e) => filtro.situacoes.includes(e.situacao) },
  );
}

/** Changes a delivery's situation on condition that it is `de`: false when it is not (another writer won). */
async function mudarSituacao(deliveryId: string, de: Situacao, para: Situacao): Promise<boolean> {
  try {
    await db()
      .entities.entrega.patch({ deliveryId })
      .set({ situacao: para })
      .where((attr, { eq }) => eq(attr.situacao, de))
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** A pending delivery held because its endpoint is paused. */
export const marcarPausada = (deliveryId: string) => mudarSituacao(deliveryId, 'PENDENTE', 'PAUSADA');

/** A held delivery back to pending when its endpoint resumes: true once, so it is enqueued once. */
export const marcarRetomada = (deliveryId: string) => mudarSituacao(deliveryId, 'PAUSADA', 'PENDENTE');

/**
 * A replay: a failed delivery back to pending, on condition that it is still failed. False otherwise
 * (delivered, or already pending again after another replay): so a replay is enqueued once.
 */
export const marcarReenvio = (deliveryId: string) => mudarSituacao(deliveryId, 'FALHA', 'PENDENTE');
