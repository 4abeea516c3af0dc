import { lazy, Suspense, useState } from 'react';
import { RowActions } from '../../components/RowActions';
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
      <RowActions
        bare
        actions={[
          {
            icon: 'pi pi-file-pdf',
            label: `PDF da nota fiscal: ${fatura.nomePdfFile ?? ''}`,
            ariaLabel: `Baixar PDF da nota fiscal ${rotulo}`,
            show: Boolean(fatura.nomePdfFile),
            onClick: () => void baixarNotaFiscal(fatura.id, 'pdf'),
          },
          {
            icon: 'pi pi-code',
            label: `XML da nota fiscal: ${fatura.nomeXmlFile ?? ''}`,
            ariaLabel: `Baixar XML da nota fiscal ${rotulo}`,
            show: Boolean(fatura.nomeXmlFile),
            onClick: () => void baixarNotaFiscal(fatura.id, 'xml'),
          },
          { icon: 'pi pi-upload', label: 'Upload nota fiscal', ariaLabel: `Upload nota fiscal ${rotulo}`, show: admin, onClick: () => setAberto(true) },
        ]}
      />
      {/* The dialog and its file picker are fetched on the first click (NotaFiscalDialog.tsx). */}
      {admin && aberto && (
        <Suspense fallback={null}>
          <NotaFiscalDialog fatura={fatura} rotulo={rotulo} onFechar={() => setAberto(false)} onEnviada={onEnviada} />
        </Suspense>
      )}
    </>
  );
}
