import { createHash } from 'node:crypto';
import { SERVICO, splitChaveAcesso, UFS, type StatusNaoEncontrada } from '@plac/shared/domain';
import { comCessoes } from '../cessao/direto';
import * as consumo from '../consumo/direto';
import * as fate from '../fate/direto';
import { HttpError } from '../platform/errors';
import { exigirServico, type Chamador } from './chamador';

/**
 * The look-ups. Each checks the service for the caller, reads the Fat-e context's service, and charges
 * the client exactly once when it found data (functions/consumo: a counter of client, service, origin
 * UF of the document and month, and the request log). A key that is not found is recorded for the
 * not-found screens and not charged; an invalid request is refused before anything is read. The
 * authority's staff look up without a client: nothing is charged or recorded for them.
 *
 * No charge without an answer (issue 37): the charge is each look-up's last step, written once the
 * whole answer is built (the assignments, the evidence, the page's cursor read or sealed). A read that
 * fails after the data was found answers an error and charges nothing, so the client's retry (with
 * the same Idempotency-Key or without one) is charged once. What is charged (service, UF, key or
 * line, month of `agora`) is what it was when the charge came first: all of it is known once the
 * data is found.
 *
 * This module is the look-up by key (service 1) and what every look-up shares: the charge and the
 * not-found record. It reaches the other contexts' reads and writes that need no table layer, so an
 * integrator's look-up by key loads no ElectroDB at its cold start (issue 39); the other look-ups
 * (service.ts) are loaded by their first request.
 */

export interface Pedido {
  chamador: Chamador;
  /** Who asks, for binding page cursors: `cliente:<id>` or `usuario:<id>`. */
  titular: string;
  /** The Idempotency-Key header: a retry with the same key and the same look-up is charged once. */
  idempotencyKey?: string | undefined;
  agora?: Date;
  /**
   * A CSV batch's lines' charges (functions/consulta/lote.ts): when present, a look-up adds its charge
   * here instead of writing it, and the batch writes them all once every line is answered, so a batch
   * that fails on a later line has charged none of the earlier ones.
   */
  cobrancasAdiadas?: (() => Promise<unknown>)[];
}

/** What a look-up that found data is charged: the service, the origin UF and the key (or line) logged. */
interface Cobranca {
  servico: number;
  uf: string;
  chave: string;
}

/** Charges the client for a look-up whose answer is built (the last step of every look-up); the staff are never charged. */
export async function cobrar(p: Pedido, { servico, uf, chave }: Cobranca): Promise<void> {
  const cliente = p.chamador.cliente;
  if (!cliente) return;
  const escrever = () =>
    consumo.cobrarConsulta({
      clienteId: cliente.id,
      servico,
      uf,
      chave,
      // The key counts once per look-up it was sent with: the same key reused for another key or line is
      // another request (charged), never a free one.
      idempotencyKey: p.idempotencyKey ? `${p.idempotencyKey}:${digest(`${servico}|${chave}`)}` : undefined,
      ...(p.agora ? { agora: p.agora } : {}),
    });
  if (p.cobrancasAdiadas) p.cobrancasAdiadas.push(escrever);
  else await escrever();
}

export function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * A key not found (NAO_ENCONTRADA), or a batch line that is not a valid key (CHAVE_INVALIDA): recorded
 * under the UF of its first two digits for the client's not-found list; a text without a UF code there
 * cannot be listed by UF and is only answered.
 */
export async function registrarNaoEncontrada(p: Pedido, servico: number, chave: string, status: StatusNaoEncontrada = 'NAO_ENCONTRADA'): Promise<void> {
  const cliente = p.chamador.cliente;
  const cuf = splitChaveAcesso(chave)?.cUF ?? chave.slice(0, 2);
  const uf = UFS.find((u) => String(u.codigo) === cuf)?.uf;
  if (!cliente || !uf) return;
  await consumo.registrarNaoEncontrada({
    uf,
    chnfe: chave.slice(0, 60),
    servico,
    status,
    clienteId: cliente.id,
    cnpj: cliente.cnpj,
    razaoSocial: cliente.razao_social,
    ...(p.agora ? { agora: p.agora } : {}),
  });
}

export const naoEncontrada = () => new HttpError(404, 'fateNaoEncontrada');

/** The Fat-e of a key, or 404 recorded as not found. Not charged here: the caller charges once its answer is built. */
export async function fateDaChave(p: Pedido, servico: number, chave: string) {
  await exigirServico(p.chamador, servico);
  const f = await fate.fatePorChave(chave);
  if (!f) {
    await registrarNaoEncontrada(p, servico, chave);
    throw naoEncontrada();
  }
  return f;
}

/**
 * Service 1: the Fat-e of an access key (a cancelled one is answered, with situacao CANCELADA), each
 * instalment with its registered assignment (functions/cessao) or null. Charged after the assignments
 * are read.
 */
export async function fatePorChave(p: Pedido, chave: string) {
  const f = await fateDaChave(p, SERVICO.fatePorChave, chave);
  const resposta = await comCessoes(fate.fateView(f));
  await cobrar(p, { servico: SERVICO.fatePorChave, uf: f.uf, chave });
  return resposta;
}

