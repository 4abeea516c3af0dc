import { createHash } from 'node:crypto';
import { Entity, type EntityItem } from 'electrodb';
import { createConversions } from 'electrodb';
import { LEITURAS_MAXIMAS, paginaEmSequencia, paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { DIAS_ATE_O_ARQUIVO, expiraAposDias } from '../platform/retencao';
import { isConditionalFailure, transactWithRetry } from '../platform/table';
import { MAX_RECEBIMENTOS } from './espera';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The webhook delivery log (docs/webhooks.md "Delivery log, monitoring and replay"): one `entrega`
 * item per delivery id and one `tentativa` item per attempt. The log's writes are conditional, so a
 * retried SQS message never counts an attempt twice and a delivery is created once.
 *
 * Reads are key lookups: by id (the table's key), and two indexes of the OPEN deliveries only
 * (docs/webhooks.md "The open-deliveries index"), which hold a small marker per delivery, never the
 * delivery itself: by client (gsi1, PARTES_DO_CLIENTE shards per client) and for all clients (gsi2,
 * FILAS_ABERTAS shards), both chosen by the delivery id's hash. A delivery gets its marker when an
 * attempt of it fails or it is held, and loses it when delivered: a delivery delivered at its first
 * attempt writes no index partition, and no monitoring list reads past delivered deliveries.
 */

/** SQS receives of one message before the dead-letter queue (the retry schedule's, functions/webhooks/espera.ts). */
export const MAX_TENTATIVAS = MAX_RECEBIMENTOS;

/** Stand-in client of a delivery whose producer named none (the index key cannot be empty). */
export const SEM_CLIENTE = 'sem-cliente';

/** PAUSADA: held, not posted, while its endpoint is paused (docs/webhooks.md); resuming enqueues it again. */
export const SITUACOES = ['PENDENTE', 'FALHA', 'ENTREGUE', 'PAUSADA'] as const;
export type Situacao = (typeof SITUACOES)[number];

/** Open: still the platform's to deliver (the index keys exist only then). */
export const ABERTAS: readonly Situacao[] = ['PENDENTE', 'FALHA', 'PAUSADA'];
export const aberta = (s: Situacao | undefined) => s !== undefined && ABERTAS.includes(s);

/**
 * A delivery's hash, from which both of its shards come: stable, so every write of one delivery names
 * the same shards, and spread evenly whatever the ids look like.
 */
const hashDe = (deliveryId: string) => createHash('sha256').update(deliveryId).digest();

/**
 * Shards of the all-clients open index (gsi2). At most one marker write per delivery attempt
 * (docs/webhooks.md "Partition load"): 5,000 deliveries a second platform-wide, all failing or all
 * delivered after a failure, are 5,000 WCU/s, 156 per shard: 16 % of a partition's 1,000.
 */
export const FILAS_ABERTAS = 32;

/**
 * Shards of one client's open index (gsi1): one client at 2,000 deliveries a second, all failing (or
 * a resume delivering 2,000 held ones a second), is 2,000 marker writes a second, 200 per shard: 20 %.
 */
export const PARTES_DO_CLIENTE = 10;

const dois = (n: number) => String(n).padStart(2, '0');

/** The all-clients shard of a delivery (the hash's first 4 bytes). */
export function filaDe(deliveryId: string): string {
  return dois(hashDe(deliveryId).readUInt32BE(0) % FILAS_ABERTAS);
}

/** The client shard of a delivery (the hash's next 4 bytes, independent of its `fila`). */
export function parteDe(deliveryId: string): string {
  return dois(hashDe(deliveryId).readUInt32BE(4) % PARTES_DO_CLIENTE);
}

export const FILAS = Array.from({ length: FILAS_ABERTAS }, (_, i) => dois(i));
export const PARTES = Array.from({ length: PARTES_DO_CLIENTE }, (_, i) => dois(i));

/**
 * The replay window: a failed delivery is looked for and replayed within the product's 90-day period
 * (the monitoring list and the bulk replay cover at most 90 days: service.ts PERIODO_MAXIMO_DIAS).
 */
export const JANELA_DE_REENVIO_DIAS = 90;

/**
 * The log's end date (the table's TTL), the same on a delivery, its attempts and its marker, so none
 * outlives the others: the replay window plus the wait for the evidence archive (DIAS_ATE_O_ARQUIVO)
 * after the delivery's creation. An ESCR_FAT or TRANSPORTE_FAT delivery is charged when delivered
 * (medicao.ts), possibly by a replay late in the window; the archive job of the month of that charge
 * copies the delivery (what was sent, when, the attempts and the last answer) to S3, where it is kept
 * five years and a month as the charge's evidence (functions/arquivo, issue 41). Before the archive the
 * log stayed 490 days for the dispute window; now 135: about 0.4 TB at 25 million deliveries a month.
 */
export const DIAS_DO_LOG = JANELA_DE_REENVIO_DIAS + DIAS_ATE_O_ARQUIVO;

/** The end date of a delivery created at `dataCriacao`, of its attempts and of its marker. */
export const expiraEntrega = (dataCriacao: string) => expiraAposDias(dataCriacao, DIAS_DO_LOG);

const entrega = entidadeSobDemanda(() => new Entity({
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
    /** Its open marker was written (an attempt failed, or it was held): delivered, the marker is deleted. */
    indexada: { type: 'boolean' },
    /** The all-clients shard of the index form before the markers: items written then carry it; nothing reads it. */
    fila: { type: 'string' },
    /** TTL (epoch seconds): `expiraEntrega(dataCriacao)`, DIAS_DO_LOG after its creation. */
    expiresAt: { type: 'number' },
  },
  // No index: the delivery (2–3 KB with its body) is never projected into an index partition.
  indexes: { byId: { pk: { field: 'pk', composite: ['deliveryId'] }, sk: { field: 'sk', composite: [] } } },
}));

/**
 * The open marker of a delivery: its keys and the operation (the resume's filter), well under 1 KB,
 * beside the delivery in its own partition (`$webhooks#deliveryid_<id>`, sk `$webhookmarcador_1`), and
 * in the two open indexes: the client's (gsi1, `$webhooks#clienteid_<id>#parte_<00..09>`) and all
 * clients' (gsi2, `$webhooks#fila_<00..31>`), both by creation instant. Written before the delivery
 * is first recorded as failed or held, deleted after it is delivered; never changed in between (the
 * situation is the delivery's own, read when a list or a job takes the marker), so a delivery's whole
 * life costs each index partition at most two writes of ≤ 1 KB.
 */
const marcador = entidadeSobDemanda(() => new Entity({
  model: { entity: 'webhookMarcador', version: '1', service: 'webhooks' },
  attributes: {
    deliveryId: { type: 'string', required: true },
    clienteId: { type: 'string', required: true },
    operacao: { type: 'string', required: true },
    dataCriacao: { type: 'string', required: true },
    parte: { type: 'string', required: true },
    fila: { type: 'string', required: true },
    /** TTL: its delivery's (a marker of a delivery gone would only be skipped and deleted when met). */
    expiresAt: { type: 'number' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['deliveryId'] }, sk: { field: 'sk', composite: [] } },
    doCliente: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['clienteId', 'parte'] },
      sk: { field: 'gsi1sk', composite: ['dataCriacao', 'deliveryId'] },
    },
    daFila: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['fila'] },
      sk: { field: 'gsi2sk', composite: ['dataCriacao', 'deliveryId'] },
    },
  },
}));

