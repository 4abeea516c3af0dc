import * as monitoramento from '@plac/shared/contracts/monitoramento';
import { httpApi } from '../platform/http';
import * as service from './service';

export const handler = httpApi(monitoramento, {
  listarChavesMonitoradas: async ({ query, principal }) => service.listar(principal, query),
  cadastrarChaveMonitorada: async ({ body, principal }) => service.cadastrar(principal, body),
  removerChaveMonitorada: async ({ params, query, principal }) => service.remover(principal, params.chave, query.idCliente),
});
