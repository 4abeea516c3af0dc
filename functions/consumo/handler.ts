import * as consumo from '@plac/shared/contracts/consumo';
import { httpApi } from '../platform/http';
import * as relatorio from './relatorio';
import * as telas from './telas';

export const handler = httpApi(consumo, {
  consumoPorCliente: async ({ query, principal }) => telas.consumoPorCliente(principal, query),
  relatorioConsumo: async ({ params, query, principal }) => relatorio.gerar(principal, params.idCliente, query),
  relatorioJob: async ({ params, principal }) => relatorio.situacao(principal, params.idRelatorio),
  consumoPorUf: async ({ query, principal }) => telas.consumoPorUf(principal, query),
  statusNaoEncontradas: async () => telas.statusNaoEncontradas(),
  naoEncontradas: async ({ query, principal }) => telas.naoEncontradas(principal, query),
  monitoramentoConsumo: async ({ query, principal }) => telas.monitoramento(principal, query),
});