const tentativa = entidadeSobDemanda(() => new Entity({
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
    /**
     * Written before the POST (issue 42): true until the attempt's outcome is recorded. An attempt whose
     * process died during the POST stays so, and the log still shows it (service.ts tentativas).
     */
    emCurso: { type: 'boolean' },
    /** TTL: its delivery's (`expiraEntrega` of the delivery's creation, not of the attempt's instant). */
    expiresAt: { type: 'number' },
  },
  indexes: {
    byDelivery: { pk: { field: 'pk', composite: ['deliveryId'] }, sk: { field: 'sk', composite: ['mensagemId', 'recebimento'] } },
  },
}));

const entities = { entrega, marcador, tentativa };
const db = servicoSobDemanda(entities);

export type EntregaRecord = EntityItem<typeof entrega>;
export type MarcadorRecord = EntityItem<typeof marcador>;
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

/**
 * What a write that may open a delivery needs to know of it: its marker's keys, and whether the
 * marker was written already (`indexada`, as last read: the dispatcher reads the delivery first).
 */
export interface ChavesDaEntrega {
  deliveryId: string;
  clienteId: string;
  operacao: string;
  dataCriacao: string;
  indexada?: boolean | undefined;
}

/** The marker of a delivery: its keys and both shards. Exported for the unit tests of the keys. */
export const marcadorDe = (c: ChavesDaEntrega): MarcadorRecord => ({
  deliveryId: c.deliveryId,
  clienteId: c.clienteId,
  operacao: c.operacao,
  dataCriacao: c.dataCriacao,
  parte: parteDe(c.deliveryId),
  fila: filaDe(c.deliveryId),
  expiresAt: expiraEntrega(c.dataCriacao),
});

