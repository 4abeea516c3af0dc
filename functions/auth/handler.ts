import * as auth from '@plac/shared/contracts/auth';
import { httpApi, Reply } from '../platform/http';
import * as service from './service';

/**
 * The logins and the logout are what a cold start loads (service.ts: no table layer, issue 39); the
 * password reset and the second factor's screens load their modules on first use.
 */
const users = () => import('../users');
const segundoFator = () => import('./segundo-fator');

export const handler = httpApi(auth, {
  loginSefaz: async ({ body, sourceIp }) => service.loginSefaz(body.email, body.password, sourceIp),
  clientLoginType: async ({ body, sourceIp }) => {
    const tipo = await service.clientLoginType(body.email, sourceIp);
    return new Reply({ tipo }, { status: tipo === 'senha' ? 210 : 209 });
  },
  loginCliente: async ({ body, sourceIp }) => service.loginCliente(body.email, body.password, sourceIp),
  loginCertificadoCliente: async ({ body, clientCertPem }) => service.loginCertificadoCliente(body.email, clientCertPem),
  loginCertificadoEmissor: async ({ clientCertPem }) => service.loginCertificadoEmissor(clientCertPem),
  passwordEmail: async ({ body, sourceIp }) => service.passwordEmail(body.email, sourceIp),
  passwordReset: async ({ body }) => (await users()).resetPassword(body.email, body.token, body.password),
  logout: async ({ sid }) => service.logout(sid),
  loginSegundoFator: async ({ body }) => service.loginSegundoFator(body.desafio, body.codigo),
  segundoFator: async ({ principal }) => (await segundoFator()).situacao(principal.userId),
  iniciarSegundoFator: async ({ principal, body }) => (await segundoFator()).iniciar(principal, body.senha),
  confirmarSegundoFator: async ({ principal, body }) => (await segundoFator()).confirmar(principal, body.codigo),
  segundoFatorDoUsuario: async ({ params }) => (await segundoFator()).situacaoDoUsuario(params.id),
  redefinirSegundoFator: async ({ params, principal }) => (await segundoFator()).redefinir(params.id, principal),
});
