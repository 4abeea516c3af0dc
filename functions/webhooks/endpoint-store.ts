import { Entity, type EntityItem } from 'electrodb';
import { isConditionalFailure } from '../platform/table';
import { CacheComValidade, Intervalo } from './cache';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The health of a client's webhook endpoint, one per client and operation (docs/webhooks.md
 * "Pausing a failing endpoint"): when it last accepted a delivery, and whether it is paused.
 *
 * A pause is its own item in one partition (`pausas`), present only while the endpoint is paused: so
 * "which endpoints are paused" is a Query, and pausing and resuming are conditional creates and
 * deletes that happen once however many deliveries race to do them. The dispatcher reads the list
 * through a copy of a few seconds per container (`pausaEmVigor`), never per delivery.
 */

/** Kept: the endpoint's state, one item per client and operation (at most five a client), rewritten in place: not a log. */
const endpoint = entidadeSobDemanda(() => new Entity({
  model: { entity: 'webhookEndpoint', version: '1', service: 'webhooks' },
  attributes: {
    clienteId: { type: 'string', required: true },
    operacao: { type: 'string', required: true },
    ultimoSucesso: { type: 'string', required: true },
  },
  indexes: { byEndpoint: { pk: { field: 'pk', composite: ['clienteId', 'operacao'] }, sk: { field: 'sk', composite: [] } } },
}));

/** Kept: present only while the endpoint is paused; the resume job deletes it. */
const pausa = entidadeSobDemanda(() => new Entity({
  model: { entity: 'webhookPausa', version: '1', service: 'webhooks' },
  attributes: {
    lista: { type: 'string', required: true, default: 'pausas' },
    clienteId: { type: 'string', required: true },
    operacao: { type: 'string', required: true },
    razaoSocial: { type: 'string' },
    pausadoEm: { type: 'string', required: true },
    /** The delivery whose last retry failed with no success of the endpoint since it was created. */
    motivoEntrega: { type: 'string', required: true },
    url: { type: 'string', required: true },
    /**
     * Set once when a resume job starts (the job's lock: a second resume finds it and starts nothing).
     * From then on the dispatcher posts this endpoint's deliveries again; the pause itself is deleted
     * by the job only after every held delivery was queued, so a crashed job is resumed, not lost.
     */
    retomadaEm: { type: 'string' },
  },
  indexes: { byLista: { pk: { field: 'pk', composite: ['lista'] }, sk: { field: 'sk', composite: ['clienteId', 'operacao'] } } },
}));

const entities = { endpoint, pausa };
const db = servicoSobDemanda(entities);

export type PausaRecord = EntityItem<typeof pausa>;

/** One endpoint as a memory key (an operation has no '#'). */
const chaveDoEndpoint = (clienteId: string, operacao: string) => `${operacao}#${clienteId}`;

/**
 * How stale the last-success mark may be: it is written at most once per this interval per endpoint
 * and container, not on every delivery (a busy endpoint's one item would otherwise take every
 * delivery's write). The pause rule allows for it (pausa.ts `falhaContinua`).
 */
export const SUCESSO_INTERVALO_MS = 60_000;

/** The endpoints this container marked in the last interval (cache.ts `Intervalo`). */
const sucessosMarcados = new Intervalo(SUCESSO_INTERVALO_MS);

/**
 * The endpoint accepted a delivery, now. Written only when this container has not marked the same
 * endpoint in the last SUCESSO_INTERVALO_MS (kept in the container's memory, no read): so the
 * endpoint's item takes at most (containers sending to it) ÷ 60 s writes a second, e.g. ≤ 17 WCU/s
 * with the account's 1,000 concurrent executions all on one endpoint, however many deliveries succeed.
 *
 * The instant is the write's own (the success was seen at or before it), and the write only moves the
 * mark forward (`notExists OR ultimoSucesso < instante`): every container writes its current clock,
 * so the condition fails only when two containers' writes cross within their clocks' skew
 * (milliseconds), practically never; a failed one is not retried (a later mark is there). So the mark
 * is never more than one interval behind the endpoint's last success, which is all `falhaContinua`
 * needs. True when this call wrote it.
 */
export async function registrarSucesso(clienteId: string, operacao: string, agora: Date = new Date()): Promise<boolean> {
  const chave = chaveDoEndpoint(clienteId, operacao);
  if (!sucessosMarcados.passar(chave, agora.getTime())) return false;
  const instante = agora.toISOString();
  try {
    await db()
      .entities.endpoint.upsert({ clienteId, operacao, ultimoSucesso: instante })
      .where((attr, { notExists, lt }) => `${notExists(attr.ultimoSucesso)} OR ${lt(attr.ultimoSucesso, instante)}`)
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    // Not written: the next success in this container tries again.
    sucessosMarcados.esquecer(chave);
    throw error;
  }
}