/** Writes the delivery's marker (a put: writing it again changes nothing). Exported for the migration. */
export async function abrirMarcador(c: ChavesDaEntrega): Promise<void> {
  await db().entities.marcador.put(marcadorDe(c)).go({ response: 'none' });
}

/** Deletes the delivery's marker (absent: nothing happens). */
export async function fecharMarcador(deliveryId: string): Promise<void> {
  await db().entities.marcador.delete({ deliveryId }).go({ response: 'none' });
}

/**
 * After a write that opened a marker was not applied (the delivery was not in the state it required):
 * the marker goes again if the delivery is delivered (or absent), so it leaves no index entry behind.
 */
async function fecharSeEntregue(deliveryId: string): Promise<void> {
  const e = await lerEntrega(deliveryId);
  if (!e || e.situacao === 'ENTREGUE') await fecharMarcador(deliveryId);
}

/** Creates the delivery's log item, with its end date, unless it exists (a retry or a replay of the same id): idempotent. No index entry. */
export async function registrarEntrega(nova: NovaEntrega): Promise<void> {
  try {
    await db()
      .entities.entrega.create({ ...nova, tentativas: 0, situacao: 'PENDENTE', expiresAt: expiraEntrega(nova.dataCriacao) })
      .go({ response: 'none' });
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

const entregou = (t: Pick<Tentativa, 'status'>) => t.status !== undefined && t.status >= 200 && t.status < 300;

/**
 * What an attempt does to the delivery's marker (docs/webhooks.md "The open-deliveries index"):
 * - 'abrir': it failed and the delivery has no marker yet, so the marker is written first;
 * - 'fechar': it delivered a delivery that has one, so the marker is deleted after;
 * - 'nada': otherwise: a delivery delivered at its first attempt never touches an index, and a retry
 *   that fails again leaves the marker as it is.
 */
export function marcadorApos(t: Pick<Tentativa, 'status'>, indexada: boolean | undefined): 'abrir' | 'fechar' | 'nada' {
  if (entregou(t)) return indexada ? 'fechar' : 'nada';
  return indexada ? 'nada' : 'abrir';
}

/**
 * Records one attempt and, in the same transaction, counts it on the delivery: the attempt item is
 * created only if absent, so the redelivery of an attempt already recorded changes nothing (false).
 * A delivered delivery is never set back to pending or failed.
 *
 * The marker is written before the delivery says `indexada` (no open delivery without its marker),
 * and deleted only after the delivery says ENTREGUE, which is final. A crash between leaves at worst
 * a marker of a delivered delivery: the next receive of the same message deletes it (the dispatcher),
 * and a list or a job that meets one skips and deletes it.
 */
/**
 * The attempt, recorded before its POST (issue 42): a process that dies while the receiver answers
 * leaves it in the log, marked in course, instead of leaving no trace of a POST the receiver may have
 * taken. Its outcome is written by `registrarTentativa`. Written once per receive: a repeat of the same
 * receive finds it there and goes on.
 */
export async function anunciarTentativa(t: Pick<Tentativa, 'deliveryId' | 'mensagemId' | 'recebimento' | 'instante'>, dataCriacao: string): Promise<void> {
  try {
    await db().entities.tentativa.create({ ...t, latenciaMs: 0, emCurso: true, expiresAt: expiraEntrega(dataCriacao) }).go();
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}

export async function registrarTentativa(t: Tentativa, conhecidas?: Omit<ChavesDaEntrega, 'deliveryId'>): Promise<boolean> {
  // The dispatcher knows the keys; another caller (a test, a tool) has them read.
  const chaves = conhecidas ?? (await lerEntrega(t.deliveryId));
  if (!chaves) return false;
  const acao = marcadorApos(t, chaves.indexada);
  if (acao === 'abrir') await abrirMarcador({ ...chaves, deliveryId: t.deliveryId });
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ entrega: e, tentativa: a }) => [
        // The attempt ends with its delivery. The delivery's patch sets only what the attempt changes: its end date stays.
        // Its outcome once: over the attempt recorded before the POST while still in course, or new (a caller without that record).
        a
          .put({ ...t, emCurso: false, expiresAt: expiraEntrega(chaves.dataCriacao) })
          .where((attr, { notExists, eq }) => `${notExists(attr.recebimento)} OR ${eq(attr.emCurso, true)}`)
          .commit(),
        e
          .patch({ deliveryId: t.deliveryId })
          .add({ tentativas: 1 })
          .set(valoresDaTentativa(t, acao))
          .where((attr, { ne }) => ne(attr.situacao, 'ENTREGUE'))
          .commit(),
      ])
      .go(),
  );
  if (result.canceled) {
    if (acao === 'abrir') await fecharSeEntregue(t.deliveryId);
    return false;
  }
  if (acao === 'fechar') await fecharMarcador(t.deliveryId);
  return true;
}

