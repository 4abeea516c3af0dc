import * as clientes from '@plac/shared/contracts/clientes';
import { HttpError } from '../platform/errors';
import { httpApi } from '../platform/http';
import { contratoDoCliente } from './contrato';
import * as service from './service';

export const handler = httpApi(clientes, {
  allClientes: async () => service.todosClientes(),
  listClientes: async ({ query }) => service.list(query),
  getCliente: async ({ principal, params }) => service.get(principal, params.id),
  updateCliente: async ({ principal, params, body }) => service.update(principal, params.id, body),
  contratoCliente: async ({ params }) => contratoDoCliente(params.id),
  prazoSemCertificado: async () => ({ dias: await service.prazoPadraoDias() }),
  listWebhooks: async ({ principal, params }) => service.webhooksDoCliente(principal, params.cnpj),
  segredoWebhook: async ({ principal, params }) => service.segredoWebhookInfo(principal, params.cnpj),
  gerarSegredoWebhook: async ({ principal, params }) => service.gerarSegredoWebhook(principal, params.cnpj),
  createWebhook: async ({ principal, body }) => withMessage('webhookCadastroFalhou', () => service.criarWebhook(principal, body)),
  updateWebhook: async ({ principal, body }) => withMessage('webhookAtualizacaoFalhou', () => service.atualizarWebhook(principal, body)),
  deleteWebhook: async ({ principal, query }) => service.removerWebhook(principal, query.id),
});

/** Unexpected failures of the monitoring form answer the product's own failure texts for that form. */
async function withMessage<T>(key: 'webhookCadastroFalhou' | 'webhookAtualizacaoFalhou', run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(500, key);
  }
}
