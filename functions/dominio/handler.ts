import * as dominio from '@plac/shared/contracts/dominio';
import { httpApi } from '../platform/http';
import { buscarCidades, siglasUf, ufsCompletas } from './service';

export const handler = httpApi(dominio, {
  ufs: async () => siglasUf(),
  ufsCompletas: async () => ufsCompletas(),
  cidades: async ({ params }) => buscarCidades(params.uf, params.text),
});
