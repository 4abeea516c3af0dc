import * as auth from '@plac/shared/contracts/auth';
import { httpApi, Reply } from '../platform/http';
import * as users from '../users';
import * as segundoFator from './segundo-fator';
import * as service from './service';

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
  passwordReset: async ({ body }) => users.resetPassword(body.email, body.token, body.password),
  logout: async ({ sid }) => service.logout(sid),
  loginSegundoFator: async ({ body }) => service.loginSegundoFator(body.desafio, body.codigo),
  segundoFator: async ({ principal }) => segundoFator.situacao(principal.userId),
  iniciarSegundoFator: async ({ principal, body }) => segundoFator.iniciar(principal, body.senha),
  confirmarSegundoFator: async ({ principal, body }) => segundoFator.confirmar(principal, body.codigo),
  segundoFatorDoUsuario: async ({ params }) => segundoFator.situacaoDoUsuario(params.id),
  redefinirSegundoFator: async ({ params, principal }) => segundoFator.redefinir(params.id, principal),
});
