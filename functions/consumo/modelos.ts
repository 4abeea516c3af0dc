import { createHash } from 'node:crypto';

/**
 * The metering's items (docs/data-model.md, "Consumo"): their ElectroDB models and the shards of their
 * keys. Plain objects, without the table layer: store.ts builds its entities from them, and the charge
 * and the not-found record (direto.ts) write the same items through platform/tabela-direta.ts.
 */

/**
 * Shards of each counter, in its partition key and in its two indexes' (by UF, by month): an increment
 * goes to one at random, a read adds them all up (one Query per shard, in parallel). What sets the
 * number is the month index (gsi2): every metered use of the platform rewrites one entry there, about
 * 5,500 a second at launch (5,000 webhook deliveries, 500 look-ups), 2 units each in a transaction:
 * 5,500 × 2 / 64 ≈ 170 units a second on each of its partitions (17 %). The busiest client (2,000
 * deliveries a second) puts 2,000 / 64 × 4 units (the counter and the day's counter) on each of its
 * own: 12.5 % (docs/operations.md, "Partition load"). Raised from 16: reading shards 0…63 also finds
 * what was counted on 0…15.
 */
export const CONTADOR_SHARDS = 64;
/**
 * Shards of a client's request log index (gsi1) for each service, chosen by the request id: 2,000
 * metered deliveries a second, all of one service at worst, put about 2,000 / 16 × 2 units on each
 * (25 %); the report reads them merged by instant.
 */
export const LOG_SHARDS = 16;
export const shardDoLog = (requestId: string) => createHash('sha256').update(requestId).digest().readUInt32BE(0) % LOG_SHARDS;
/** A charged request stays in the log for 13 months: the billed month and a year of disputes. */
export const LOG_TTL_SECONDS = 400 * 86_400;

export const atributosContador = {
  clienteId: { type: 'string', required: true },
  /** 'YYYY-MM', the month in America/Bahia time of the request. */
  mes: { type: 'string', required: true },
  servico: { type: 'number', required: true },
  /** The origin UF of the document (its Sefaz), the unit revenue sharing divides by. */
  uf: { type: 'string', required: true },
  shard: { type: 'number', required: true },
  requisicoes: { type: 'number', required: true, default: 0 },
} as const;

/** Kept: a month's counters are what its invoice was priced from, so they live as long as the invoices (five years; issue 41 archives them); a few hundred small items per client and month. */
export const MODELO_CONTADOR = {
  model: { entity: 'contador', version: '1', service: 'consumo' },
  attributes: atributosContador,
  indexes: {
    // A client's month, one partition per shard (issue 36: the shard in the partition key, so one
    // client at its quota spreads its increments over CONTADOR_SHARDS partitions): a read adds the
    // shards' Queries up.
    byCliente: {
      pk: { field: 'pk', composite: ['clienteId', 'mes', 'shard'] },
      sk: { field: 'sk', composite: ['servico', 'uf'] },
    },
    // A UF's month (consumption by state), every client: one index partition per shard, so that the
    // uses of a busy UF (São Paulo: 40 % of them) do not all rewrite entries of one partition.
    byUf: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['uf', 'mes', 'shard'] },
      sk: { field: 'gsi1sk', composite: ['servico', 'clienteId'] },
    },
    // A whole month (the billing run), spread over the shards so that no index partition is hot.
    byMes: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['mes', 'shard'] },
      sk: { field: 'gsi2sk', composite: ['clienteId', 'servico', 'uf'] },
    },
  },
} as const;

export const atributosRequisicao = {
  /** The caller's idempotency key (scoped to the client), or the gateway's request id. */
  requestId: { type: 'string', required: true },
  clienteId: { type: 'string', required: true },
  mes: { type: 'string', required: true },
  servico: { type: 'number', required: true },
  uf: { type: 'string', required: true },
  /** The access key looked up, or the batch line. */
  chave: { type: 'string', required: true },
  createdAt: { type: 'string', required: true },
  expiresAt: { type: 'number', required: true },
  /** The log index's shard (LOG_SHARDS, from the request id): what spreads one client's log over partitions. */
  shard: { type: 'number', required: true },
} as const;

