import * as webhooks from '@plac/shared/contracts/webhooks';
import { httpApi } from '../platform/http';
import * as service from './service';

export const handler = httpApi(webhooks, {
  mensagensWebhook: async ({ query, principal }) => service.mensagens(principal, query),
  consultarMensagensWebhook: async ({ body, principal }) => service.mensagensPorCnpj(principal, body),
  tentativasWebhook: async ({ params, principal }) => service.tentativas(principal, params.deliveryId),
  reenviarWebhook: async ({ params, principal }) => service.reenviar(principal, params.deliveryId),
  reenviarFalhasWebhook: async ({ body, principal }) => service.reenviarFalhas(principal, body),
  jobWebhook: async ({ params, principal }) => service.job(principal, params.jobId),
  pausasWebhook: async ({ query, principal }) => service.pausas(principal, query.idCliente),
  retomarWebhook: async ({ params, principal }) => service.retomar(principal, params.idCliente, params.operacao),
});
