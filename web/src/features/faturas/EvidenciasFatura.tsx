import { faturamento } from '@plac/shared/contracts';
import { formatDateTime } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { callApi } from '../../lib/api';
import { emSegundoPlano } from '../../lib/relatorio';
import type { FaturaDetalhe } from './model';

/**
 * The invoice's archived evidence (issue 41): once the archive job has archived the month whole, when
 * and how many charged requests, and 'Baixar evidências (CSV)' — every charged request of the month
 * read back from the archive (S3, Parquet), for any month of the last five years, built in the
 * background like the consumption report (its banner, then the download). Before that, the catalogue's
 * 'evidenciaNaoArquivada'. Not printed.
 */
export function EvidenciasFatura({ fatura }: { fatura: FaturaDetalhe }) {
  const arquivo = fatura.arquivo ?? null;
  return (
    <section className="page-panel fatura-sem-impressao" aria-labelledby="fatura-evidencias">
      <h2 id="fatura-evidencias">Evidências arquivadas</h2>
      {arquivo ? (
        <>
          <p className="page-hint">
            Arquivadas em {formatDateTime(arquivo.arquivadoEm)}: {arquivo.requisicoes.toLocaleString('pt-BR')} requisição(ões) cobrada(s), guardadas por cinco anos.
          </p>
          <Button
            type="button"
            label="Baixar evidências (CSV)"
            icon="pi pi-download"
            outlined
            onClick={() =>
              void emSegundoPlano(fatura.cliente, () => callApi(faturamento.evidenciaFatura, { params: { idConsumo: fatura.id }, notify: false }))
            }
          />
        </>
      ) : (
        <p className="page-hint">{message('evidenciaNaoArquivada')}</p>
      )}
    </section>
  );
}
