import { monthOf } from '@plac/shared/domain';
import { cobrarListado } from './cobranca';
import * as prepago from '../prepago';
import * as store from './store';

/**
 * Metering of the look-ups: every look-up that finds data is charged once to (client, service, origin
 * UF of the document, month in Bahia time); a retry with the same idempotency key is not charged
 * again; a key that is not found is recorded for the not-found screens and not charged. The billing
 * run reads the counters (`contadoresDoMes`) and the invoice detail the request log.
 */

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
