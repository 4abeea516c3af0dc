import { clientes } from '@plac/shared/contracts';
import { httpApi } from '../platform/http';
import { todosClientes } from './service';

export const handler = httpApi(clientes, {
  allClientes: async () => todosClientes(),
});
