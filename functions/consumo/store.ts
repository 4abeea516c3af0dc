import { Entity, type EntityItem } from 'electrodb';
import { createConversions } from 'electrodb';
import { paginaEmSequencia, paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';
import {
  atributosContador,
  atributosDiario,
  atributosNaoEncontrada,
  atributosRequisicao,
  CONTADOR_SHARDS,
  LOG_SHARDS,
  LOG_TTL_SECONDS,
  MODELO_CLIENTE_DO_MES,
  MODELO_CONSUMO_SERVICO,
  MODELO_CONTADOR,
  MODELO_DIARIO,
  MODELO_NAO_ENCONTRADA,
  MODELO_REQUISICAO,
  NAO_ENCONTRADA_CLIENTE_SHARDS,
  NAO_ENCONTRADA_UF_SHARDS,
  SERVICO_SHARDS,
  SHARD_BASE,
  shardDoLog,
} from './modelos';

export {
  CONTADOR_SHARDS,
  LOG_SHARDS,
  NAO_ENCONTRADA_CLIENTE_SHARDS,
  NAO_ENCONTRADA_UF_SHARDS,
  SERVICO_SHARDS,
  SHARD_BASE,
  shardClienteDaNaoEncontrada,
  shardDaNaoEncontrada,
  shardDoLog,
} from './modelos';

/**
 * Usage metering (docs/data-model.md, "Consumo"): per (client, service, origin UF, month) a request
 * counter split into CONTADOR_SHARDS items so that a busy client never makes one item hot; the log of
 * every charged request, whose item is also what makes a request count once; and the not-found
 * look-ups, recorded and not charged. The models and their shards are in modelos.ts.
 */

const contador = entidadeSobDemanda(() => new Entity(MODELO_CONTADOR));

const requisicao = entidadeSobDemanda(() => new Entity(MODELO_REQUISICAO));

/**
 * The log item as it was indexed before the service was in the index key (issue 38; gsi1 pk
 * `$consumo#clienteid_<id>#mes_<m>#shard_<n>`): the same entity and version, a read-only view, only to
 * read the months logged before (`paginaDeRequisicoes`, one service's lines by a filter there). No
 * migration: log items are never rewritten and expire after LOG_TTL_SECONDS (TTL), so the old ones are
 * read where they are, as more sources of each read, until they are gone.
 */
const requisicaoSemServico = entidadeSobDemanda(() => new Entity({
  model: { entity: 'requisicao', version: '1', service: 'consumo' },
  // The same attributes: only read, never written through this view.
  attributes: atributosRequisicao,
  indexes: {
    byId: { pk: { field: 'pk', composite: ['requestId'] }, sk: { field: 'sk', composite: [] } },
    byCliente: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['clienteId', 'mes', 'shard'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'requestId'] } },
  },
}));

/**
 * The log item as it was indexed before the index had the shard (gsi1 pk `$consumo#clienteid_<id>#mes_<m>`):
 * only to read the months logged before (`paginaDeRequisicoes`). Log items are never rewritten and
 * expire after LOG_TTL_SECONDS, so they are read where they are rather than migrated.
 */
const requisicaoSemShard = entidadeSobDemanda(() => new Entity({
  model: { entity: 'requisicao', version: '1', service: 'consumo' },
  // The same attributes (its items have no shard: only read, never written through this view).
  attributes: atributosRequisicao,
  indexes: {
    byId: { pk: { field: 'pk', composite: ['requestId'] }, sk: { field: 'sk', composite: [] } },
    byCliente: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['clienteId', 'mes'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'requestId'] } },
  },
}));

const diario = entidadeSobDemanda(() => new Entity(MODELO_DIARIO));

const consumoServico = entidadeSobDemanda(() => new Entity(MODELO_CONSUMO_SERVICO));

const clienteDoMes = entidadeSobDemanda(() => new Entity(MODELO_CLIENTE_DO_MES));

const naoEncontrada = entidadeSobDemanda(() => new Entity(MODELO_NAO_ENCONTRADA));

