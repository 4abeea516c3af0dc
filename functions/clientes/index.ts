/**
 * The clients context's front door: a client's summary and look-ups by id or CNPJ, the lists the
 * monthly jobs walk, the IMF client of an institution, the webhook configuration a delivery is sent
 * with, the public forms' captcha, and the onboarding's rules (registration and unlock, with the port
 * UsuariosDoCliente the onboarding entry, functions/cadastro/handler.ts, fills from the users context). Other contexts import only this module
 * (functions/platform/dependencies.test.ts).
 */
export {
  clienteImfDaInstituicao,
  get as clienteDoChamador,
  idsEmAvaliacao,
  operacoesConfiguradas,
  todosClientes,
  register as registrarCliente,
  liberar as liberarCliente,
  type UsuariosDoCliente,
} from './service';
/** A client's summary by id or by CNPJ: key reads without the table layer (resumo.ts). */
export { clientePorCnpj, clienteResumo, type ClienteResumo } from './resumo';
export { webhookParaEntrega } from './webhook-entrega';
/** The id of the client registered with this CNPJ (normalized), or null. */
export { findClienteIdByCnpj as clienteIdPorCnpj } from './leituras';
export { captchaValido, newChallenge as novoDesafio } from './captcha';
