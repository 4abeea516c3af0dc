import { Entity, Service, type EntityItem } from 'electrodb';
import { isConditionalFailure, tableConfig } from '../platform/table';

/**
 * The health of a client's webhook endpoint, one per client and operation (docs/webhooks.md
 * "Pausing a failing endpoint"): when it last accepted a delivery, and whether it is paused.
 *
 * A pause is its own item in one partition (`pausas`), present only while the endpoint is paused: so
 * "which endpoints are paused" is a Query, and pausing and resuming are conditional creates and
 * deletes that happen once however many deliveries race to do them.
 */

const endpoint = new Entity({
  model: { entity: 'webhookEndpoint', version: '1', service: 'webhooks' },
  attributes: {
    clienteId: { type: 'string', required: true },
    operacao: { type: 'string', required: true },
    ultimoSucesso: { type: 'string', required: true },
  },
  indexes: { byEndpoint: { pk: { field: 'pk', composite: ['clienteId', 'operacao'] }, sk: { field: 'sk', composite: [] } } },
});

const pausa = new Entity({
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
});

const entities = { endpoint, pausa };
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

export type PausaRecord = EntityItem<typeof pausa>;

/**
 * How stale the last-success mark may be: it is written at most once per this interval per endpoint,
 * not on every delivery (a busy endpoint's item would otherwise take every delivery's write). The pause
 * rule allows for it (pausa.ts `falhaContinua`).
 */
export const SUCESSO_INTERVALO_MS = 60_000;

/**
 * The endpoint accepted a delivery now: written only when the mark is absent or older than a minute
 * before this instant (a conditional write, so many deliveries racing write it once), and only
 * forward (a late writer never sets it back). True when this call wrote it.
 */
export async function registrarSucesso(clienteId: string, operacao: string, instante: string): Promise<boolean> {
  const limite = new Date(Date.parse(instante) - SUCESSO_INTERVALO_MS).toISOString();
  try {
    await db()
      .entities.endpoint.upsert({ clienteId, operacao, ultimoSucesso: instante })
      .where((attr, { notExists, lte }) => `${notExists(attr.ultimoSucesso)} OR ${lte(attr.ultimoSucesso, limite)}`)
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    return false;
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
  }
}

export async function pausaDe(clienteId: string, operacao: string): Promise<PausaRecord | null> {
  const { data } = await db().entities.pausa.get({ lista: 'pausas', clienteId, operacao }).go({ consistent: true });
  return data;
}

/** The paused endpoints, of one client or of all. */
export async function pausas(clienteId?: string): Promise<PausaRecord[]> {
  const query = db().entities.pausa.query.byLista(clienteId ? { lista: 'pausas', clienteId } : { lista: 'pausas' });
  const { data } = await query.go({ pages: 'all' });
  return data;
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
  }
}