/** One charged request. Its creation is the request's "counted once" claim. */
export const MODELO_REQUISICAO = {
  model: { entity: 'requisicao', version: '1', service: 'consumo' },
  attributes: atributosRequisicao,
  indexes: {
    byId: { pk: { field: 'pk', composite: ['requestId'] }, sk: { field: 'sk', composite: [] } },
    // The month's detail of a client and service (issue 38): LOG_SHARDS index partitions per service
    // (issue 36), so one service's lines (a section of the invoice's detail ZIP) are key reads of its
    // own partitions, and the whole month merges the partitions of the services the month's counters
    // name; read merged by instant (`paginaDeRequisicoes`).
    byServico: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['clienteId', 'mes', 'servico', 'shard'] },
      sk: { field: 'gsi1sk', composite: ['createdAt', 'requestId'] },
    },
  },
} as const;

/**
 * A client's requests of one day (in Bahia time): charged ('sucesso') or not found ('erro'), split into
 * CONTADOR_SHARDS items as the monthly counter is. Written in the same transaction as the log item it
 * counts (a charged request) or with the not-found record, so the monitoring chart's day mode reads at
 * most 31 days × 2 kinds × CONTADOR_SHARDS items, whatever the month's volume, instead of the request log.
 */
export const atributosDiario = {
  clienteId: { type: 'string', required: true },
  mes: { type: 'string', required: true },
  /** 'YYYY-MM-DD' in Bahia. */
  dia: { type: 'string', required: true },
  tipo: { type: ['sucesso', 'erro'] as const, required: true },
  shard: { type: 'number', required: true },
  quantidade: { type: 'number', required: true, default: 0 },
  expiresAt: { type: 'number' },
} as const;

export const MODELO_DIARIO = {
  model: { entity: 'diario', version: '1', service: 'consumo' },
  attributes: atributosDiario,
  indexes: {
    // The shard in the partition key (issue 36), the same one as the request's counter.
    byCliente: { pk: { field: 'pk', composite: ['clienteId', 'mes', 'shard'] }, sk: { field: 'sk', composite: ['dia', 'tipo'] } },
  },
} as const;

/**
 * Shards of a client's monthly counter per service (`consumoServico`): what the administrator's list of
 * every client's consumption reads, a page of clients at a time, instead of the month's counters by
 * UF (clients × services × 27 UFs × CONTADOR_SHARDS items). Written in the charge's transaction (the
 * charge's counter shard modulo this), 2 units: the busiest client (2,000 metered deliveries a
 * second) puts 2,000 × 2 / 16 = 250 units a second on each of its 16 partitions (25 %). A read adds
 * the 16 live shards and the migration's base one (`SHARD_BASE`): 17 Queries of at most 9 items.
 */
export const SERVICO_SHARDS = 16;
/**
 * The shard where infra/migrations/consumo-clientes.ts sets what was counted before these counters
 * existed (the month's counters by UF minus what the live shards hold): one past the live ones, so
 * a charge never adds to it and a re-run of the migration overwrites only its own item.
 */
export const SHARD_BASE = SERVICO_SHARDS;

/** Kept: what a month's invoice was priced from, summed by service (as the counters by UF): as long as the invoices (issue 41 archives them). */
export const MODELO_CONSUMO_SERVICO = {
  model: { entity: 'consumoServico', version: '1', service: 'consumo' },
  attributes: {
    clienteId: { type: 'string', required: true },
    mes: { type: 'string', required: true },
    servico: { type: 'number', required: true },
    shard: { type: 'number', required: true },
    requisicoes: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId', 'mes', 'shard'] }, sk: { field: 'sk', composite: ['servico'] } },
  },
} as const;

/**
 * A client with consumption in a month: one item per client and month, listed in name order (gsi1:
 * the month, then the folded company name and the id), holding the services it used. Written in the
 * charge's transaction by the first charge of each (client, month, service) that a function instance
 * makes (consumo/service.ts keeps which it wrote), so it costs a few writes per instance and month,
 * never one per request: the month's index partition is not hot (hundreds of clients × instances a
 * month) and holds one small item per client, read a page at a time. The name is the one of the last
 * write: a renamed client moves in the order when it is next written (its own key never changes, so it
 * is listed once). Kept: one small item per client and month, the index of the month's counters (as long as they are).
 */