export async function ultimoSucesso(clienteId: string, operacao: string): Promise<string | null> {
  const { data } = await db().entities.endpoint.get({ clienteId, operacao }).go({ consistent: true });
  return data?.ultimoSucesso ?? null;
}

/** Pauses the endpoint unless it is paused already: true only for the call that paused it. */
export async function pausar(p: Omit<PausaRecord, 'lista'>): Promise<boolean> {
  try {
    await db().entities.pausa.create(p).go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  } finally {
    pausasEmCache.invalidar();
  }
}

export async function pausaDe(clienteId: string, operacao: string): Promise<PausaRecord | null> {
  const { data } = await db().entities.pausa.get({ lista: 'pausas', clienteId, operacao }).go({ consistent: true });
  return data;
}

/** The paused endpoints, of one client or of all. */
export async function pausas(clienteId?: string, consistent = false): Promise<PausaRecord[]> {
  const query = db().entities.pausa.query.byLista(clienteId ? { lista: 'pausas', clienteId } : { lista: 'pausas' });
  // Bounded: the partition holds only the endpoints paused now (a pause is deleted when resumed): a few items.
  const { data } = await query.go({ pages: 'all', consistent });
  return data;
}

/**
 * How long a container trusts its copy of the pause list: a pause, or the mark of its resume, takes
 * effect in the dispatcher within this delay (docs/webhooks.md "Pausing a failing endpoint"). The
 * resume job waits as long before its last read (jobs.ts), so a delivery held on a copy from before
 * the resume is still found.
 */
export const PAUSAS_VALIDADE_MS = 5_000;

/**
 * The pauses as the dispatcher sees them. The list is one partition for the whole platform
 * (`$webhooks#lista_pausas`): read per delivery it took every delivery's read (1 RCU, consistent).
 * Kept here it is read (one consistent Query of the whole list, ⌈list size ÷ 4 KB⌉ RCU) at most once
 * per PAUSAS_VALIDADE_MS per container: containers ÷ 5 s Queries a second, e.g. 200/s (200 RCU/s
 * while the list is under 4 KB, about ten paused endpoints) with the account's 1,000 concurrent
 * executions, whatever the delivery rate. A container that pauses or resumes forgets its copy at once.
 */
const pausasEmCache = new CacheComValidade<Map<string, PausaRecord>>(PAUSAS_VALIDADE_MS);

/** The endpoint's pause as the dispatcher sees it (at most PAUSAS_VALIDADE_MS old), or null. */
export async function pausaEmVigor(clienteId: string, operacao: string): Promise<PausaRecord | null> {
  const lista = await pausasEmCache.obter('pausas', async () => new Map((await pausas(undefined, true)).map((p) => [chaveDoEndpoint(p.clienteId, p.operacao), p])));
  return lista.get(chaveDoEndpoint(clienteId, operacao)) ?? null;
}

/**
 * Marks the pause as being resumed, on condition that it exists and is not being resumed already:
 * the pause with the mark when this call set it, null when another resume holds it or it is gone.
 */
export async function marcarRetomada(clienteId: string, operacao: string, instante: string): Promise<PausaRecord | null> {
  try {
    const { data } = await db()
      .entities.pausa.patch({ lista: 'pausas', clienteId, operacao })
      .set({ retomadaEm: instante })
      .where((attr, { exists, notExists }) => `${exists(attr.pausadoEm)} AND ${notExists(attr.retomadaEm)}`)
      .go({ response: 'all_new' });
    return (data as PausaRecord | undefined) ?? null;
  } catch (error) {
    if (isConditionalFailure(error)) return null;
    throw error;
  } finally {
    pausasEmCache.invalidar();
  }
}

/** While a resume job runs the endpoint is no longer held: its deliveries are posted. */
export const retendo = (p: PausaRecord | null) => p !== null && !p.retomadaEm;

/** Ends the pause: the record it ended, or null when it was not paused (another resume won). */
export async function retomar(clienteId: string, operacao: string): Promise<PausaRecord | null> {
  try {
    const { data } = await db()
      .entities.pausa.delete({ lista: 'pausas', clienteId, operacao })
      .where((attr, { exists }) => exists(attr.pausadoEm))
      .go({ response: 'all_old' });
    return data ?? null;
  } catch (error) {
    if (isConditionalFailure(error)) return null;
    throw error;
  } finally {
    pausasEmCache.invalidar();
  }
}
