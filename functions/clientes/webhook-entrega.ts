import { decryptSecret } from '../platform/crypto';
import * as store from './store';
import { WEBHOOK_SECRET_PURPOSE, WEBHOOK_SIGNING_PURPOSE } from './webhook-secrets';

/*
 * The part of the clients context the webhooks context calls (the dispatcher, the monitoring API),
 * apart from service.ts so that their bundles do not carry the rest of the context (the contract
 * PDF, the registration).
 */

/**
 * For the webhook dispatcher, at send time: the client's configuration of a kind with the password and
 * the signing secret in clear, and whom to tell when the endpoint is paused (the configuration's
 * e-mail, else the client's).
 */
export async function webhookParaEntrega(clienteId: string, operacaoId: number) {
  const w = await store.findWebhook(clienteId, operacaoId);
  if (!w) return null;
  const [segredo, cliente] = await Promise.all([store.segredoWebhookDe(clienteId), w.email ? null : store.findCliente(clienteId)]);
  const email = w.email ?? cliente?.email;
  return {
    url: w.url,
    ...(email ? { email } : {}),
    ...(w.usuario && w.senhaCifrada ? { basicAuth: { user: w.usuario, password: await decryptSecret(WEBHOOK_SECRET_PURPOSE, w.senhaCifrada) } } : {}),
    ...(segredo ? { signingSecret: await decryptSecret(WEBHOOK_SIGNING_PURPOSE, segredo.cifrado) } : {}),
  };
}