/**
 * The not-found record as it was indexed before the indexes had the shard (gsi1 pk `$consumo#uf_<uf>#mes_<m>`,
 * gsi2 pk `$consumo#clienteid_<id>#mes_<m>`): the same entity and version, another view, only to read
 * the months recorded before (and, in tests, to write one as it was). No migration: a record is never
 * rewritten and expires after LOG_TTL_SECONDS (TTL), so the old ones are read where they are, as one
 * more source of each read, until they are gone.
 */
const naoEncontradaSemShard = entidadeSobDemanda(() => new Entity({
  model: { entity: 'naoEncontrada', version: '1', service: 'consumo' },
  attributes: atributosNaoEncontrada,
  indexes: {
    byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
    byUf: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['uf', 'mes'] }, sk: { field: 'gsi1sk', composite: ['data', 'id'] } },
    byCliente: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['clienteId', 'mes'] }, sk: { field: 'gsi2sk', composite: ['data', 'id'] } },
  },
}));

/**
 * The counter as it was stored before the shard was in its partition key (pk `$consumo#clienteid_<id>#mes_<m>`,
 * the shard in the sort key) and indexed by UF before the index had the shard (gsi1 pk `$consumo#uf_<uf>#mes_<m>`):
 * only to read the counters not yet moved by infra/migrations/chaves-particionadas.ts (`contadoresDoCliente`,
 * `contadoresDaUf`) and for that migration. The same entity and version: the same items, another view.
 * Kept: a month's counters are what its invoice was priced from, so they live as long as the invoices (five years; issue 41 archives them); a few hundred small items per client and month.
 */
export const contadorAntigo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contador', version: '1', service: 'consumo' },
  attributes: atributosContador,
  indexes: {
    // Read-only view of the form of before issue 36 (never written): its shard in the sort key is what the migration moves away.
    byCliente: { pk: { field: 'pk', composite: ['clienteId', 'mes'] }, sk: { field: 'sk', composite: ['servico', 'uf', 'shard'] } },
    // Read-only view of the form of before issue 36 (never written): its shard in the sort key is what the migration moves away.
    byUf: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['uf', 'mes'] }, sk: { field: 'gsi1sk', composite: ['servico', 'clienteId', 'shard'] } },
  },
}));

/** The day's counter as stored before the shard was in its partition key: for the old-form reads and the migration. */
export const diarioAntigo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'diario', version: '1', service: 'consumo' },
  attributes: atributosDiario,
  // Read-only view of the form of before issue 36 (never written): its shard in the sort key is what the migration moves away.
  indexes: { byCliente: { pk: { field: 'pk', composite: ['clienteId', 'mes'] }, sk: { field: 'sk', composite: ['dia', 'tipo', 'shard'] } } },
}));

const entities = { contador, requisicao, naoEncontrada, diario, consumoServico, clienteDoMes, contadorAntigo, diarioAntigo, requisicaoSemShard, requisicaoSemServico, naoEncontradaSemShard };
const db = servicoSobDemanda(entities);
/** The items as stored before issue 36's keys (read where they are, and moved by the migration): the same service, so one transaction moves one. */
const dbAntigo = () => db();
/** The request log's entity, for the bench's item sizes (bench/arquivo-bytes.ts). */
export const entidadeRequisicao = () => db().entities.requisicao;

export type ContadorRecord = EntityItem<typeof contador>;
export type RequisicaoRecord = EntityItem<typeof requisicao>;
export type NaoEncontradaRecord = EntityItem<typeof naoEncontrada>;
export type ClienteDoMesRecord = EntityItem<typeof clienteDoMes>;

/** Whether a request id was already charged (a key lookup, consistent). */
export async function requisicaoExiste(requestId: string): Promise<boolean> {
  const { data } = await db().entities.requisicao.get({ requestId }).go({ consistent: true, attributes: ['requestId'] });
  return data !== null;
}

/**
 * Writes counters as they are (BatchWriteItem, 25 a time): synthetic months for the billing benchmark
 * (bench/billing.ts). Never used by a request path: a counter only grows through `cobrar`, with its log.
 */
export async function gravarContadores(items: ContadorRecord[]): Promise<void> {
  const { unprocessed } = await db().entities.contador.put(items).go({ concurrency: 8 });
  if (unprocessed.length > 0) throw new Error(`${unprocessed.length} counters were not written`);
}

