import * as instituicoes from '@plac/shared/contracts/instituicoes';
import { httpApi } from '../platform/http';
import * as service from './service';

export const handler = httpApi(instituicoes, {
  filtrarInstituicoes: async ({ body, principal }) => service.filtrar(body, principal),
  getInstituicao: async ({ params }) => service.get(params.id),
  createInstituicaoAdmin: async ({ body, principal }) => service.adminCreate(body, principal),
  updateInstituicaoAdmin: async ({ body, principal }) => service.adminUpdate(body, principal),
  autocompleteInstituicoes: async ({ query, principal }) => service.autocomplete(query.razaoSocial, principal),
  top5Instituicoes: async ({ principal }) => service.top5(principal),
  createInstituicaoPendente: async ({ body, principal }) => service.createPendente(body, principal),
  clientesAutorizacao: async ({ principal }) => service.clientesOpcoes(principal),
  listAutorizacoes: async ({ body, principal }) => service.listAutorizacoes(body, principal),
  getAutorizacao: async ({ query, principal }) => service.getAutorizacao(query, principal),
  createAutorizacao: async ({ body, principal }) => service.createAutorizacao(body, principal),
  updateAutorizacao: async ({ body, principal }) => service.updateAutorizacao(body, principal),
  emissorAutocomplete: async ({ query, principal }) => service.emissorAutocomplete(query.razaoSocial, principal),
  emissorTop5: async ({ principal }) => service.emissorTop5(principal),
  emissorCreate: async ({ body, principal }) => service.emissorCreate(body, principal),
  emissorUpdate: async ({ body, principal }) => service.emissorUpdate(body, principal),
  emissorDelete: async ({ body, principal }) => service.emissorDelete(body, principal),
});
