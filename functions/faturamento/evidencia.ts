import type { Principal } from '@plac/shared/access';
import { iniciarRelatorio, vistaDoRelatorio, type VistaRelatorio } from '../consumo';
import { HttpError } from '../platform/errors';
import { faturaVisivel } from './service';

/**
 * A past month's evidence (issue 41, docs/arquivo.md): the invoice's month of charged requests as the
 * consumption report's CSV, written by a report job from the archive's Parquet parts — so it exists
 * for as long as the archive keeps the month (five years and a month), after the request log has
 * expired from the table. One job per invoice, archive and week (`semana`): a week's requests share one
 * file, the next week's first request makes it again, and the documents bucket's lifecycle removes it
 * after 14 days (prefix `evidencias/`). Who may: as the invoice's detail (faturaVisivel); a month not
 * archived whole yet is answered 409 'evidenciaNaoArquivada'.
 */
const SEMANA_MS = 7 * 86_400_000;
export async function gerar(faturaId: string, principal: Principal, agora = Date.now()): Promise<VistaRelatorio> {
  const f = await faturaVisivel(faturaId, principal);
  if (!f.arquivo) throw new HttpError(409, 'evidenciaNaoArquivada');
  const versao = f.arquivo.arquivadoEm.replace(/\D/g, '').slice(0, 14);
  const semana = Math.floor(agora / SEMANA_MS);
  const jobId = `evid-${f.faturaId}-${versao}-${semana}`;
  const job = await iniciarRelatorio({
    jobId,
    tipo: 'evidencia',
    clienteId: f.clienteId,
    cliente: { razaoSocial: f.razaoSocial, cnpj: f.cnpj },
    mes: f.mes,
    faturaId: f.faturaId,
    chave: `evidencias/${f.clienteId}/${f.faturaId}/${versao}-${semana}.csv`,
    nomeArquivo: `evidencias_${f.mes}.csv`,
    arquivo: { partes: f.arquivo.partesRequisicoes, linhas: f.arquivo.linhasRequisicoes },
  });
  return vistaDoRelatorio(job);
}
