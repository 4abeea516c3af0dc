import { randomUUID } from 'node:crypto';
import { foldText, monthOf } from '@plac/shared/domain';
import * as clientes from '../clientes';
import { config } from '../platform/env';
import * as prepago from '../prepago';
import * as store from './store';

/**
 * Metering of the look-ups: every look-up that finds data is charged once to (client, service, origin
 * UF of the document, month in Bahia time); a retry with the same idempotency key is not charged
 * again; a key that is not found is recorded for the not-found screens and not charged. The billing
 * run reads the counters (`contadoresDoMes`) and the invoice detail the request log.
 */

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

/**
 * The (table, month, client, service) whose listing this instance already wrote (`clienteDoMes`,
 * store.ts): the first charge of each carries it, the others do not, so the listing costs a few
 * writes per instance and month instead of one per request. Remembered only once its charge is
 * written (a cancelled one wrote nothing). Bounded by the clients × services active in a month.
 */
const listados = new Set<string>();

async function cobrarListado(c: Omit<store.Cobranca, 'marcador'>): Promise<'cobrada' | 'repetida'> {
  const chave = `${config.tableName}|${c.mes}|${c.clienteId}|${c.servico}`;
  if (listados.has(chave)) return store.cobrar(c);
  // The name orders the list; a client the registry does not know (deleted) is listed by its id.
  const nome = foldText((await clientes.clienteResumo(c.clienteId))?.razao_social ?? c.clienteId);
  const resultado = await store.cobrar({ ...c, marcador: { nome } });
  if (resultado === 'cobrada') listados.add(chave);
  return resultado;
}

export interface Medicao {
  /**
   * What makes this metering happen once: a webhook delivery's id, a monitored key's registration.
   * It is kept apart from the callers' idempotency keys (which are scoped by the client's id) by a
   * prefix no client id can have ('#').
   */
  chave: string;
  clienteId: string;
  /** idModuloServico of the catalogue (functions/servicos). */
  servico: number;
  /** Origin UF of the document. */
  uf: string;
  /** The access key of the document. */
  documento: string;
  agora?: Date;
}

/**
 * Meters one use of a service that is not a look-up (a Fat-e sent by webhook, a key registered for
 * monitoring, an assignment registered): counted once per `chave`, however often the caller retries
 * ('repetida' then). A bookkeeper's prepaid balance pays first (functions/prepago, docs/prepago.md):
 * a use it paid is not counted for the monthly invoice; a use it does not cover is counted as usual.
 * A use already counted for the monthly invoice is never offered to the balance again (a retry after
 * a reservation was paid would otherwise be charged twice).
 */
export async function medirUso(m: Medicao): Promise<'cobrada' | 'repetida'> {
  const agora = m.agora ?? new Date();
  const requestId = `#medicao:${m.chave}`;
  if (await store.requisicaoExiste(requestId)) return 'repetida';
  const pagador = await prepago.pagarUso({ chave: m.chave, clienteId: m.clienteId, servico: m.servico, agora });
  if (pagador === 'prepago') return 'cobrada';
  if (pagador === 'prepago-repetido') return 'repetida';
  return cobrarListado({
    requestId,
    clienteId: m.clienteId,
    mes: monthOf(agora),
    servico: m.servico,
    uf: m.uf,
    chave: m.documento,
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
  await store.gravarNaoEncontrada({
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
