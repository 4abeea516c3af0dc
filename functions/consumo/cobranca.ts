import { randomUUID } from 'node:crypto';
import { foldText, monthOf, todayInBahia } from '@plac/shared/domain';
import { clienteResumo } from '../clientes/direto';
import { config } from '../platform/env';
import { transactWithRetry } from '../platform/escritas';
import { criar, transacao, upsert } from '../platform/tabela-direta';
import {
  CONTADOR_SHARDS,
  LOG_TTL_SECONDS,
  MODELO_CLIENTE_DO_MES,
  MODELO_CONSUMO_SERVICO,
  MODELO_CONTADOR,
  MODELO_DIARIO,
  MODELO_NAO_ENCONTRADA,
  MODELO_REQUISICAO,
  SERVICO_SHARDS,
  shardClienteDaNaoEncontrada,
  shardDaNaoEncontrada,
  shardDoLog,
} from './modelos';
import type { NaoEncontradaRecord } from './store';

/**
 * The charge of a look-up or a metered use, and the record of a look-up that found nothing: the
 * metering's writes on every look-up, made without the table layer (platform/tabela-direta.ts) so that
 * the integrator's look-up does not load ElectroDB at its cold start (issue 39). They write the items
 * store.ts's entities read (the same models, modelos.ts); tabela-direta.int.test.ts holds each
 * transaction's items to the ones ElectroDB's own transaction wrote.
 *
 * Every look-up that finds data is charged once to (client, service, origin UF of the document, month
 * in Bahia time); a retry with the same idempotency key is not charged again; a key that is not found
 * is recorded for the not-found screens and not charged.
 */

export interface Cobranca {
  requestId: string;
  clienteId: string;
  mes: string;
  servico: number;
  uf: string;
  chave: string;
  createdAt: string;
  /**
   * The client's listing in the month (`clienteDoMes`), written with this charge: given by the caller
   * for the first charge of a (client, month, service) it makes, left out afterwards.
   */
  marcador?: { nome: string } | undefined;
}

/** 'YYYY-MM-DD' of an ISO instant in Bahia time (the months and days of metering are Bahia's). */
export function diaNaBahia(iso: string): string {
  return todayInBahia(new Date(iso));
}

/**
 * Charges one request: its log item is created (refused when that request id is already there) and one
 * shard of its counter is added to, in one transaction, so a request is counted exactly once however
 * often it is retried, and never lost between the two writes.
 */