/** The delivery's side of an attempt: its situation after it, and `indexada` when this attempt opened the marker. */
export function valoresDaTentativa(t: Tentativa, acao: 'abrir' | 'fechar' | 'nada') {
  return {
    ultimaTentativa: t.instante,
    situacao: situacaoApos(entregou(t), t.recebimento),
    ultimoStatus: t.status !== undefined ? String(t.status) : (t.erro ?? 'erro'),
    ...(acao === 'abrir' ? { indexada: true } : {}),
  };
}

/** The entities, for the unit tests of the keys (params only, nothing is written) and the tools. */
export const entidadeEntrega = () => db().entities.entrega;
export const entidadeMarcador = () => db().entities.marcador;
export const entidadeTentativa = () => db().entities.tentativa;

export async function tentativasDe(deliveryId: string): Promise<TentativaRecord[]> {
  // Bounded: one delivery's attempts (MAX_TENTATIVAS at most: its first and its retries).
  const { data } = await db().entities.tentativa.query.byDelivery({ deliveryId }).go({ pages: 'all' });
  return data.sort((a, b) => a.instante.localeCompare(b.instante) || a.recebimento - b.recebimento);
}

type Chave = [string, string];
const chaveDe = (m: MarcadorRecord): Chave => [m.dataCriacao, m.deliveryId];
const ehChave = (k: unknown): k is Chave => Array.isArray(k) && k.length === 2 && k.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 200);

/** One key-range Query of one shard of the client's open markers (gsi1), created in [desde, ate]. */
function lerDaParte(clienteId: string, parte: string, desde: string, ate: string, order: 'asc' | 'desc'): Ler<MarcadorRecord> {
  return async (cursor, limite) => {
    const { data, cursor: next } = await db()
      .entities.marcador.query.doCliente({ clienteId, parte })
      .between({ dataCriacao: desde }, { dataCriacao: `${ate}\uffff` })
      .go({ order, limit: limite, cursor: cursor ?? null });
    return { data, cursor: next };
  };
}

/** One key-range Query of one shard of the all-clients open markers (gsi2). */
function lerDaFila(fila: string, desde: string, ate: string, order: 'asc' | 'desc'): Ler<MarcadorRecord> {
  return async (cursor, limite) => {
    const { data, cursor: next } = await db()
      .entities.marcador.query.daFila({ fila })
      .between({ dataCriacao: desde }, { dataCriacao: `${ate}\uffff` })
      .go({ order, limit: limite, cursor: cursor ?? null });
    return { data, cursor: next };
  };
}

/**
 * One client's shards merged by creation instant (platform/paginas.ts paginaIntercalada): the
 * PARTES_DO_CLIENTE Queries run together, so the client's list keeps one order, newest first (or
 * oldest first for a job), and its position is the last marker's key (instant and id).
 */
function paginaDoCliente(clienteId: string, desde: string, ate: string, order: 'asc' | 'desc', pagina: { perPage: number; posicao?: string | undefined }) {
  const conv = createConversions(db().entities.marcador);
  const sinal = order === 'desc' ? -1 : 1;
  return paginaIntercalada<MarcadorRecord, Chave>(
    PARTES.map((p) => lerDaParte(clienteId, p, desde, ate, order)),
    {
      ...pagina,
      chave: chaveDe,
      comparar: (a, b) => sinal * (a[0].localeCompare(b[0]) || a[1].localeCompare(b[1])),
      apos: (i, [dataCriacao, deliveryId]) => conv.byAccessPattern.doCliente.fromComposite.toCursor({ clienteId, parte: PARTES[i]!, dataCriacao, deliveryId })!,
      validarChave: ehChave,
    },
  );
}

