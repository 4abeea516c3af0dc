import '../../components/page-layout.css';
import { ListPage, ListTable, moneyColumn } from '../../components/ListPage';
import './faturas.css';
// The report's totals are laid out as the projected invoice's (the class lives there); this page is a
// chunk of its own, so it imports the sheet itself (issue 28: the summary showed as an unstyled list).
import './fatura-projetada.css';
import { faturamento } from '@plac/shared/contracts';
import { asCentavos, formatBRL, formatDate } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Column } from 'primereact/column';
import { FileUpload, type FileUploadHandlerEvent } from 'primereact/fileupload';
import { ProgressBar } from 'primereact/progressbar';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { cursorPage, useCursorPages } from '../../lib/cursor-pages';
import { textoDe } from '../../lib/files';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';

/**
 * retorno-bancario (sefaz_admin; issue 14 item 4, docs/faturamento.md "Payments"; ours: the spec has
 * no such screen): the upload of a bank's FEBRABAN arrecadação return file (.ret or .txt), the report of
 * the import (each line: paid, already paid, no DAE, inconsistent with the reason) and the files
 * imported before, each of whose reports can be opened again. A file imported twice changes nothing.
 */

type Retorno = faturamento.RetornoBancario;
type Linha = faturamento.LinhaRetorno;

const SITUACAO: Record<Linha['situacao'], string> = {
  PAGA: 'Paga',
  JA_PAGA: 'Já paga',
  NAO_ENCONTRADA: 'DAE não encontrado',
  INCONSISTENTE: 'Inconsistente',
};
const brl = (centavos: number) => formatBRL(asCentavos(centavos));
/** 'YYYY-MM-DD' of the server's dates, shown DD/MM/YYYY. */
const dia = (iso: string) => formatDate(iso);

function Relatorio({ r: inicial, onConcluida }: { r: Retorno; onConcluida: (r: Retorno) => void }) {
  // A file of thousands of payments goes on as a job (202, PROCESSANDO): its progress is followed here.
  const andamento = useApiQuery(
    faturamento.retornoBancario,
    { params: { importacaoId: inicial.importacaoId } },
    { enabled: inicial.situacao === 'PROCESSANDO', refetchInterval: (q) => (q.state.data?.situacao === 'CONCLUIDA' ? false : 2000) },
  );
  const r = inicial.situacao === 'PROCESSANDO' && andamento.data ? { ...andamento.data, jaImportado: false } : inicial;
  const emAndamento = r.situacao === 'PROCESSANDO';
  const [avisada, setAvisada] = useState(false);
  if (inicial.situacao === 'PROCESSANDO' && !emAndamento && !avisada) {
    setAvisada(true);
    onConcluida(r);
  }
  // A file may hold thousands of payments: its lines are read a page at a time.
  const pages = useCursorPages(`${r.importacaoId}|${r.situacao}`, 50);
  const linhas = useApiQuery(
    faturamento.linhasDoRetorno,
    { params: { importacaoId: r.importacaoId }, query: cursorPage(pages) },
    { placeholderData: keepPreviousData, enabled: !emAndamento },
  );
  return (
    <section className="page-panel" aria-labelledby="retorno-relatorio">
      <h2 id="retorno-relatorio">Resultado da importação: {r.nomeArquivo}</h2>
      <dl className="fatura-projetada-totais">
        <div>
          <dt>Banco</dt>
          <dd>
            {r.banco} {r.nomeBanco}
          </dd>
        </div>
        <div>
          <dt>NSA / Geração</dt>
          <dd>
            {r.nsa} / {dia(r.dataGeracao)}
          </dd>
        </div>
        <div>
          <dt>Valor total</dt>
          <dd>{brl(r.valorTotal)}</dd>
        </div>
        <div>
          <dt>Pagas</dt>
          <dd>{r.pagas}</dd>
        </div>
        <div>
          <dt>Já pagas</dt>
          <dd>{r.jaPagas}</dd>
        </div>
        <div>
          <dt>Não encontradas</dt>
          <dd>{r.naoEncontradas}</dd>
        </div>
        <div>
          <dt>Inconsistentes</dt>
          <dd>{r.inconsistentes}</dd>
        </div>
      </dl>
      {emAndamento ? (
        <div role="status" aria-live="polite">
          <p>
            Importando os pagamentos do arquivo: {r.processadas.toLocaleString('pt-BR')} de {r.totalPagamentos.toLocaleString('pt-BR')}.
          </p>
          <ProgressBar value={r.totalPagamentos ? Math.floor((100 * r.processadas) / r.totalPagamentos) : 0} aria-label="Andamento da importação" />
        </div>
      ) : (
        <p>
          Importado em {formatDateTime(r.importadoEm)} por {r.importadoPor}.
        </p>
      )}
      {!emAndamento && (
      <ListTable
        label="Linhas do arquivo de retorno"
        rows={linhas.data?.items}
        dataKey="linha"
        query={linhas}
        paging={{ kind: 'cursor', pages, nextCursor: linhas.data?.nextCursor, label: 'Paginação das linhas do retorno' }}
      >
        <Column header="Linha" field="linha" />
        <Column header="Código de Barras" body={(l: Linha) => <span className="retorno-codigo">{l.codigoBarras}</span>} />
        <Column header="Pagamento" body={(l: Linha) => dia(l.dataPagamento)} bodyClassName="list-nowrap" />
        <Column header="Valor Recebido" {...moneyColumn((l: Linha) => l.valorRecebido)} />
        <Column header="Acréscimo" {...moneyColumn((l: Linha) => l.valorAcrescimo)} />
        <Column header="Situação" body={(l: Linha) => SITUACAO[l.situacao]} />
        <Column header="Cliente" body={(l: Linha) => l.cliente ?? ''} />
        <Column header="Observação" body={(l: Linha) => l.motivo ?? ''} />
      </ListTable>
      )}
    </section>
  );
}