/** A client's counters of a month, shards added up, by service and UF: CONTADOR_SHARDS + 1 Queries in parallel. */
export async function contadoresDoCliente(clienteId: string, mes: string): Promise<{ servico: number; uf: string; requisicoes: number }[]> {
  const pages = await Promise.all([
    // Bounded: one shard of a client's month: services × 27 UFs items, whatever the requests.
    ...Array.from({ length: CONTADOR_SHARDS }, (_, shard) => db().entities.contador.query.byCliente({ clienteId, mes, shard }).go({ pages: 'all' })),
    // Bounded: the month's counters not yet moved into the sharded keys (services × 27 UFs × 16 at most).
    dbAntigo().entities.contadorAntigo.query.byCliente({ clienteId, mes }).go({ pages: 'all' }),
  ]);
  return somarShards(
    pages.flatMap((p) => p.data as ContadorRecord[]),
    (k) => `${k.servico}|${k.uf}`,
  ).map(([k, requisicoes]) => ({ servico: k.servico, uf: k.uf, requisicoes }));
}

/** A client's counters of a month by service (its UFs added up), by service id: which services it used and how much. */
export async function contadoresPorServico(clienteId: string, mes: string): Promise<{ servico: number; requisicoes: number }[]> {
  const porServico = new Map<number, number>();
  for (const c of await contadoresDoCliente(clienteId, mes)) porServico.set(c.servico, (porServico.get(c.servico) ?? 0) + c.requisicoes);
  return [...porServico].sort(([a], [b]) => a - b).map(([servico, requisicoes]) => ({ servico, requisicoes }));
}

/**
 * A UF's counters of a month, by service and client (ordered so): its CONTADOR_SHARDS index
 * partitions read in parallel (one Query each) and added up, with the counters still indexed as
 * before the shard was in the index key (one more Query; each item is in exactly one of the two forms).
 * Bounded: each Query is one UF, month and shard: clients × services items at most.
 */
export async function contadoresDaUf(uf: string, mes: string): Promise<{ servico: number; clienteId: string; requisicoes: number }[]> {
  const pages = await Promise.all([
    // Bounded: one UF, month and shard per Query: the clients × services counters at most.
    ...Array.from({ length: CONTADOR_SHARDS }, (_, shard) => db().entities.contador.query.byUf({ uf, mes, shard }).go({ pages: 'all' })),
    // Bounded: the UF and month counters written before the shards (clients × services at most).
    dbAntigo().entities.contadorAntigo.query.byUf({ uf, mes }).go({ pages: 'all' }),
  ]);
  return somarShards(
    pages.flatMap((p) => p.data as ContadorRecord[]),
    (k) => `${k.servico}|${k.clienteId}`,
  )
    .map(([k, requisicoes]) => ({ servico: k.servico, clienteId: k.clienteId, requisicoes }))
    .sort((a, b) => a.servico - b.servico || (a.clienteId < b.clienteId ? -1 : a.clienteId > b.clienteId ? 1 : 0));
}

/**
 * Every counter of a month (one Query per shard), by client, service and UF: for the migration of the
 * months charged before the counters by service (infra/migrations/consumo-clientes.ts) and tests; no
 * route reads it (the list of every client's consumption pages `clientesDoMes`).
 */
export async function contadoresDoMes(mes: string): Promise<{ clienteId: string; servico: number; uf: string; requisicoes: number }[]> {
  const pages = await Promise.all(
    // Bounded: counters, not requests: one item per client, service and UF of the month, spread over the shards.
    Array.from({ length: CONTADOR_SHARDS }, (_, shard) => db().entities.contador.query.byMes({ mes, shard }).go({ pages: 'all' })),
  );
  return somarShards(
    pages.flatMap((p) => p.data),
    (k) => `${k.clienteId}|${k.servico}|${k.uf}`,
  ).map(([k, requisicoes]) => ({ clienteId: k.clienteId, servico: k.servico, uf: k.uf, requisicoes }));
}

/**
 * A client's charged requests of a month by service: its SERVICO_SHARDS live shards and the base one
 * (SHARD_BASE), 17 Queries in parallel, added up. Bounded: one client, month and shard per Query: the
 * services (a handful) at most.
 */