/**
 * The deliveries of a page of markers, in the markers' order (one consistent BatchGetItem, each item
 * in its own partition). A marker whose delivery is delivered (or gone) was left by a crash or a race
 * (registrarTentativa): it is skipped and deleted, so a page may come out one short.
 */
/** The deliveries of these ids that exist, by id (BatchGetItem, what it leaves unprocessed asked again). */
export async function lerEntregas(ids: readonly string[]): Promise<Map<string, EntregaRecord>> {
  const lidas = new Map<string, EntregaRecord>();
  let faltam = [...new Set(ids)].map((deliveryId) => ({ deliveryId }));
  for (let vez = 0; faltam.length > 0; vez++) {
    if (vez > 0) await new Promise((resolve) => setTimeout(resolve, 50 * vez));
    const { data, unprocessed } = await db().entities.entrega.get(faltam).go({ consistent: true });
    for (const e of data) lidas.set(e.deliveryId, e);
    faltam = unprocessed.map((u) => ({ deliveryId: u.deliveryId }));
    if (vez === 5 && faltam.length > 0) throw new Error(`webhook log: ${faltam.length} deliveries not read`);
  }
  return lidas;
}

async function entregasDe(marcadores: readonly MarcadorRecord[]): Promise<EntregaRecord[]> {
  if (marcadores.length === 0) return [];
  const lidas = await lerEntregas(marcadores.map((m) => m.deliveryId));
  const velhos = marcadores.filter((m) => !aberta(lidas.get(m.deliveryId)?.situacao));
  await Promise.all(velhos.map((m) => fecharMarcador(m.deliveryId)));
  return marcadores.map((m) => lidas.get(m.deliveryId)).filter((e): e is EntregaRecord => aberta(e?.situacao));
}

/**
 * One page of the OPEN deliveries created in [desde, ate] (ISO instants), newest first, in the given
 * situations: of one client, its PARTES_DO_CLIENTE shards of gsi1 merged; of all clients, the
 * FILAS_ABERTAS shards of gsi2 merged (platform/paginas.ts paginaIntercalada, the position is the last
 * marker's instant and id). Only the markers are read from the indexes; the page's deliveries are then
 * read by id. A delivery is open here once an attempt of it failed or it was held: one still waiting
 * for its first attempt is in the queue, not listed (docs/webhooks.md "The open-deliveries index").
 * The situation filter is applied to the page's deliveries (the monitoring list asks for every open one).
 */
