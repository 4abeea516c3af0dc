import { FileUpload, type FileUploadHandlerEvent } from 'primereact/fileupload';
import { useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import type { FaturaResumo } from './model';
import { enviarNotaFiscal } from './notas';

/**
 * "Upload nota fiscal" (spec 2 section 2.9), the administrator's dialog: one .pdf or .xml at a time, each
 * replacing its own file. Its own chunk, mounted open on the first click of the row's button: the list
 * of Faturas does not carry the file picker until someone uploads.
 */
export default function NotaFiscalDialog({ fatura, rotulo, onFechar, onEnviada }: { fatura: FaturaResumo; rotulo: string; onFechar: () => void; onEnviada: () => void }) {
  const [enviando, setEnviando] = useState(false);

  async function enviar(event: FileUploadHandlerEvent) {
    const file = event.files[0];
    event.options.clear();
    if (!file) return;
    setEnviando(true);
    const ok = await enviarNotaFiscal(fatura.id, file);
    setEnviando(false);
    if (ok) {
      onFechar();
      onEnviada();
    }
  }

  return (
    <AppDialog header="Upload nota fiscal" visible onHide={onFechar} style={{ width: 'min(32rem, 95vw)' }} modal>
      <p>
        Fatura {rotulo}. Envie o PDF ou o XML da nota fiscal (um arquivo por vez); um novo arquivo substitui o anterior do mesmo tipo.
      </p>
      <ul className="fatura-notas-atuais">
        <li>PDF: {fatura.nomePdfFile ?? 'não enviado'}</li>
        <li>XML: {fatura.nomeXmlFile ?? 'não enviado'}</li>
      </ul>
      <FileUpload
        mode="basic"
        name="notaFiscal"
        accept=".pdf,.xml"
        chooseLabel={enviando ? 'Enviando…' : 'Selecionar arquivo'}
        disabled={enviando}
        auto
        customUpload
        uploadHandler={(e) => void enviar(e)}
      />
    </AppDialog>
  );
}