export const MODELO_CLIENTE_DO_MES = {
  model: { entity: 'clienteDoMes', version: '1', service: 'consumo' },
  attributes: {
    clienteId: { type: 'string', required: true },
    mes: { type: 'string', required: true },
    /** The company name folded (lower case, no accents): the list's order. */
    nome: { type: 'string', required: true },
    /** The services the client used in the month (a number set: ADD is idempotent). */
    servicos: { type: 'set', items: 'number' },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId', 'mes'] }, sk: { field: 'sk', composite: [] } },
    byMes: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['mes'] }, sk: { field: 'gsi1sk', composite: ['nome', 'clienteId'] } },
  },
} as const;

/**
 * Shards of the not-found look-ups' UF index (gsi1, `naoEncontrada.shard`), chosen by the record's id
 * (issue 36). Each index entry is written in the record's transaction (with the day's counter), so it
 * costs 2 write units (under 1 KB). São Paulo's not-found look-ups, 40 % of the platform's 500 metered
 * look-ups a second if none found anything, were 200 × 2 = 400 units a second on one partition (40 %);
 * on 8 they are 400 / 8 = 50 each (5 %). The key (`$consumo#uf_<uf>#mes_<m>#shard_<n>`) is also the one
 * of the UF's counter index (`contador` byUf, told apart by the sort key's entity prefix), whose SP
 * share adds at most 5,500 × 40 % × 2 / CONTADOR_SHARDS ≈ 69 units a second: about 12 % together.
 */
export const NAO_ENCONTRADA_UF_SHARDS = 8;
/**
 * Shards of a client's not-found index (gsi2, `naoEncontrada.shardCliente`), from the same hash of the
 * id: one client at its quota (250 look-ups a second) that all find nothing put 250 × 2 = 500 units a
 * second on one partition (50 %); on 4 they are 500 / 4 = 125 each (12.5 %). Only the demo seeding reads
 * this index (the monitoring reads the day counters), so few shards are enough.
 */
export const NAO_ENCONTRADA_CLIENTE_SHARDS = 4;
export const hashDoId = (id: string) => createHash('sha256').update(id).digest().readUInt32BE(0);
/** The record's UF index shard: a hash of its id, so the same record always has the same one. */
export const shardDaNaoEncontrada = (id: string) => hashDoId(id) % NAO_ENCONTRADA_UF_SHARDS;
/** The record's client index shard: the same hash, on NAO_ENCONTRADA_CLIENTE_SHARDS. */
export const shardClienteDaNaoEncontrada = (id: string) => hashDoId(id) % NAO_ENCONTRADA_CLIENTE_SHARDS;

export const atributosNaoEncontrada = {
  id: { type: 'string', required: true },
  uf: { type: 'string', required: true },
  mes: { type: 'string', required: true },
  /** ISO instant of the look-up. */
  data: { type: 'string', required: true },
  chnfe: { type: 'string', required: true },
  servico: { type: 'number', required: true },
  status: { type: 'string', required: true },
  clienteId: { type: 'string', required: true },
  cnpj: { type: 'string', required: true },
  razaoSocial: { type: 'string', required: true },
  expiresAt: { type: 'number', required: true },
} as const;

/** A look-up that found nothing: recorded for the not-found screens, never charged. */
export const MODELO_NAO_ENCONTRADA = {
  model: { entity: 'naoEncontrada', version: '1', service: 'consumo' },
  attributes: {
    ...atributosNaoEncontrada,
    /** The UF index's shard (NAO_ENCONTRADA_UF_SHARDS, `shardDaNaoEncontrada` of the id). */
    shard: { type: 'number', required: true },
    /** The client index's shard (NAO_ENCONTRADA_CLIENTE_SHARDS, `shardClienteDaNaoEncontrada` of the id). */
    shardCliente: { type: 'number', required: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
    // A UF's month, for the not-found screen: NAO_ENCONTRADA_UF_SHARDS index partitions (issue 36), read
    // merged by (instant, id) (`naoEncontradasDaUfEntre`).
    byUf: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['uf', 'mes', 'shard'] }, sk: { field: 'gsi1sk', composite: ['data', 'id'] } },
    // A client's month (the demo seeding's check): NAO_ENCONTRADA_CLIENTE_SHARDS index partitions.
    byCliente: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['clienteId', 'mes', 'shardCliente'] }, sk: { field: 'gsi2sk', composite: ['data', 'id'] } },
  },
} as const;