export default function RetornoBancarioPage() {
  const [atual, setAtual] = useState<Retorno | null>(null);
  const historico = useApiQuery(faturamento.retornosImportados, {});
  const importar = useApiMutation(faturamento.importarRetorno);

  async function enviar(event: FileUploadHandlerEvent) {
    const file = event.files[0];
    event.options.clear();
    if (!file) return;
    if (!/\.(ret|txt)$/i.test(file.name)) {
      toast.warn(message('retornoExtensao'));
      return;
    }
    const r = await importar.mutateAsync({ body: { nomeArquivo: file.name, conteudo: await textoDe(file) } }).catch(() => null);
    if (!r) return;
    setAtual(r);
    if (r.jaImportado) toast.warn(message('retornoJaImportado', { data: formatDateTime(r.importadoEm) }));
    else if (r.situacao === 'CONCLUIDA') toast.success(message('retornoImportado', { pagas: String(r.pagas) }));
    void historico.refetch();
  }

  function concluida(r: Retorno) {
    toast.success(message('retornoImportado', { pagas: String(r.pagas) }));
    void historico.refetch();
  }

  // The page's list is the files imported; above it, the upload and the report of the file opened.
  const upload = (
    <div className="page-panel">
      <p>Importe o arquivo de retorno de arrecadação do banco (layout FEBRABAN com código de barras, extensão .ret ou .txt). Cada DAE pago baixa a sua fatura.</p>
      <FileUpload
        mode="basic"
        name="retorno"
        accept=".ret,.txt"
        chooseLabel={importar.isPending ? 'Importando…' : 'Selecionar arquivo de retorno'}
        disabled={importar.isPending}
        auto
        customUpload
        uploadHandler={(e) => void enviar(e)}
      />
    </div>
  );

  return (
    <ListPage
      title="Retorno Bancário"
      filters={upload}
      before={
        <>
          {atual && <Relatorio key={atual.importacaoId} r={atual} onConcluida={concluida} />}
          <h2 className="retorno-historico">Arquivos importados</h2>
        </>
      }
      label="Arquivos de retorno importados"
      rows={historico.data}
      dataKey="importacaoId"
      query={historico}
      table={{ selectionMode: 'single', onRowSelect: (e) => setAtual({ ...(e.data as Retorno), jaImportado: false }) }}
    >
      <Column header="Importado em" body={(r: Retorno) => formatDateTime(r.importadoEm)} />
      <Column header="Arquivo" field="nomeArquivo" />
      <Column header="Banco" body={(r: Retorno) => `${r.banco} ${r.nomeBanco}`} />
      <Column header="NSA" field="nsa" />
      <Column header="Pagas" field="pagas" />
      <Column header="Já pagas" field="jaPagas" />
      <Column header="Não encontradas" field="naoEncontradas" />
      <Column header="Inconsistentes" field="inconsistentes" />
    </ListPage>
  );
}
