import type { Principal } from '@plac/shared/access';
import { nsu15, ufByCodigo, type Fluxo } from '@plac/shared/domain';
import { forbidden, HttpError, invalid } from '../platform/errors';
import { importarLote } from './carga';
import { sefazAtivas } from './sefaz-ativas';
import { SefazIndisponivel } from './distribuicao';
import { FalhaSoap } from './soap';
import { listaSefaz } from './monitoramento';

/**
 * The batch import as the lote-processamento screen asks for it: an active Sefaz (a manager only the
 * own UF's), the range re-read through the load's own code, and the answer with what happened to each
 * document. A Sefaz that does not answer is a 502 with the catalogue's text, never a 500.
 */
export async function importar(body: { sefaz: number; fluxo: Fluxo; ultNSU: number; nsuFin: number }, principal: Principal) {
  const uf = ufByCodigo(body.sefaz);
  if (!uf || !sefazAtivas().includes(uf)) throw invalid('sefazInativa');
  if (!principal.roles.includes('sefaz_admin') && principal.uf !== uf) throw forbidden();
  try {
    const r = await importarLote(uf, body.ultNSU, body.nsuFin, body.fluxo);
    const { documentos, publicadoEm: _p, ...contagem } = r.ingestao;
    return {
      sefaz: listaSefaz().find((s) => s.sigla === uf)!,
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
    // A SOAP Fault is the service failing the call: for the operator, the Sefaz did not answer the request.
    if (error instanceof SefazIndisponivel || error instanceof FalhaSoap) throw new HttpError(502, 'sefazIndisponivel');
    throw error;
  }
}
