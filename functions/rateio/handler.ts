import * as rateio from '@plac/shared/contracts/rateio';
import { httpApi } from '../platform/http';
import { bancos } from './service';

export const handler = httpApi(rateio, {
  listBancos: async () => bancos.listar(),
  searchBancos: async ({ params }) => bancos.buscar(params.search),
  createBanco: async ({ body, principal }) => bancos.criar(body, principal),
  updateBanco: async ({ body, principal }) => bancos.alterar(body, principal),
});