export async function consumoPorServico(clienteId: string, mes: string): Promise<{ servico: number; requisicoes: number }[]> {
  return [...(await somaDosShards(clienteId, mes, SERVICO_SHARDS + 1))]
    .filter(([, requisicoes]) => requisicoes !== 0)
    .sort(([a], [b]) => a - b)
    .map(([servico, requisicoes]) => ({ servico, requisicoes }));
}

/** A client's month by service from its `consumoServico` shards 0 … shards − 1 (one Query each, in parallel). */
async function somaDosShards(clienteId: string, mes: string, shards: number): Promise<Map<number, number>> {
  const pages = await Promise.all(
    Array.from({ length: shards }, (_, shard) =>
      // Bounded: one client, month and shard: one item per service.
      db().entities.consumoServico.query.byCliente({ clienteId, mes, shard }).go({ pages: 'all' }),
    ),
  );
  const porServico = new Map<number, number>();
  for (const k of pages.flatMap((p) => p.data)) porServico.set(k.servico, (porServico.get(k.servico) ?? 0) + (k.requisicoes ?? 0));
  return porServico;
}

/**
 * The months by service of the clients of a page of `clientesDoMes`: their services' SERVICO_SHARDS + 1
 * items each, by key (BatchGetItem, 100 keys a call, in parallel), never a Query per shard: a page of
 * 10 clients with 2 services each is 340 keys in 4 calls.
 */
export async function consumoPorServicoDosClientes(clientes: readonly ClienteDoMesRecord[]): Promise<Map<string, { servico: number; requisicoes: number }[]>> {
  const chaves = clientes.flatMap((c) =>
    (c.servicos ?? []).flatMap((servico) => Array.from({ length: SERVICO_SHARDS + 1 }, (_, shard) => ({ clienteId: c.clienteId, mes: c.mes, servico, shard }))),
  );
  const { data, unprocessed } = await db().entities.consumoServico.get(chaves).go({ concurrency: 8 });
  if (unprocessed.length > 0) throw new Error(`${unprocessed.length} consumption counters were not read`);
  const porCliente = new Map<string, Map<number, number>>(clientes.map((c) => [c.clienteId, new Map()]));
  for (const k of data) {
    const doCliente = porCliente.get(k.clienteId)!;
    doCliente.set(k.servico, (doCliente.get(k.servico) ?? 0) + (k.requisicoes ?? 0));
  }
  return new Map(
    [...porCliente].map(([id, m]) => [
      id,
      [...m]
        .filter(([, n]) => n !== 0)
        .sort(([a], [b]) => a - b)
        .map(([servico, requisicoes]) => ({ servico, requisicoes })),
    ]),
  );
}

/**
 * One page of the clients with consumption in a month, in name order (`clienteDoMes`, gsi1): one
 * key-range Query of the month's index partition a page; with a service, only the clients that used
 * it (a filter on the item's set of services, in paginas.ts's bounded rounds).
 */
export async function clientesDoMes(mes: string, pagina: { perPage: number; posicao?: string | undefined; servico?: number | undefined }): Promise<Pagina<ClienteDoMesRecord>> {
  const indice = db().entities.clienteDoMes;
  const { servico } = pagina;
  const ler: Ler<ClienteDoMesRecord> = async (desde, limite) => {
    const { data, cursor } = await indice.query.byMes({ mes }).go({ cursor: desde ?? null, limit: limite });
    return { data, cursor };
  };
  return paginaEmSequencia([ler], (_, m) => createConversions(indice).byAccessPattern.byMes.fromComposite.toCursor({ mes, nome: m.nome, clienteId: m.clienteId })!, {
    perPage: pagina.perPage,
    posicao: pagina.posicao,
    aceita: servico === undefined ? undefined : (m) => (m.servicos ?? []).includes(servico),
  });
}

/**
 * What infra/migrations/consumo-clientes.ts writes for a client's month counted before these items
 * existed: its listing (`clienteDoMes`) and the base shard of each service's counter, set (not added
 * to), so that a re-run writes the same.
 */
export async function gravarBaseDoCliente(b: { clienteId: string; mes: string; nome: string; porServico: { servico: number; requisicoes: number }[] }): Promise<void> {
  const servicos = b.porServico.map((s) => s.servico);
  if (servicos.length > 0) await db().entities.clienteDoMes.upsert({ clienteId: b.clienteId, mes: b.mes, nome: b.nome }).add({ servicos }).go();
  for (const s of b.porServico) {
    await db().entities.consumoServico.upsert({ clienteId: b.clienteId, mes: b.mes, servico: s.servico, shard: SHARD_BASE }).set({ requisicoes: s.requisicoes }).go();
  }
}

