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
  },
  indexes: { byLista: { pk: { field: 'pk', composite: ['lista'] }, sk: { field: 'sk', composite: ['clienteId', 'operacao'] } } },
});

const entities = { endpoint, pausa };
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

export type PausaRecord = EntityItem<typeof pausa>;

/** The endpoint accepted a delivery now: only moves forward (a late writer never sets it back). */
export async function registrarSucesso(clienteId: string, operacao: string, instante: string): Promise<void> {
  try {
    await db()
      .entities.endpoint.upsert({ clienteId, operacao, ultimoSucesso: instante })
      .where((attr, { notExists, lt }) => `${notExists(attr.ultimoSucesso)} OR ${lt(attr.ultimoSucesso, instante)}`)
      .go({ response: 'none' });
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
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
