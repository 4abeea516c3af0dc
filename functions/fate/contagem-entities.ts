import { createHash } from 'node:crypto';
import { Entity } from 'electrodb';
import { entidadeSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * What the range look-ups read instead of the Fat-e themselves (docs/data-model.md, "Fat-e: counters
 * and links"). All of them are written in one transaction per Fat-e, the *counting* transaction of
 * `contabilizar` (fate-store.ts), conditional on the Fat-e's `contagem` mark: so each Fat-e is counted and
 * linked exactly once however often it is re-delivered, and taken out once when it is cancelled.
 *
 * `periodo` is `D<YYYY-MM-DD>` (a Bahia day) or `M<YYYY-MM>` (a Bahia month): one partition holds both
 * granularities, so a period of days reads the whole months in it and the days at its two ends.
 *
 * Issue 36: a partition key serves about 1,000 write units a second, and every item under one key
 * shares it (a shard in the sort key spreads nothing). So each counter written per stored Fat-e whose
 * key would be one issuer's or the whole platform's has a `shard` in its PARTITION key: a fixed number
 * of keys, the Fat-e's by the hash of its access key (`shardDe`), and a read adds up every shard's
 * items in that fixed number of parallel Queries. docs/data-model.md ("Fat-e: partitions at the
 * national rate") gives the units per stored Fat-e and each key's share of its limit.
 */

/**
 * The shard (0 … shards − 1) of a text, from its SHA-256: stable, so every write about one Fat-e (its
 * count and, when cancelled, its removal) names the same shard, and uniform over the shards.
 */
export function shardDe(texto: string, shards: number): number {
  return createHash('sha256').update(texto).digest().readUInt32BE(0) % shards;
}

/** The numbers 0 … n − 1: the shards a read goes through. */
export const shardsAte = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/**
 * An issuer's counters in 8 partitions: 4 write units per stored Fat-e of that issuer (its day and month
 * items, 1 KB each, doubled in the counting transaction) are 0.5 per partition, so even an issuer
 * delivering the whole São Paulo stream (240 Fat-e/s at the launch rate) puts 120 units/s (12 %) on
 * each, and its 8 concurrent documents rarely touch the same item (TransactionConflict).
 */
export const EMITENTE_SHARDS = 8;

/**
 * Active Fat-e (quantity, value in centavos) of one issuer and model per day and per month, in
 * EMITENTE_SHARDS partitions (the Fat-e's `shardDe(chave)`): services 4 and 5 add the shards up.
 */
export const contagemEmitente = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contagemEmitente', version: '1', service: 'fate' },
  attributes: {
    emitenteCnpj: { type: 'string', required: true },
    modelo: { type: 'string', required: true },
    /** 0 … EMITENTE_SHARDS − 1; absent on items of before issue 36 (contagemEmitenteLegado). */
    shard: { type: 'number', required: true },
    periodo: { type: 'string', required: true },
    quantidade: { type: 'number' },
    valor: { type: 'number' },
    /** The issuer's name and the delivering UF as of the latest Fat-e counted (the answer's name, the charge's UF). */
    emitenteNome: { type: 'string' },
    uf: { type: 'string' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byEmitente: { pk: { field: 'pk', composite: ['emitenteCnpj', 'modelo', 'shard'] }, sk: { field: 'sk', composite: ['periodo'] } },
  },
}));

/**
 * Shards of one carrier's keys (its counters and its links), in the partition key, chosen by the
 * Fat-e's key hash (`shardDe(chave)`, so a cancellation reaches the shard that counted it). Each Fat-e
 * naming a carrier writes about 6 units on its carrier (the link and the day's and month's counters,
 * in the counting transaction): a carrier on 12 % of the national 600 Fat-e/s (the local simulator's
 * busiest, of 8) puts 72 × 6 / 4 ≈ 110 units a second on each of its 4 partitions (11 %).
 */
export const TRANSPORTADOR_SHARDS = 4;

/**
 * Fat-e naming one carrier per day and per month (every one stored, cancelled included: the carrier
 * report counts what was delivered; `canceladas` says how many of them were cancelled since), in
 * TRANSPORTADOR_SHARDS partitions: a read adds the shards up.
 */
export const contagemTransportador = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contagemTransportador', version: '1', service: 'fate' },
  attributes: {
    transportadorDoc: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    periodo: { type: 'string', required: true },
    quantidade: { type: 'number' },
    canceladas: { type: 'number' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byTransportador: { pk: { field: 'pk', composite: ['transportadorDoc', 'shard'] }, sk: { field: 'sk', composite: ['periodo'] } },
  },
}));