/** What the live shards (not the base one) hold for a client's month, by service: the migration's other term. */
export const consumoVivoPorServico = (clienteId: string, mes: string): Promise<Map<number, number>> => somaDosShards(clienteId, mes, SERVICO_SHARDS);

function somarShards(items: ContadorRecord[], keyOf: (k: ContadorRecord) => string): [ContadorRecord, number][] {
  const sums = new Map<string, [ContadorRecord, number]>();
  for (const item of items) {
    const key = keyOf(item);
    const current = sums.get(key);
    sums.set(key, [current?.[0] ?? item, (current?.[1] ?? 0) + (item.requisicoes ?? 0)]);
  }
  return [...sums.values()];
}

/**
 * The charged requests of a client's month, oldest first. Tests only (a month of a test client): the
 * portal reads the log a page at a time in the report job (functions/consumo/relatorio-job.ts).
 */
export async function requisicoesDoCliente(clienteId: string, mes: string): Promise<RequisicaoRecord[]> {
  const todas: RequisicaoRecord[] = [];
  // The month's services (its counters), read once for every page.
  const servicos = await contadoresPorServico(clienteId, mes);
  let cursor: string | null = null;
  do {
    const pagina = await paginaDeRequisicoes(clienteId, mes, { cursor, limite: 1000, servicos });
    todas.push(...pagina.data);
    cursor = pagina.cursor;
  } while (cursor);
  return todas;
}

/**
 * A client's charged and not-found requests per day of a month, from the daily counters (shards added
 * up). Bounded: 31 days × 2 kinds × CONTADOR_SHARDS items, in CONTADOR_SHARDS + 1 parallel Queries.
 */
export async function contadoresDiarios(clienteId: string, mes: string): Promise<Map<string, { sucesso: number; erro: number }>> {
  const pages = await Promise.all([
    // Bounded: 31 days × 2 kinds of one client, month and shard.
    ...Array.from({ length: CONTADOR_SHARDS }, (_, shard) => db().entities.diario.query.byCliente({ clienteId, mes, shard }).go({ pages: 'all' })),
    // Bounded: the month's day counters not yet moved into the sharded keys (31 × 2 × 16 at most).
    dbAntigo().entities.diarioAntigo.query.byCliente({ clienteId, mes }).go({ pages: 'all' }),
  ]);
  const data = pages.flatMap((p) => p.data as { dia: string; tipo: 'sucesso' | 'erro'; quantidade?: number }[]);
  const porDia = new Map<string, { sucesso: number; erro: number }>();
  for (const item of data) {
    const dia = porDia.get(item.dia) ?? { sucesso: 0, erro: 0 };
    dia[item.tipo] += item.quantidade ?? 0;
    porDia.set(item.dia, dia);
  }
  return porDia;
}

type ChaveDoLog = [createdAt: string, requestId: string];
const compararLog = (a: ChaveDoLog, b: ChaveDoLog) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/**
 * One page of a client's charged requests of a month, oldest first, from `cursor` (null: the start),
 * optionally of one service only. One service's lines are key reads of its LOG_SHARDS index partitions
 * (issue 38: the service is in the index key); the whole month merges the partitions of every service
 * in `servicos` (the services with requests and how many, from the month's counters: when absent,
 * `contadoresDoCliente` is read for them), each read in batches of about its share of the page. The
 * items logged before the service was in the key (LOG_SHARDS partitions, `requisicaoSemServico`) and
 * before the shards (one, `requisicaoSemShard`) are more sources, read where they are until their TTL
 * ends them (one service's lines there by a filter). The sources are read in parallel and merged by
 * (instant, request id) (platform/paginas.ts `paginaIntercalada`); the cursor is the last request's
 * position, from which every partition resumes. A page may be shorter than `limite` while more follow
 * (its reads are bounded): the caller goes on while the cursor is not null. The report jobs
 * (relatorio-job.ts) read the log this way, one bounded page after another.
 */
