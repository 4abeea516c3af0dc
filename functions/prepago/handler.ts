import * as prepago from '@plac/shared/contracts/prepago';
import { novoDae } from '../dae';
import { httpApi } from '../platform/http';
import * as service from './service';

export const handler = httpApi(prepago, {
  listarEscrituradores: async ({ principal }) => service.escrituradores(principal),
  cotarReserva: async ({ query }) => service.cotar(query),
  cadastrarReserva: async ({ body, principal }) => service.cadastrar(novoDae, principal, body),
  listarDaesPrepagos: async ({ query, principal }) => service.daes(principal, query),
  imprimirDaePrepago: async ({ params, principal }) => service.imprimir(novoDae, principal, params.id),
  contaRequisicoes: async ({ query, principal }) => service.conta(principal, query.cnpj),
  extratoRequisicoes: async ({ query, principal }) => service.extrato(principal, query),
});
