import { faturamento } from '@plac/shared/contracts';
import { MAX_NOTA_BYTES, tipoNotaDoNome, type TipoNota } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { callApi, callApiWithStatus } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { toast } from '../../lib/toast';

/**
 * The tax note's calls (docs/faturamento.md, "Tax notes and the detail ZIP"). Upload: the name's
 * extension and the size are checked here first (no call when they fail: spec 2 section 5), then
 * the API hands out a URL, the file is PUT to it and the upload confirmed; 'Upload realizado com
 * sucesso!' only when the confirmation answers 200 (spec 2 section 8). API refusals are shown by the
 * API client as toasts.
 */
export async function enviarNotaFiscal(idConsumo: string, file: File): Promise<boolean> {
  if (!tipoNotaDoNome(file.name)) {
    toast.warn(message('somentePdfXml'));
    return false;
  }
  if (file.size > MAX_NOTA_BYTES) {
    toast.warn(message('arquivoGrandeDemais'));
    return false;
  }
  try {
    const envio = await callApi(faturamento.envioNotaFiscal, { params: { idConsumo }, body: { nomeArquivo: file.name } });
    const put = await fetch(envio.url, { method: 'PUT', body: file, headers: { 'content-type': envio.contentType } });
    if (!put.ok) {
      toast.error(message('notaFiscalNaoRecebida'));
      return false;
    }
    const confirmado = await callApiWithStatus(faturamento.confirmarNotaFiscal, { params: { idConsumo }, body: { envioId: envio.envioId, nomeArquivo: file.name } });
    if (confirmado.status !== 200) return false;
    toast.success(message('uploadRealizado'));
    return true;
  } catch {
    // Shown already (an API error), or the PUT did not reach the storage.
    return false;
  }
}

/** One file of the tax note, saved under its name. */
export async function baixarNotaFiscal(idConsumo: string, tipo: TipoNota): Promise<void> {
  try {
    const nota = await callApi(faturamento.baixarNotaFiscal, { params: { idConsumo, tipo } });
    const file = await fetch(nota.url);
    if (!file.ok) throw new Error(`download ${file.status}`);
    saveBlob(nota.nomeArquivo, await file.blob());
  } catch {
    // An API error has been shown; a failed download leaves the row as it is.
  }
}
