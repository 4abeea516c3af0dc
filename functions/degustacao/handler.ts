import * as degustacao from '@plac/shared/contracts/degustacao';
import { captchaValido } from '../clientes';
import { invalid } from '../platform/errors';
import { httpApi } from '../platform/http';
import * as service from './service';

/**
 * The trial area's routes. The registration reuses the clients' captcha (the challenge is GET
 * /api/v1/captcha of the clients context; each solved one is accepted once). The trial look-ups are
 * public for API Gateway: the service checks the trial access token of DEGUSTACAO_HEADER itself.
 */

/** API Gateway lower-cases header names; the twin does too, but be lenient. */
function trialToken(headers: Record<string, string | undefined>): string | undefined {
  return headers[degustacao.DEGUSTACAO_HEADER] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === degustacao.DEGUSTACAO_HEADER)?.[1];
}

export const handler = httpApi(degustacao, {
  registerClienteTeste: async ({ body, sourceIp }) => {
    await service.contarCadastro(sourceIp, body.email);
    if (!(await captchaValido(body.recaptcha))) throw invalid('captchaInvalido');
    const { aceite_termo: _aceite, recaptcha: _captcha, ...dados } = body;
    return service.cadastrar(dados);
  },
  validateTokenTeste: async ({ body, sourceIp }) => service.autorizar(body, sourceIp),
  chavesDegustacao: async ({ headers }) => service.chaves(trialToken(headers)),
  consultarFaturaDegustacao: async ({ headers, params }) => service.consultar(trialToken(headers), params.chave),
  listClientesTeste: async ({ query, principal }) => service.listar(query, principal),
  updateClienteTeste: async ({ principal, params, body }) => service.alterarSituacao(principal, params.id, body.situacao),
});