export async function cobrar(c: Cobranca): Promise<'cobrada' | 'repetida'> {
  const shard = Math.floor(Math.random() * CONTADOR_SHARDS);
  const expiresAt = Math.floor(Date.parse(c.createdAt) / 1000) + LOG_TTL_SECONDS;
  const { marcador, ...requisicao } = c;
  const doMes = { clienteId: c.clienteId, mes: c.mes };
  const result = await transactWithRetry(
    () =>
      transacao([
        criar(MODELO_REQUISICAO, { ...requisicao, expiresAt, shard: shardDoLog(c.requestId) }),
        // The month's counter by service, for the list of every client's consumption (SERVICO_SHARDS).
        upsert(MODELO_CONSUMO_SERVICO, { ...doMes, servico: c.servico, shard: shard % SERVICO_SHARDS }, { add: { requisicoes: 1 } }),
        ...(marcador ? [upsert(MODELO_CLIENTE_DO_MES, { ...doMes, nome: marcador.nome }, { add: { servicos: [c.servico] } })] : []),
        // upsert, not update: it writes the index keys (by UF, by month) on the counter's first increment too.
        upsert(MODELO_CONTADOR, { ...doMes, servico: c.servico, uf: c.uf, shard }, { add: { requisicoes: 1 } }),
        // The day's counter, in the same transaction: counted exactly when the log item is created.
        upsert(MODELO_DIARIO, { ...doMes, dia: diaNaBahia(c.createdAt), tipo: 'sucesso', shard }, { add: { quantidade: 1 }, set: { expiresAt } }),
      ]),
    8,
  );
  if (!result.canceled) return 'cobrada';
  if (result.data[0]?.code === 'ConditionalCheckFailed') return 'repetida';
  throw new Error(`charging ${c.requestId} was cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/**
 * The (table, month, client, service) whose listing this instance already wrote (`clienteDoMes`,
 * store.ts): the first charge of each carries it, the others do not, so the listing costs a few
 * writes per instance and month instead of one per request. Remembered only once its charge is
 * written (a cancelled one wrote nothing). Bounded by the clients × services active in a month.
 */
const listados = new Set<string>();

/** Charges with the client's listing in the month when this instance has not written it yet. */
export async function cobrarListado(c: Omit<Cobranca, 'marcador'>): Promise<'cobrada' | 'repetida'> {
  const chave = `${config.tableName}|${c.mes}|${c.clienteId}|${c.servico}`;
  if (listados.has(chave)) return cobrar(c);
  // The name orders the list; a client the registry does not know (deleted) is listed by its id.
  const nome = foldText((await clienteResumo(c.clienteId))?.razao_social ?? c.clienteId);
  const resultado = await cobrar({ ...c, marcador: { nome } });
  if (resultado === 'cobrada') listados.add(chave);
  return resultado;
}

export interface Consulta {
  clienteId: string;
  /** idModuloServico of the catalogue (functions/servicos). */
  servico: number;
  /** Origin UF of the document found. */
  uf: string;
  /** The access key looked up, or the batch line. */
  chave: string;
  /** The caller's idempotency key; without one every call is a new request. */
  idempotencyKey?: string | undefined;
  agora?: Date;
}

/** Charges a look-up that found data: 'repetida' when that idempotency key was already charged. */
export async function cobrarConsulta(c: Consulta): Promise<'cobrada' | 'repetida'> {
  const agora = c.agora ?? new Date();
  // An idempotency key is the client's own: two clients may well send the same one.
  const requestId = c.idempotencyKey ? `${c.clienteId}:${c.idempotencyKey}` : randomUUID();
  return cobrarListado({
    requestId,
    clienteId: c.clienteId,
    mes: monthOf(agora),
    servico: c.servico,
    uf: c.uf,
    chave: c.chave,
    createdAt: agora.toISOString(),
  });
}

export interface NaoEncontrada {
  uf: string;
  chnfe: string;
  servico: number;
  status: string;
  clienteId: string;
  cnpj: string;
  razaoSocial: string;
  agora?: Date;
}

/** Records a look-up that found nothing (not charged). */
export async function registrarNaoEncontrada(n: NaoEncontrada): Promise<void> {
  const agora = n.agora ?? new Date();
  await gravarNaoEncontrada({
    id: randomUUID(),
    uf: n.uf,
    mes: monthOf(agora),
    data: agora.toISOString(),
    chnfe: n.chnfe,
    servico: n.servico,
    status: n.status,
    clienteId: n.clienteId,
    cnpj: n.cnpj,
    razaoSocial: n.razaoSocial,
  });
}

/**
 * Records a not-found look-up and adds it to its day's counter in one transaction (the record's id is
 * new each time, so the create and the increment happen together or not at all).
 */
export async function gravarNaoEncontrada(record: Omit<NaoEncontradaRecord, 'expiresAt' | 'shard' | 'shardCliente'>): Promise<void> {
  const expiresAt = Math.floor(Date.parse(record.data) / 1000) + LOG_TTL_SECONDS;
  const shard = Math.floor(Math.random() * CONTADOR_SHARDS);
  const result = await transactWithRetry(
    () =>
      transacao([
        // The index shards from the id (NAO_ENCONTRADA_UF_SHARDS, NAO_ENCONTRADA_CLIENTE_SHARDS): its entries spread over them.
        criar(MODELO_NAO_ENCONTRADA, { ...record, expiresAt, shard: shardDaNaoEncontrada(record.id), shardCliente: shardClienteDaNaoEncontrada(record.id) }),
        upsert(MODELO_DIARIO, { clienteId: record.clienteId, mes: record.mes, dia: diaNaBahia(record.data), tipo: 'erro', shard }, { add: { quantidade: 1 }, set: { expiresAt } }),
      ]),
    8,
  );
  if (result.canceled) throw new Error(`recording not-found ${record.id} was cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}
