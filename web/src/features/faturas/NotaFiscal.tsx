import { Button } from 'primereact/button';
import { FileUpload, type FileUploadHandlerEvent } from 'primereact/fileupload';
import { useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { periodo, type FaturaResumo } from './model';
import { baixarNotaFiscal, enviarNotaFiscal } from './notas';

/**
 * The tax note's row actions of consultar-fatura (spec 2 section 2.9): "Upload nota fiscal" for the
 * administrator (a dialog: one .pdf or .xml at a time; the PDF and the XML are two uploads, each
 * replacing its own file), and the PDF and XML downloads once uploaded, for the administrator and the
 * invoice's client.
 */
export function NotaFiscalAcoes({ fatura, admin, onEnviada }: { fatura: FaturaResumo; admin: boolean; onEnviada: () => void }) {
  const [aberto, setAberto] = useState(false);
  const [enviando, setEnviando] = useState(false);
  const rotulo = `${periodo(fatura)} de ${fatura.cliente.razaoSocial}`;

  async function enviar(event: FileUploadHandlerEvent) {
    const file = event.files[0];
    event.options.clear();
    if (!file) return;
    setEnviando(true);
    const ok = await enviarNotaFiscal(fatura.id, file);
    setEnviando(false);
    if (ok) {
      setAberto(false);
      onEnviada();
    }
  }

  return (
    <>
      {fatura.nomePdfFile && (
        <Button
          type="button"
          icon="pi pi-file-pdf"
          rounded
          text
          aria-label={`Baixar PDF da nota fiscal ${rotulo}`}
          tooltip={`PDF da nota fiscal: ${fatura.nomePdfFile}`}
          tooltipOptions={{ position: 'top' }}
          onClick={() => void baixarNotaFiscal(fatura.id, 'pdf')}
        />
      )}
      {fatura.nomeXmlFile && (
        <Button
          type="button"
          icon="pi pi-code"
          rounded
          text
          aria-label={`Baixar XML da nota fiscal ${rotulo}`}
          tooltip={`XML da nota fiscal: ${fatura.nomeXmlFile}`}
          tooltipOptions={{ position: 'top' }}
          onClick={() => void baixarNotaFiscal(fatura.id, 'xml')}
        />
      )}
      {admin && (
        <Button
          type="button"
          icon="pi pi-upload"
          rounded
          text
          aria-label={`Upload nota fiscal ${rotulo}`}
          tooltip="Upload nota fiscal"
          tooltipOptions={{ position: 'top' }}
          onClick={() => setAberto(true)}
        />
      )}
      {admin && (
        <AppDialog header="Upload nota fiscal" visible={aberto} onHide={() => setAberto(false)} style={{ width: 'min(32rem, 95vw)' }} modal>
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
      )}
    </>
  );
}
