import type { Principal } from '@plac/shared/access';
import { vistaDoRelatorio as vista, type VistaRelatorio } from '../consumo';
import { iniciarDetalhamento } from './detalhamento-job';
import { faturaVisivel } from './service';

/**
 * The invoice's detail, detalhamento_fatura.zip (spec 2 sections 7 and 9): one CSV per service with
 * every charged request of the invoice's month for its client, from the request log, each the
 * consumption report's CSV (';', UTF-8 with a BOM, CRLF, the CSV-injection guard, the totals by service
 * and UF). Optionally one service only. Written by a report job (functions/consumo/relatorio-job.ts)
 * streaming into the documents bucket: the whole invoice's once, when the billing run issues it; this
 * route answers that job (202): done, with a presigned URL, or its progress. Who may: as the invoice's
 * detail (faturaVisivel).
 */
export async function gerar(faturaId: string, principal: Principal, idModuloServico?: number): Promise<VistaRelatorio> {
  const f = await faturaVisivel(faturaId, principal);
  return vista(await iniciarDetalhamento(f, idModuloServico));
}
