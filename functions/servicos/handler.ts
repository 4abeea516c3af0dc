import * as servicos from '@plac/shared/contracts/servicos';
import { httpApi } from '../platform/http';
import * as service from './service';

export const handler = httpApi(servicos, {
  listServicos: async () => service.ativos(),
  allServicos: async () => service.todos(),
  updateServico: async ({ body, principal }) => service.update(body, principal),
  updateServicoStatus: async ({ body, principal }) => service.status(body, principal),
  updateServicoPortal: async ({ body, principal }) => service.portal(body, principal),
  ordenarServicos: async ({ body, principal }) => service.ordenar(body.lista, principal),
});
