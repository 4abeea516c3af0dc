import { Button } from 'primereact/button';
import { lazy, Suspense, useState } from 'react';
import { periodo, type FaturaResumo } from './model';
import { baixarNotaFiscal } from './notas';

const NotaFiscalDialog = lazy(() => import('./NotaFiscalDialog'));

/**
 * The tax note's row actions of consultar-fatura (spec 2 section 2.9): "Upload nota fiscal" for the
 * administrator (a dialog: one .pdf or .xml at a time; the PDF and the XML are two uploads, each
 * replacing its own file), and the PDF and XML downloads once uploaded, for the administrator and the
 * invoice's client.
 */
export function NotaFiscalAcoes({ fatura, admin, onEnviada }: { fatura: FaturaResumo; admin: boolean; onEnviada: () => void }) {
  const [aberto, setAberto] = useState(false);
  const rotulo = `${periodo(fatura)} de ${fatura.cliente.razaoSocial}`;

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
      {/* The dialog and its file picker are fetched on the first click (NotaFiscalDialog.tsx). */}
      {admin && aberto && (
        <Suspense fallback={null}>
          <NotaFiscalDialog fatura={fatura} rotulo={rotulo} onFechar={() => setAberto(false)} onEnviada={onEnviada} />
        </Suspense>
      )}
    </>
  );
}
