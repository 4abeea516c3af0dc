import { Entity } from 'electrodb';

/**
 * What the range look-ups read instead of the Fat-e themselves (docs/data-model.md, "Fat-e: counters
 * and links"). All of them are written in one transaction per Fat-e, the *counting* transaction of
 * `contabilizar` (store.ts), conditional on the Fat-e's `contagem` mark: so each Fat-e is counted and
 * linked exactly once however often it is re-delivered, and taken out once when it is cancelled.
 *
 * `periodo` is `D<YYYY-MM-DD>` (a Bahia day) or `M<YYYY-MM>` (a Bahia month): one partition holds both
 * granularities, so a period of days reads the whole months in it and the days at its two ends.
 */

/** Active Fat-e (quantity, value in centavos) of one issuer and model per day and per month: services 4 and 5. */
export const contagemEmitente = new Entity({
  model: { entity: 'contagemEmitente', version: '1', service: 'fate' },
  attributes: {
    emitenteCnpj: { type: 'string', required: true },
    modelo: { type: 'string', required: true },
    periodo: { type: 'string', required: true },
    quantidade: { type: 'number' },
    valor: { type: 'number' },
    /** The issuer's name and the delivering UF as of the latest Fat-e counted (the answer's name, the charge's UF). */
    emitenteNome: { type: 'string' },
    uf: { type: 'string' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byEmitente: { pk: { field: 'pk', composite: ['emitenteCnpj', 'modelo'] }, sk: { field: 'sk', composite: ['periodo'] } },
  },
});

/**
 * Fat-e naming one carrier per day and per month (every one stored, cancelled included: the carrier
 * report counts what was delivered; `canceladas` says how many of them were cancelled since).
 */
export const contagemTransportador = new Entity({
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
});

/** Fat-e naming any carrier per month, in 16 shards (no hot item): the carrier report's grand total. */
export const TRANSPORTE_SHARDS = 16;
export const contagemTransporte = new Entity({
  model: { entity: 'contagemTransporte', version: '1', service: 'fate' },
  attributes: {
    mes: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    quantidade: { type: 'number' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byMes: { pk: { field: 'pk', composite: [] }, sk: { field: 'sk', composite: ['mes', 'shard'] } },
  },
});

/**
 * The links that replace the Fat-e's secondary indexes: one small item per Fat-e in the issuer's and
 * (when it names one) the carrier's partition, sorted by emission instant, holding only the key. A page
 * of them is one Query of the base table; the Fat-e themselves are then one BatchGet. The Fat-e item
 * (4-5 KB with its instalments) is stored once, not once per index.
 */
export const fateDoEmitente = new Entity({
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
});

export const fateDoTransportador = new Entity({
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
});
