import { Entity, Service, type EntityItem } from 'electrodb';
import { isConditionalFailure, tableConfig } from '../platform/table';

/**
 * Monitored keys (docs/data-model.md, "Monitored keys"): one item per (client, access key). Two reads,
 * both key look-ups: a client's keys (its partition, in key order: the portal's list) and the clients
 * monitoring a key (gsi1, the EVENTO producer). Never a Scan.
 */
const chaveMonitorada = new Entity({
  model: { entity: 'chaveMonitorada', version: '1', service: 'monitoramento' },
  attributes: {
    clienteId: { type: 'string', required: true },
    /** The 44-character access key, upper-case, without spaces. */
    chave: { type: 'string', required: true },
    /** The key's UF (its cUF), the metering's origin UF. */
    uf: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    createdBy: { type: 'string', required: true },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['chave'] } },
    byChave: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['chave'] }, sk: { field: 'gsi1sk', composite: ['clienteId'] } },
  },
});

const entities = { chaveMonitorada };
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

export type ChaveMonitoradaRecord = EntityItem<typeof chaveMonitorada>;

export async function chaveDoCliente(clienteId: string, chave: string): Promise<ChaveMonitoradaRecord | null> {
  const { data } = await db().entities.chaveMonitorada.get({ clienteId, chave }).go({ consistent: true });
  return data;
}

/** A client's keys in key order (one Query of its partition). */
export async function chavesDoCliente(clienteId: string): Promise<ChaveMonitoradaRecord[]> {
  const { data } = await db().entities.chaveMonitorada.query.byCliente({ clienteId }).go({ pages: 'all' });
  return data;
}

/** The clients monitoring a key (one Query of its gsi1 partition). */
export async function clientesDaChave(chave: string): Promise<string[]> {
  const { data } = await db().entities.chaveMonitorada.query.byChave({ chave }).go({ pages: 'all' });
  return data.map((c) => c.clienteId);
}

/** Creates the item; false when the client already monitors the key (nothing changed). */
export async function criar(record: ChaveMonitoradaRecord): Promise<boolean> {
  try {
    await db().entities.chaveMonitorada.create(record).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** Removes the item; false when the client did not monitor the key. */
export async function remover(clienteId: string, chave: string): Promise<boolean> {
  try {
    await db().entities.chaveMonitorada.remove({ clienteId, chave }).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}
