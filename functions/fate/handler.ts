import * as fate from '@plac/shared/contracts/fate';
import { httpApi } from '../platform/http';
import * as documentosErro from './documentos-erro';
import * as monitoramento from './monitoramento';

/**
 * The batch import (the Sefaz's distribution call, its SOAP and NF-e XML parsers, the ingestion) is
 * loaded by its first request (issue 39): the monitoring screens' cold start does not load it.
 */
const lote = () => import('./lote');

export const handler = httpApi(fate, {
  listSefaz: async () => monitoramento.listaSefaz(),
  monitoramento: async ({ query }) => monitoramento.monitoramento(query.fluxo),
  monitoramentoEvento: async ({ query }) => monitoramento.monitoramento(query.fluxo),
  historicoMes: async ({ params, query, principal }) => monitoramento.historicoMes(params.mes, monitoramento.tipoPermitido(query.tipo, principal), query.fluxo),
  historicoPeriodo: async ({ params, query, principal }) =>
    monitoramento.historicoPeriodo(params.a, params.b, monitoramento.tipoPermitido(query.tipo, principal), query.fluxo),
  historicoDia: async ({ params, query, principal }) =>
    monitoramento.historicoDia(params.a, params.b, monitoramento.tipoPermitido(query.tipo, principal), query.fluxo),
  importarLote: async ({ body, principal }) => (await lote()).importar(body, principal),
  filtrarDocumentosErro: async ({ query, principal }) => documentosErro.filtrar(query, principal),
  removerDocumentoErro: async ({ params, principal }) => documentosErro.remover(params.id, principal),
  baixarDocumentoErro: async ({ params, principal }) => documentosErro.baixar(params.id, principal),
});
