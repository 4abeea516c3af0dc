import * as consentimento from '@plac/shared/contracts/consentimento';
import { httpApi } from '../platform/http';
import * as service from './service';

export const handler = httpApi(consentimento, {
  getTermo: async ({ principal }) => service.getTermo(principal),
  salvarTermo: async ({ body, principal }) => service.salvarTermo(body, principal),
  removerTermo: async ({ body, principal }) => service.removerTermo(body, principal),
  filtrarEmissores: async ({ body, principal }) => service.filtrarEmissores(body, principal),
  detalharEmissor: async ({ params, principal }) => service.detalharEmissor(params.cnpj, principal),
  historicoEmissor: async ({ params, principal }) => service.historicoEmissor(params.cnpj, principal),
  opcoes: async ({ query, principal }) => service.opcoes(principal, query),
  filtrarTransporte: async ({ body, principal }) => service.filtrarTransporte(body, principal),
});
