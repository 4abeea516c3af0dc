import { createHash } from 'node:crypto';
import { createConversions, Entity, type EntityItem } from 'electrodb';
import { paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { isConditionalFailure, transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Monitored keys (docs/data-model.md, "Monitored keys"): one item per (client, access key), in one of
 * SHARDS partitions of the client chosen by the key's hash (`$monitoramento#clienteid_<id>#shard_<n>`,
 * issue 36: a bookkeeper registering 2,000 keys a second puts 2,000 / 32 × 4 units on each, 25 % of a
 * partition), with a count of the shard's keys in the same partition, moved in the same transaction.
 * Reads are key look-ups: a key of a client (its shard, by hash), a client's keys in key order (the
 * shards' Queries merged, one page at a time), its total (the SHARDS counts, one BatchGetItem) and the
 * clients monitoring a key (gsi1, the EVENTO producer). Never a Scan, never a whole partition.
 */
export const SHARDS = 32;
export const shardDaChave = (chave: string) => createHash('sha256').update(chave).digest().readUInt32BE(0) % SHARDS;

/** Kept: a monitored key lives until its client removes it (a real delete, with its count). */
const chaveMonitorada = entidadeSobDemanda(() => new Entity({
  model: { entity: 'chaveMonitorada', version: '1', service: 'monitoramento' },
  attributes: {
    clienteId: { type: 'string', required: true },
    /** The 44-character access key, upper-case, without spaces. */
    chave: { type: 'string', required: true },
    /** shardDaChave(chave): the client's partition holding it. */
    shard: { type: 'number', required: true },
    /** The key's UF (its cUF), the metering's origin UF. */
    uf: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    createdBy: { type: 'string', required: true },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId', 'shard'] }, sk: { field: 'sk', composite: ['chave'] } },
    byChave: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['chave'] }, sk: { field: 'gsi1sk', composite: ['clienteId'] } },
  },
}));

/** How many keys a client has in one shard: added to and taken from in the key's own transaction. Kept: SHARDS items per client. */
const contagem = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contagemMonitoradas', version: '1', service: 'monitoramento' },
  attributes: {
    clienteId: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    quantidade: { type: 'number', required: true, default: 0 },
  },
  indexes: { byShard: { pk: { field: 'pk', composite: ['clienteId', 'shard'] }, sk: { field: 'sk', composite: [] } } },
}));

/**
 * A key as stored before issue 36 (pk `$monitoramento#clienteid_<id>`, no count): only for
 * infra/migrations/chaves-particionadas.ts, which moves it. Until then its gsi1 entry still delivers
 * its events (the producer reads gsi1 only). Kept: read-only view of items of before issue 36, which
 * the migration moves.
 */
export const chaveMonitoradaAntiga = entidadeSobDemanda(() => new Entity({
  model: { entity: 'chaveMonitorada', version: '1', service: 'monitoramento' },
  attributes: {
    clienteId: { type: 'string', required: true },
    chave: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    createdBy: { type: 'string', required: true },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['chave'] } },
    byChave: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['chave'] }, sk: { field: 'gsi1sk', composite: ['clienteId'] } },
  },
}));

const entities = { chaveMonitorada, contagem, chaveMonitoradaAntiga };
export const db = servicoSobDemanda(entities);

export type ChaveMonitoradaRecord = EntityItem<typeof chaveMonitorada>;
export type NovaChave = Omit<ChaveMonitoradaRecord, 'shard'>;

export async function chaveDoCliente(clienteId: string, chave: string): Promise<ChaveMonitoradaRecord | null> {
  const { data } = await db().entities.chaveMonitorada.get({ clienteId, chave, shard: shardDaChave(chave) }).go({ consistent: true });
  return data;
}

const TODOS = Array.from({ length: SHARDS }, (_, shard) => shard);

/** How many keys the client monitors: its SHARDS counts (one BatchGetItem). */
export async function totalDoCliente(clienteId: string): Promise<number> {
  const { data, unprocessed } = await db().entities.contagem.get(TODOS.map((shard) => ({ clienteId, shard }))).go();
  if (unprocessed.length > 0) throw new Error(`${unprocessed.length} counts were not read`);
  return data.reduce((s, c) => s + (c.quantidade ?? 0), 0);
}