/**
 * Fat-e naming any carrier per month, in 16 partitions (`$fate#lista_transporte#shard_<n>`, one chosen
 * by the Fat-e's key hash): the carrier report's grand total. Every Fat-e naming a carrier adds 2 write
 * units (a 1 KB item in a transaction); at the launch rate, even if all 600 Fat-e/s named one, each
 * partition takes 75 units/s (7.5 %).
 */
export const TRANSPORTE_SHARDS = 16;
export const contagemTransporte = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contagemTransporte', version: '1', service: 'fate' },
  attributes: {
    /** Always 'transporte': names the partition key, apart from the other shared keys of the service. */
    lista: { type: 'string', required: true, default: 'transporte' },
    mes: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    quantidade: { type: 'number' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byMes: { pk: { field: 'pk', composite: ['lista', 'shard'] }, sk: { field: 'sk', composite: ['mes'] } },
  },
}));

/**
 * The links that replace the Fat-e's secondary indexes: one small item per Fat-e in the issuer's and
 * (when it names one) the carrier's partition, sorted by emission instant, holding only the key. A page
 * of them is one Query of the base table; the Fat-e themselves are then one BatchGet. The Fat-e item
 * (4-5 KB with its instalments) is stored once, not once per index.
 */
export const fateDoEmitente = entidadeSobDemanda(() => new Entity({
  model: { entity: 'fateDoEmitente', version: '1', service: 'fate' },
  attributes: {
    emitenteCnpj: { type: 'string', required: true },
    emissao: { type: 'string', required: true },
    chave: { type: 'string', required: true },
    modelo: { type: 'string', required: true },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byEmitente: { pk: { field: 'pk', composite: ['emitenteCnpj'] }, sk: { field: 'sk', composite: ['emissao', 'chave'] } },
  },
}));

/** A carrier's links, in TRANSPORTADOR_SHARDS partitions (the Fat-e's `shardDe(chave)`): a page merges them by emission. */
export const fateDoTransportador = entidadeSobDemanda(() => new Entity({
  model: { entity: 'fateDoTransportador', version: '1', service: 'fate' },
  attributes: {
    transportadorDoc: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    emissao: { type: 'string', required: true },
    chave: { type: 'string', required: true },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byTransportador: { pk: { field: 'pk', composite: ['transportadorDoc', 'shard'] }, sk: { field: 'sk', composite: ['emissao', 'chave'] } },
  },
}));

/**
 * The counters as they were keyed before issue 36, for the reads that add them up until the migration
 * (infra/migrations/fate-particoes.ts) has moved them into the shards, and for that migration. Never
 * written by the loader. Same model (entity and version) as their successors: the items are the same
 * kind, only their keys moved.
 */
export const contagemEmitenteLegado = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contagemEmitente', version: '1', service: 'fate' },
  attributes: {
    emitenteCnpj: { type: 'string', required: true },
    modelo: { type: 'string', required: true },
    periodo: { type: 'string', required: true },
    quantidade: { type: 'number' },
    valor: { type: 'number' },
    emitenteNome: { type: 'string' },
    uf: { type: 'string' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byEmitente: { pk: { field: 'pk', composite: ['emitenteCnpj', 'modelo'] }, sk: { field: 'sk', composite: ['periodo'] } },
  },
}));

export const contagemTransporteLegado = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contagemTransporte', version: '1', service: 'fate' },
  attributes: {
    mes: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    quantidade: { type: 'number' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    // Read-only view of the form of before issue 36 (never written): its shard in the sort key is what the migration moves away.
    byMes: { pk: { field: 'pk', composite: [] }, sk: { field: 'sk', composite: ['mes', 'shard'] } },
  },
}));

/**
 * A carrier's counters and links as keyed before its shards (pk `$fate#transportadordoc_<doc>`): read
 * beside the shards, never written. Counters and links are not moved: the counters of past months do
 * not change and the links expire with their Fat-e, so the reads take both forms.
 */
export const contagemTransportadorLegado = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contagemTransportador', version: '1', service: 'fate' },
  attributes: {
    transportadorDoc: { type: 'string', required: true },
    periodo: { type: 'string', required: true },
    quantidade: { type: 'number' },
    canceladas: { type: 'number' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byTransportador: { pk: { field: 'pk', composite: ['transportadorDoc'] }, sk: { field: 'sk', composite: ['periodo'] } },
  },
}));

export const fateDoTransportadorLegado = entidadeSobDemanda(() => new Entity({
  model: { entity: 'fateDoTransportador', version: '1', service: 'fate' },
  attributes: {
    transportadorDoc: { type: 'string', required: true },
    emissao: { type: 'string', required: true },
    chave: { type: 'string', required: true },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byTransportador: { pk: { field: 'pk', composite: ['transportadorDoc'] }, sk: { field: 'sk', composite: ['emissao', 'chave'] } },
  },
}));