export async function paginaDeRequisicoes(
  clienteId: string,
  mes: string,
  pagina: { cursor: string | null; limite: number; servico?: number | undefined; servicos?: readonly { servico: number; requisicoes: number }[] | undefined },
): Promise<{ data: RequisicaoRecord[]; cursor: string | null }> {
  const novo = db().entities.requisicao;
  const semServico = dbAntigo().entities.requisicaoSemServico;
  const semShard = dbAntigo().entities.requisicaoSemShard;
  const servico = pagina.servico;
  // Whose partitions: the service asked, or every service of the month with its share of the requests.
  let servicos: readonly { servico: number; requisicoes: number }[];
  if (servico !== undefined) servicos = [{ servico, requisicoes: 1 }];
  else if (pagina.servicos) servicos = pagina.servicos;
  else servicos = await contadoresPorServico(clienteId, mes);
  const soma = servicos.reduce((t, s) => t + Math.max(s.requisicoes, 0), 0);
  // Each partition is read in batches of about its share of the page (with a margin: the request id's
  // hash spreads a service's lines evenly over its shards), so the merge reads little it does not use;
  // one that runs out before the page is full is read again (bounded by the merge's rounds).
  const lote = (parte: number) => Math.max(Math.ceil((pagina.limite * parte * 5) / (4 * LOG_SHARDS)) + 1, 10);
  const loteAntigo = Math.max(Math.ceil(pagina.limite / LOG_SHARDS) + 1, 50);
  type Fonte = { ler: Ler<RequisicaoRecord>; apos: (k: ChaveDoLog) => string };
  const fontes: Fonte[] = [
    ...servicos.flatMap(({ servico: s, requisicoes }) => {
      const limit = lote(soma > 0 ? Math.max(requisicoes, 0) / soma : 1 / servicos.length);
      return Array.from({ length: LOG_SHARDS }, (_, shard): Fonte => ({
        ler: async (desde) => {
          const { data, cursor } = await novo.query.byServico({ clienteId, mes, servico: s, shard }).go({ cursor: desde ?? null, limit });
          return { data, cursor };
        },
        apos: ([createdAt, requestId]) => createConversions(novo).byAccessPattern.byServico.fromComposite.toCursor({ clienteId, mes, servico: s, shard, createdAt, requestId })!,
      }));
    }),
    // Logged before the service was in the key, then before the shards: every service, read where they are until their TTL.
    ...Array.from({ length: LOG_SHARDS }, (_, shard): Fonte => ({
      ler: async (desde) => {
        const { data, cursor } = await semServico.query.byCliente({ clienteId, mes, shard }).go({ cursor: desde ?? null, limit: loteAntigo });
        return { data: data as RequisicaoRecord[], cursor };
      },
      apos: ([createdAt, requestId]) => createConversions(semServico).byAccessPattern.byCliente.fromComposite.toCursor({ clienteId, mes, shard, createdAt, requestId })!,
    })),
    {
      ler: async (desde) => {
        const { data, cursor } = await semShard.query.byCliente({ clienteId, mes }).go({ cursor: desde ?? null, limit: loteAntigo });
        return { data: data as RequisicaoRecord[], cursor };
      },
      apos: ([createdAt, requestId]) => createConversions(semShard).byAccessPattern.byCliente.fromComposite.toCursor({ clienteId, mes, createdAt, requestId })!,
    },
  ];
  const p = await paginaIntercalada<RequisicaoRecord, ChaveDoLog>(
    fontes.map((f) => f.ler),
    {
      perPage: pagina.limite,
      posicao: pagina.cursor ?? undefined,
      // Only the old-form sources hold other services' lines; the service's own partitions pass it all.
      aceita: servico === undefined ? undefined : (r) => r.servico === servico,
      chave: (r) => [r.createdAt, r.requestId],
      comparar: compararLog,
      apos: (fonte, chave) => fontes[fonte]!.apos(chave),
      validarChave: (k): k is ChaveDoLog => Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string',
    },
  );
  return { data: p.items, cursor: p.posicao };
}

/**
 * Writes request-log items as they are (BatchWriteItem): synthetic months for the report tests and the
 * volume bench. Never used by a request path: a request is logged only through `cobrar`, with its counter.
 */
