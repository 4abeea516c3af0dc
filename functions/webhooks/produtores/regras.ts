import { createHash } from 'node:crypto';
import type { DocumentoArmazenado } from '@plac/shared/contracts/documento-armazenado';
import { OPERACOES_WEBHOOK, type OperacaoWebhook } from '@plac/shared/domain';
import type { NovaEntregaWebhook } from '../fila';

/**
 * The producers' fan-out rules, pure (docs/webhooks.md, "Producers"): from one stored document and
 * the clients it concerns, the webhook deliveries to enqueue. No I/O here: destinatarios.ts reads
 * who the clients are.
 *
 * - EVENTO (0): an event of a key, to every client monitoring that key.
 * - ESCR_FAT (1): a Fat-e, to the IMF clients named by its drawer's (issuer's) consent.
 * - ESCR_EVENTO (2): an event of a stored Fat-e, to those same clients; it depends on the client's
 *   ESCR_FAT delivery of that key when the client receives ESCR_FAT, so it never arrives first —
 *   unless the Fat-e was published more than JANELA_ORDEM_MS before: its delivery was then long
 *   delivered or given up, or never made (the configuration came later), and waiting for it would
 *   only hold the event until it fails.
 * - TRANSPORTE_FAT (3) / TRANSPORTE_EVENTO (4): the same for the IMF clients named by the consent
 *   of the Fat-e's carrier.
 * - A client gets an operation only when it has a webhook configuration for it.
 * - An event whose Fat-e is not stored (it came first, or the NF-e has no bill) goes only to EVENTO:
 *   there is no Fat-e to name its drawer or carrier, and the Fat-e stored later is delivered with
 *   its cancellation in it (situacao CANCELADA), so nothing arrives before the Fat-e it refers to.
 * Delivery ids are deterministic, so the same document produced twice makes the same deliveries.
 */

/** Who a document concerns, as the I/O side found them. */
export interface Destinatarios {
  /** Clients monitoring the key (EVENTO). */
  monitoram: readonly string[];
  /** IMF clients named by the drawer's consent (ESCR_*). */
  sacador: readonly string[];
  /** IMF clients named by the carrier's consent (TRANSPORTE_*). */
  transporte: readonly string[];
  /** The operations each client has a configuration for. */
  configuradas: ReadonlyMap<string, ReadonlySet<OperacaoWebhook>>;
  /** The clients' company names, for the delivery log. */
  razaoSocial: ReadonlyMap<string, string>;
}

/** Version of the delivery body; a change of its shape is a new version (docs/webhooks.md). */
export const VERSAO_CORPO = 1;
/**
 * How long after its Fat-e was published an event still waits for the Fat-e's delivery: longer than
 * the dispatcher's retries of one delivery (≥ 26.5 h, docs/webhooks.md "Retries").
 */
export const JANELA_ORDEM_MS = 48 * 3_600_000;

/** The monitoring API takes ids of at most 100 characters from [A-Za-z0-9_-]. */
const ID_MAXIMO = 100;

const idOperacao = (operacao: OperacaoWebhook) => OPERACOES_WEBHOOK.find((o) => o.operacao === operacao)!.id;

/**
 * `<operation id 0-4>-<key>[-<event type>]-<client id>`: the same for the same delivery, whoever
 * produces it and however often; a client id too long for the 100 characters is replaced by the
 * first 16 hex digits of its SHA-256.
 */
export function deliveryId(operacao: OperacaoWebhook, clienteId: string, chave: string, tpEvento?: string): string {
  const prefixo = `${idOperacao(operacao)}-${chave}${tpEvento ? `-${tpEvento}` : ''}`;
  const id = `${prefixo}-${clienteId}`;
  return id.length <= ID_MAXIMO ? id : `${prefixo}-${createHash('sha256').update(clienteId).digest('hex').slice(0, 16)}`;
}

function para(
  clientes: readonly string[],
  operacao: OperacaoWebhook,
  d: Destinatarios,
  fazer: (clienteId: string) => Omit<NovaEntregaWebhook, 'clienteId' | 'operacao' | 'razaoSocial'>,
): NovaEntregaWebhook[] {
  return [...new Set(clientes)]
    .filter((c) => d.configuradas.get(c)?.has(operacao))
    .sort()
    .map((clienteId) => {
      const razaoSocial = d.razaoSocial.get(clienteId);
      return { ...fazer(clienteId), clienteId, operacao, ...(razaoSocial ? { razaoSocial } : {}) };
    });
}

export function entregasDe(doc: DocumentoArmazenado, d: Destinatarios, agora: Date = new Date()): NovaEntregaWebhook[] {
  if (doc.tipo === 'FATE') {
    const fate = doc.fate;
    const corpo = (operacao: OperacaoWebhook) => ({ versao: VERSAO_CORPO, tipo: 'FATE', operacao, chave: doc.chave, uf: fate.uf, fate });
    const descricao = `Fat-e ${fate.numero}/${fate.serie} de ${fate.emitente.nome} (${doc.chave})`;
    return [
      ...para(d.sacador, 'ESCR_FAT', d, (c) => ({ deliveryId: deliveryId('ESCR_FAT', c, doc.chave), payload: corpo('ESCR_FAT'), descricao })),
      ...(fate.transportador
        ? para(d.transporte, 'TRANSPORTE_FAT', d, (c) => ({ deliveryId: deliveryId('TRANSPORTE_FAT', c, doc.chave), payload: corpo('TRANSPORTE_FAT'), descricao }))
        : []),
    ];
  }
  const { evento } = doc;
  const corpo = (operacao: OperacaoWebhook) => ({ versao: VERSAO_CORPO, tipo: 'EVENTO', operacao, chave: doc.chave, uf: doc.uf, evento });
  const descricao = `${evento.descricao} da chave ${doc.chave}`;
  // A Fat-e not yet published (stored in the same load) or published recently: its delivery may be in flight.
  const publicada = doc.fate?.publicadoEm ? Date.parse(doc.fate.publicadoEm) : null;
  const esperar = publicada === null || agora.getTime() - publicada < JANELA_ORDEM_MS;
  const eventoDe = (operacao: OperacaoWebhook, fatura: OperacaoWebhook) => (c: string) => ({
    deliveryId: deliveryId(operacao, c, doc.chave, evento.id ?? evento.tpEvento),
    payload: corpo(operacao),
    descricao,
    // Per-client ordering: held until this client's delivery of the Fat-e is made.
    ...(esperar && d.configuradas.get(c)?.has(fatura) ? { dependeDe: deliveryId(fatura, c, doc.chave) } : {}),
  });
  return [
    ...para(d.monitoram, 'EVENTO', d, (c) => ({ deliveryId: deliveryId('EVENTO', c, doc.chave, evento.id ?? evento.tpEvento), payload: corpo('EVENTO'), descricao })),
    ...(doc.fate ? para(d.sacador, 'ESCR_EVENTO', d, eventoDe('ESCR_EVENTO', 'ESCR_FAT')) : []),
    ...(doc.fate?.transportadorDoc ? para(d.transporte, 'TRANSPORTE_EVENTO', d, eventoDe('TRANSPORTE_EVENTO', 'TRANSPORTE_FAT')) : []),
  ];
}
