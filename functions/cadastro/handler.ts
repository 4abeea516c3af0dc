import type { Principal } from '@plac/shared/access';
import * as cadastro from '@plac/shared/contracts/cadastro';
import * as clientes from '../clientes';
import { invalid } from '../platform/errors';
import { httpApi } from '../platform/http';
import * as users from '../users';

/**
 * A client's onboarding: the public registration (behind the captcha) and the Sefaz administrator's
 * unlock. The clients context keeps the rules (a Novo client with its responsible person, both or
 * nothing; Novo → Ativo) and names what it needs of the users context as a port (UsuariosDoCliente);
 * this entry hands it the users context's front door. The users context reads clients, so neither
 * imports the other back: the two meet only here, in a context above both.
 */
const CADASTRO_PUBLICO: Principal = { userId: 'sistema', name: 'Cadastro público', tipo: 'S', roles: ['sefaz_admin'] };
const usuariosDoCliente: clientes.UsuariosDoCliente = {
  criarResponsavel: ({ name, email, roles, clienteId }) =>
    users.create({ name, email, tipo_usuario: 'C', roles, cliente_id: clienteId }, CADASTRO_PUBLICO, { notify: false }),
  enviarAcessos: (clienteId) => users.sendAccessEmails(clienteId),
};

export const handler = httpApi(cadastro, {
  captchaChallenge: async () => (await clientes.novoDesafio()) as unknown as { parameters: Record<string, unknown>; signature?: string },
  registerCliente: async ({ body }) => {
    if (!(await clientes.captchaValido(body.recaptcha))) throw invalid('captchaInvalido');
    return clientes.registrarCliente(body, usuariosDoCliente);
  },
  liberarCliente: async ({ principal, params }) => clientes.liberarCliente(principal, params.id, usuariosDoCliente),
});