export async function gravarRequisicoes(items: Omit<RequisicaoRecord, 'expiresAt' | 'shard'>[]): Promise<void> {
  const comTtl = items.map((r) => ({ ...r, expiresAt: Math.floor(Date.parse(r.createdAt) / 1000) + LOG_TTL_SECONDS, shard: shardDoLog(r.requestId) }));
  const { unprocessed } = await db().entities.requisicao.put(comTtl).go({ concurrency: 8 });
  if (unprocessed.length > 0) throw new Error(`${unprocessed.length} log items were not written`);
}

type ChaveNaoEncontrada = [data: string, id: string];
const chaveNaoEncontrada = (n: NaoEncontradaRecord): ChaveNaoEncontrada => [n.data, n.id];
const compararNaoEncontradas = (a: ChaveNaoEncontrada, b: ChaveNaoEncontrada) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
const eChaveNaoEncontrada = (k: unknown): k is ChaveNaoEncontrada => Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string';

/** A UF's not-found look-ups of a month, oldest first. Tests only: the screen pages them (naoEncontradasDaUfEntre). */
export async function naoEncontradasDaUf(uf: string, mes: string): Promise<NaoEncontradaRecord[]> {
  // Bounded: used by tests on a UF's month of their own; the screen reads naoEncontradasDaUfEntre's pages.
  // Every shard of the UF index and the partition of the records indexed before the shards, in parallel.
  const pages = await Promise.all([
    // Bounded: tests only, on a UF's month of their own (the screen pages naoEncontradasDaUfEntre).
    ...Array.from({ length: NAO_ENCONTRADA_UF_SHARDS }, (_, shard) => db().entities.naoEncontrada.query.byUf({ uf, mes, shard }).go({ pages: 'all' })),
    // Bounded: the same month's records of before the shards.
    dbAntigo().entities.naoEncontradaSemShard.query.byUf({ uf, mes }).go({ pages: 'all' }),
  ]);
  return pages.flatMap((p) => p.data as NaoEncontradaRecord[]).sort((a, b) => compararNaoEncontradas(chaveNaoEncontrada(a), chaveNaoEncontrada(b)));
}

/**
 * One page of a UF's not-found look-ups between two instants (ISO, both included), newest first. The
 * months (`meses`, newest first) follow one another (`paginaEmSequencia`); within a month the UF index's
 * NAO_ENCONTRADA_UF_SHARDS partitions and the one of the records indexed before the shards (each record
 * is in exactly one) are read in parallel, each a key-range Query newest first, and merged by
 * (instant, id) (`paginaIntercalada`), so the page is in order and lists each record once. The position
 * is the month and, in it, the last record's (instant, id), from which every partition of the month
 * resumes. `aceita` is the filter no key holds (part of the key, status), applied in a bounded read loop
 * (platform/paginas.ts).
 */
export async function naoEncontradasDaUfEntre(
  uf: string,
  meses: readonly string[],
  de: string,
  ate: string,
  pagina: { perPage: number; posicao?: string | undefined; aceita?: ((n: NaoEncontradaRecord) => boolean) | undefined },
): Promise<Pagina<NaoEncontradaRecord>> {
  const novo = db().entities.naoEncontrada;
  const antigo = dbAntigo().entities.naoEncontradaSemShard;
  const doMes =
    (mes: string): Ler<NaoEncontradaRecord> =>
    async (desde, limite) => {
      // Each partition is read in batches of about its share of what the month is asked for (with a
      // margin: the id's hash spreads the records evenly), so the merge reads little it does not use;
      // a partition that runs out before the page is full is read again (bounded by the merge).
      const porFonte = Math.min(limite, Math.ceil((limite * 3) / (2 * NAO_ENCONTRADA_UF_SHARDS)) + 2);
      // '~' sorts after every id, so a look-up at exactly `ate` is in.
      const fontes: Ler<NaoEncontradaRecord>[] = [
        ...Array.from({ length: NAO_ENCONTRADA_UF_SHARDS }, (_, shard): Ler<NaoEncontradaRecord> => async (cursor) => {
          const r = await novo.query.byUf({ uf, mes, shard }).between({ data: de }, { data: `${ate}~` }).go({ order: 'desc', limit: porFonte, cursor: cursor ?? null });
          return { data: r.data, cursor: r.cursor };
        }),
        async (cursor) => {
          const r = await antigo.query.byUf({ uf, mes }).between({ data: de }, { data: `${ate}~` }).go({ order: 'desc', limit: porFonte, cursor: cursor ?? null });
          return { data: r.data as NaoEncontradaRecord[], cursor: r.cursor };
        },
      ];
      const p = await paginaIntercalada<NaoEncontradaRecord, ChaveNaoEncontrada>(fontes, {
        perPage: limite,
        posicao: desde,
        chave: chaveNaoEncontrada,
        // Newest first: the greater key comes first.
        comparar: (a, b) => compararNaoEncontradas(b, a),
        apos: (fonte, [data, id]) =>
          fonte < NAO_ENCONTRADA_UF_SHARDS
            ? createConversions(novo).byAccessPattern.byUf.fromComposite.toCursor({ uf, mes, shard: fonte, data, id })!
            : createConversions(antigo).byAccessPattern.byUf.fromComposite.toCursor({ uf, mes, data, id })!,
        validarChave: eChaveNaoEncontrada,
      });
      return { data: p.items, cursor: p.posicao };
    };
  // A month's position is its merge's (the last record's key): the one just after a record is its key.
  return paginaEmSequencia<NaoEncontradaRecord>(meses.map(doMes), (_, n) => JSON.stringify(chaveNaoEncontrada(n)), pagina);
}

