import * as fate from '@plac/shared/contracts/fate';
import { nsu15, ufByCodigo, type Fluxo, type Uf } from '@plac/shared/domain';
import type { Principal } from '@plac/shared/access';
import { forbidden, HttpError, invalid } from '../platform/errors';
import { httpApi } from '../platform/http';
import { importarLote, sefazAtivas } from './carga';
import { SefazIndisponivel } from './distribuicao';
import * as documentosErro from './documentos-erro';
import * as monitoramento from './monitoramento';

/** The events' monitoring is the administrator's only; the documents' is also the monitoring clients'. */
function tipoPermitido(tipo: monitoramento.TipoMonitoramento, principal: Principal): monitoramento.TipoMonitoramento {
  if (tipo === 'eventos' && !principal.roles.includes('sefaz_admin')) throw forbidden();
  return tipo;
}

async function lote(body: { sefaz: number; fluxo: Fluxo; ultNSU: number; nsuFin: number }, principal: Principal) {
  const uf = ufByCodigo(body.sefaz);
  if (!uf || !sefazAtivas().includes(uf)) throw invalid('sefazInativa');
  // A Sefaz manager imports only from the own UF's Sefaz.
  if (!principal.roles.includes('sefaz_admin') && principal.uf !== uf) throw forbidden();
  try {
    const r = await importarLote(uf as Uf, body.ultNSU, body.nsuFin, body.fluxo);
    const { documentos, publicadoEm: _p, ...contagem } = r.ingestao;
    return {
      sefaz: monitoramento.listaSefaz().find((s) => s.sigla === uf)!,
      fluxo: body.fluxo,
      ultNSU: nsu15(body.ultNSU),
      nsuFin: nsu15(body.nsuFin),
      cStat: r.cStat,
      xMotivo: r.xMotivo,
      maxNSU: r.maxNSU,
      contagem,
      documentos,
    };
  } catch (error) {
    if (error instanceof SefazIndisponivel) throw new HttpError(502, 'sefazIndisponivel');
    throw error;
  }
}

export const handler = httpApi(fate, {
  listSefaz: async () => monitoramento.listaSefaz(),
  monitoramento: async ({ query }) => monitoramento.monitoramento(query.fluxo),
  monitoramentoEvento: async ({ query }) => monitoramento.monitoramento(query.fluxo),
  historicoMes: async ({ params, query, principal }) => monitoramento.historicoMes(params.mes, tipoPermitido(query.tipo, principal), query.fluxo),
  historicoPeriodo: async ({ params, query, principal }) => monitoramento.historicoPeriodo(params.a, params.b, tipoPermitido(query.tipo, principal), query.fluxo),
  historicoDia: async ({ params, query, principal }) => monitoramento.historicoDia(params.a, params.b, tipoPermitido(query.tipo, principal), query.fluxo),
  importarLote: async ({ body, principal }) => lote(body, principal),
  filtrarDocumentosErro: async ({ query, principal }) => documentosErro.filtrar(query, principal),
  removerDocumentoErro: async ({ params, principal }) => documentosErro.remover(params.id, principal),
  baixarDocumentoErro: async ({ params, principal }) => documentosErro.baixar(params.id, principal),
});
