import type { Principal } from '@plac/shared/access';
import * as clientes from '@plac/shared/contracts/clientes';
import { HttpError, invalid } from '../platform/errors';
import { httpApi } from '../platform/http';
import { captchaValido, newChallenge } from './captcha';
import * as users from '../users/service';
import { contratoDoCliente } from './contrato';
import * as service from './service';

/**
 * The users context as the clients service needs it (service.UsuariosDoCliente). The handler is the
 * composition root: the service never imports users, whose service reads clients.
 */
const CADASTRO_PUBLICO: Principal = { userId: 'sistema', name: 'Cadastro público', tipo: 'S', roles: ['sefaz_admin'] };
const usuariosDoCliente: service.UsuariosDoCliente = {
  criarResponsavel: ({ name, email, roles, clienteId }) =>
    users.create({ name, email, tipo_usuario: 'C', roles, cliente_id: clienteId }, CADASTRO_PUBLICO, { notify: false }),
  enviarAcessos: (clienteId) => users.sendAccessEmails(clienteId),
};

export const handler = httpApi(clientes, {
  captchaChallenge: async () => (await newChallenge()) as unknown as { parameters: Record<string, unknown>; signature?: string },
  registerCliente: async ({ body }) => {
    if (!(await captchaValido(body.recaptcha))) throw invalid('captchaInvalido');
    return service.register(body, usuariosDoCliente);
  },
  allClientes: async () => service.todosClientes(),
  listClientes: async ({ query }) => service.list(query),
  getCliente: async ({ principal, params }) => service.get(principal, params.id),
  updateCliente: async ({ principal, params, body }) => service.update(principal, params.id, body),
  liberarCliente: async ({ principal, params }) => service.liberar(principal, params.id, usuariosDoCliente),
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