export async function paginaDeEntregas(
  filtro: { clienteId?: string | undefined; desde: string; ate: string; situacoes: readonly Situacao[] },
  pagina: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<EntregaRecord>> {
  const conv = createConversions(db().entities.marcador);
  const marcadores = filtro.clienteId
    ? await paginaDoCliente(filtro.clienteId, filtro.desde, filtro.ate, 'desc', pagina)
    : await paginaIntercalada<MarcadorRecord, Chave>(
        FILAS.map((f) => lerDaFila(f, filtro.desde, filtro.ate, 'desc')),
        {
          ...pagina,
          chave: chaveDe,
          // Newest first: the greater key comes first.
          comparar: (a, b) => b[0].localeCompare(a[0]) || b[1].localeCompare(a[1]),
          apos: (i, [dataCriacao, deliveryId]) => conv.byAccessPattern.daFila.fromComposite.toCursor({ fila: FILAS[i]!, dataCriacao, deliveryId })!,
          validarChave: ehChave,
        },
      );
  const entregas = await entregasDe(marcadores.items);
  return { items: entregas.filter((e) => filtro.situacoes.includes(e.situacao)), posicao: marcadores.posicao };
}

/**
 * Oldest first, from a job's position: one batch of the open deliveries of a client (its shards
 * merged), of every all-clients shard in turn, or of ONE index shard (`shard`: a client's `parte`
 * with `clienteId`, else an all-clients `fila`; what a job's shard worker reads), those of the operation asked (the marker says it)
 * read by id and kept when in the situation asked. Markers are read `perPage` at a time, then as many
 * as the batch still lacks, from where the last read stopped (so none is skipped), for at most
 * LEITURAS_MAXIMAS rounds: a batch is full unless the range ends or, among many others, few are of the
 * situation asked (then it is short, and the position has moved on: the job reads until it is null).
 */
export async function loteDeAbertas(
  filtro: { clienteId?: string | undefined; desde: string; ate: string; situacao: Situacao; operacao?: string | undefined; shard?: string | undefined },
  lote: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<EntregaRecord>> {
  const conv = createConversions(db().entities.marcador);
  const { clienteId, shard } = filtro;
  if (shard !== undefined && !(clienteId ? PARTES : FILAS).includes(shard)) throw new Error(`webhook log: no index shard ${shard}`);
  const ler = (perPage: number, posicao: string | undefined) =>
    shard !== undefined
      ? // One index shard (a job's shard worker, functions/webhooks/jobs.ts): one key range, oldest first.
        paginaEmSequencia<MarcadorRecord>(
          [clienteId ? lerDaParte(clienteId, shard, filtro.desde, filtro.ate, 'asc') : lerDaFila(shard, filtro.desde, filtro.ate, 'asc')],
          (_, m) =>
            clienteId
              ? conv.byAccessPattern.doCliente.fromComposite.toCursor({ ...m, parte: shard })!
              : conv.byAccessPattern.daFila.fromComposite.toCursor({ ...m, fila: shard })!,
          { perPage, posicao },
        )
      : clienteId
        ? paginaDoCliente(clienteId, filtro.desde, filtro.ate, 'asc', { perPage, posicao })
        : paginaEmSequencia<MarcadorRecord>(
            FILAS.map((f) => lerDaFila(f, filtro.desde, filtro.ate, 'asc')),
            (fonte, m) => conv.byAccessPattern.daFila.fromComposite.toCursor({ ...m, fila: FILAS[fonte]! })!,
            { perPage, posicao },
          );
  const items: EntregaRecord[] = [];
  let posicao = lote.posicao;
  for (let rodada = 0; rodada < LEITURAS_MAXIMAS && items.length < lote.perPage; rodada++) {
    // Each marker gives at most one delivery: asking for what is missing never overfills the batch.
    const marcadores = await ler(lote.perPage - items.length, posicao);
    const entregas = await entregasDe(marcadores.items.filter((m) => !filtro.operacao || m.operacao === filtro.operacao));
    items.push(...entregas.filter((e) => e.situacao === filtro.situacao));
    if (marcadores.posicao === null) return { items, posicao: null };
    posicao = marcadores.posicao;
  }
  return { items, posicao: posicao ?? null };
}

/** Changes a delivery's situation on condition that it is `de`: false when it is not (another writer won). */
async function mudarSituacao(deliveryId: string, de: Situacao, para: Situacao, indexada?: true): Promise<boolean> {
  try {
    await db()
      .entities.entrega.patch({ deliveryId })
      .set({ situacao: para, ...(indexada ? { indexada } : {}) })
      .where((attr, { eq }) => eq(attr.situacao, de))
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/**
 * A pending delivery held because its endpoint is paused: its marker first (unless it has one), so
 * the resume finds it. False when it was not pending (another writer won).
 */
export async function marcarPausada(conhecidas: Pick<ChavesDaEntrega, 'deliveryId'> & Partial<ChavesDaEntrega>): Promise<boolean> {
  // The dispatcher knows the keys and the marker; another caller (a test, a tool) has them read.
  const { deliveryId, clienteId, operacao, dataCriacao, indexada } = conhecidas;
  const e = clienteId && operacao && dataCriacao ? { deliveryId, clienteId, operacao, dataCriacao, indexada } : await lerEntrega(deliveryId);
  if (!e) return false;
  const abrir = !e.indexada;
  if (abrir) await abrirMarcador(e);
  const mudou = await mudarSituacao(e.deliveryId, 'PENDENTE', 'PAUSADA', abrir ? true : undefined);
  if (!mudou && abrir) await fecharSeEntregue(e.deliveryId);
  return mudou;
}

/**
 * A held delivery back to pending when its endpoint resumes: true once, so it is enqueued once. Its
 * marker stays (it is still open) until it is delivered.
 */
export const marcarRetomada = (e: Pick<ChavesDaEntrega, 'deliveryId'>) => mudarSituacao(e.deliveryId, 'PAUSADA', 'PENDENTE');

/**
 * A replay: a failed delivery back to pending, on condition that it is still failed. False otherwise
 * (delivered, or already pending again after another replay): so a replay is enqueued once.
 */
export const marcarReenvio = (e: Pick<ChavesDaEntrega, 'deliveryId'>) => mudarSituacao(e.deliveryId, 'FALHA', 'PENDENTE');