/**
 * The instants of a client's not-found look-ups of a month, oldest first. The local demo's seeding only
 * (it checks what it wrote for the demo client); the monitoring's error series reads the daily counters.
 */
export async function instantesNaoEncontradasDoCliente(clienteId: string, mes: string): Promise<string[]> {
  // Bounded: the demo client's seeded month (infra/local/demo-consumo.ts), never a route. Every shard of
  // the client index and the partition of the records indexed before the shards, in parallel.
  const pages = await Promise.all([
    ...Array.from({ length: NAO_ENCONTRADA_CLIENTE_SHARDS }, (_, shardCliente) =>
      // Bounded: the demo client's seeded month (infra/local/demo-consumo.ts), never a route.
      db().entities.naoEncontrada.query.byCliente({ clienteId, mes, shardCliente }).go({ pages: 'all', attributes: ['data'] }),
    ),
    // Bounded: the same month's records of before the shards.
    dbAntigo().entities.naoEncontradaSemShard.query.byCliente({ clienteId, mes }).go({ pages: 'all', attributes: ['data'] }),
  ]);
  return pages
    .flatMap((p) => p.data.map((n) => n.data))
    .sort();
}

/**
 * What adds an old-form counter's or day counter's count to its new-form item: the UpdateItem of that
 * addition, for the migration (infra/migrations/chaves-particionadas.ts) to run in one transaction
 * with the old item's conditional delete. A counter stored before it had shards goes to shard 0.
 */
export function somaNoContador(k: { clienteId: string; mes: string; servico: number; uf: string; shard?: number | undefined; requisicoes?: number | undefined }) {
  return db().entities.contador.upsert({ clienteId: k.clienteId, mes: k.mes, servico: k.servico, uf: k.uf, shard: k.shard ?? 0 }).add({ requisicoes: k.requisicoes ?? 0 }).params();
}

export function somaNoDiario(d: { clienteId: string; mes: string; dia: string; tipo: 'sucesso' | 'erro'; shard?: number | undefined; quantidade?: number | undefined; expiresAt?: number | undefined }) {
  return db()
    .entities.diario.upsert({ clienteId: d.clienteId, mes: d.mes, dia: d.dia, tipo: d.tipo, shard: d.shard ?? 0 })
    .add({ quantidade: d.quantidade ?? 0 })
    .set(d.expiresAt ? { expiresAt: d.expiresAt } : {})
    .params();
}

/** The items of before issue 36, as stored then: for the migration's test, which writes some. */
export const formaAntiga = {
  contador: () => db().entities.contadorAntigo,
  diario: () => db().entities.diarioAntigo,
  requisicao: () => db().entities.requisicaoSemShard,
  /** The log item as indexed before the service was in the key (issue 38). */
  requisicaoSemServico: () => db().entities.requisicaoSemServico,
  naoEncontrada: () => db().entities.naoEncontradaSemShard,
};