/**
 * One page of a client's keys in key order: the SHARDS partitions' Queries merged by key
 * (platform/paginas.ts `paginaIntercalada`), each resuming after the page's last key.
 */
export async function paginaDoCliente(clienteId: string, o: { perPage: number; posicao?: string | undefined }): Promise<Pagina<ChaveMonitoradaRecord>> {
  const entity = db().entities.chaveMonitorada;
  // Each shard holds about 1/SHARDS of the keys in order: a batch of its share of the page, read again when used up.
  const porFonte = Math.ceil(o.perPage / 4) + 1;
  const fontes = TODOS.map(
    (shard): Ler<ChaveMonitoradaRecord> =>
      async (desde) => {
        const { data, cursor } = await entity.query.byCliente({ clienteId, shard }).go({ cursor: desde ?? null, limit: porFonte });
        return { data, cursor };
      },
  );
  return paginaIntercalada<ChaveMonitoradaRecord, string>(fontes, {
    perPage: o.perPage,
    posicao: o.posicao,
    chave: (c) => c.chave,
    comparar: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    apos: (shard, chave) => createConversions(entity).byAccessPattern.byCliente.fromComposite.toCursor({ clienteId, shard, chave })!,
    validarChave: (k): k is string => typeof k === 'string' && /^[0-9A-Z]{44}$/.test(k),
  });
}

/** The clients monitoring a key (one Query of its gsi1 partition). */
export async function clientesDaChave(chave: string): Promise<string[]> {
  // Bounded: the clients monitoring one access key.
  const { data } = await db().entities.chaveMonitorada.query.byChave({ chave }).go({ pages: 'all' });
  return data.map((c) => c.clienteId);
}

/** Creates the item and adds it to its shard's count, in one transaction; false when the client already monitors the key. */
export async function criar(record: NovaChave): Promise<boolean> {
  const shard = shardDaChave(record.chave);
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ chaveMonitorada: k, contagem: n }) => [
        k.create({ ...record, shard }).commit(),
        n.upsert({ clienteId: record.clienteId, shard }).add({ quantidade: 1 }).commit(),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data[0]?.code === 'ConditionalCheckFailed') return false;
  throw new Error(`monitored key ${record.chave} cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/** Removes the item and takes it from its shard's count, in one transaction; false when the client did not monitor the key. */
export async function remover(clienteId: string, chave: string): Promise<boolean> {
  const shard = shardDaChave(chave);
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ chaveMonitorada: k, contagem: n }) => [
        k.delete({ clienteId, shard, chave }).where((a, op) => op.exists(a.chave)).commit(),
        n.upsert({ clienteId, shard }).add({ quantidade: -1 }).commit(),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data[0]?.code === 'ConditionalCheckFailed') return false;
  throw new Error(`monitored key ${chave} removal cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/**
 * A key stored before issue 36 moved to its shard (infra/migrations/chaves-particionadas.ts): the new
 * item created and counted and the old one deleted, in one transaction; when the client registered
 * it again since (the new item exists), the old one is only deleted. Safe to run again.
 */
export async function moverChaveAntiga(antiga: EntityItem<typeof chaveMonitoradaAntiga>): Promise<void> {
  const shard = shardDaChave(antiga.chave);
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ chaveMonitorada: k, contagem: n, chaveMonitoradaAntiga: a }) => [
        k.create({ ...antiga, shard }).commit(),
        n.upsert({ clienteId: antiga.clienteId, shard }).add({ quantidade: 1 }).commit(),
        a.delete({ clienteId: antiga.clienteId, chave: antiga.chave }).where((x, op) => op.exists(x.chave)).commit(),
      ])
      .go(),
  );
  if (!result.canceled) return;
  if (result.data[0]?.code === 'ConditionalCheckFailed') {
    await escritaCondicionalIgnorada(() => db().entities.chaveMonitoradaAntiga.delete({ clienteId: antiga.clienteId, chave: antiga.chave }).go());
    return;
  }
  if (result.data[2]?.code === 'ConditionalCheckFailed') return;
  throw new Error(`moving monitored key ${antiga.chave} cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

async function escritaCondicionalIgnorada(write: () => Promise<unknown>) {
  try {
    await write();
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}

/** Keys of before issue 36, as stored then: for the migration's test, which writes some. */
export const formaAntiga = { chave: () => db().entities.chaveMonitoradaAntiga };
