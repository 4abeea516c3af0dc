import { escapeHtml, portalUrl, sendMail } from '../platform/mail';
import { logger } from '../platform/observability';
import * as endpoints from './endpoint-store';

/**
 * Pausing a failing endpoint (docs/webhooks.md "Pausing a failing endpoint"). An endpoint is failing
 * continuously when a delivery to it used up every retry (≥ 24 h of attempts) and the endpoint
 * accepted no delivery since that delivery was created: then it is paused, once, and the client is
 * told by e-mail. While paused, its deliveries are held (PAUSADA), not posted; resuming from the portal
 * enqueues them again.
 */

export interface Falha {
  deliveryId: string;
  clienteId: string;
  operacao: string;
  razaoSocial?: string | undefined;
  dataCriacao: string;
  url: string;
  email?: string | undefined;
}

/**
 * The rule: no success of the endpoint since the failed delivery was created. The mark is written at
 * most once a minute per container (endpoint-store.ts), so a success up to a minute after it may not be recorded:
 * a mark less than a minute before the creation counts as a success since, so a stale mark never
 * pauses an endpoint that was accepting (at worst the pause waits for the next exhausted delivery).
 */
export function falhaContinua(ultimoSucesso: string | null, dataCriacao: string): boolean {
  if (ultimoSucesso === null) return true;
  return Date.parse(ultimoSucesso) + endpoints.SUCESSO_INTERVALO_MS < Date.parse(dataCriacao);
}

/** After a delivery's last retry failed: pauses its endpoint when the rule says so. True when this call paused it. */
export async function avaliarPausa(f: Falha, agora = new Date()): Promise<boolean> {
  if (!falhaContinua(await endpoints.ultimoSucesso(f.clienteId, f.operacao), f.dataCriacao)) return false;
  const pausou = await endpoints.pausar({
    clienteId: f.clienteId,
    operacao: f.operacao,
    ...(f.razaoSocial ? { razaoSocial: f.razaoSocial } : {}),
    pausadoEm: agora.toISOString(),
    motivoEntrega: f.deliveryId,
    url: f.url,
  });
  if (!pausou) return false;
  logger.warn('webhook endpoint paused', { clienteId: f.clienteId, operacao: f.operacao, deliveryId: f.deliveryId });
  if (f.email) {
    try {
      await sendMail(avisoDePausa(f));
    } catch (error) {
      // The pause stands and shows in the portal even if the notice could not be sent.
      logger.error('webhook pause notice not sent', { clienteId: f.clienteId, error: (error as Error).message });
    }
  }
  return true;
}

export function avisoDePausa(f: Falha) {
  const link = portalUrl('/app/monitoramento-webhook');
  const texto =
    `O endereço de webhook da operação ${f.operacao} (${f.url}) não aceitou nenhuma entrega por mais de 24 horas ` +
    `e foi pausado. As novas mensagens ficam guardadas e serão enviadas quando o envio for retomado.`;
  return {
    to: [f.email!],
    subject: 'PLAC Fat-e: envio de webhook pausado',
    text: `${texto}\n\nCorrija o endereço e retome o envio em Monitoramento de Webhook:\n${link}`,
    html: `<p>${escapeHtml(texto)}</p><p>Corrija o endereço e retome o envio em <a href="${escapeHtml(link)}">Monitoramento de Webhook</a>.</p>`,
  };
}
