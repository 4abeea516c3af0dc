import '../../components/page-layout.css';
import { SearchPanel } from '../../components/listing';
import { ListPage } from '../../components/ListPage';
import './cargas.css';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { fate } from '@plac/shared/contracts';
import { DOCUMENTOS_ERRO_MAXIMO_DIAS, formatDateTime } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { Dropdown } from 'primereact/dropdown';
import { useCallback, useMemo, useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { FieldError } from '../../components/FieldError';
import { useListSearch } from '../../components/list-search';
import { apiQueryKey, callApi, useApiMutation, useApiQuery } from '../../lib/api';
import { useRegisterDialog } from '../../lib/dialogs';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { downloadBase64 } from '../../lib/download';
import { diaBr, diasEntre, hojeMais, semZeros, TODAS, UF_ORIGEM_OPTIONS, type DocumentoErro } from './model';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';

/**
 * documentos-erro (sefaz_admin, sefaz_gestor): the documents a load could not process, by UF of
 * origin ('Todas' or one; a manager's own UF, fixed) and creation period (at most 90 days, the last
 * 30 days when the page opens, searched at once). Each row shows the parser's detail (its message and
 * where in the document it failed; never a stack: issue 27 item 2), downloads its XML
 * as the Sefaz delivered it, or is removed after a confirmation.
 */

const DEFAULT_PAGE_SIZE = 10;

/** ours: the product asks for a yes/no confirmation without giving its text. */
export const CONFIRMA_EXCLUSAO = 'Deseja realmente excluir o documento com erro?';

interface Filter {
  uf: string;
  inicio: Date | null;
  fim: Date | null;
}

interface Search {
  UFOrigem: string;
  dataInicio: string;
  dataFim: string;
}

interface FieldMessages {
  inicio?: string;
  fim?: string;
}

const describedBy = (id: string) => ({ input: { root: { 'aria-describedby': `${id}-error` } } });

/** The date checks of the filter, in the catalogue's words (none: the filter may be searched). */
export function validarPeriodo(inicio: Date | null, fim: Date | null): { campos: FieldMessages; periodo: string | null } {
  const campos: FieldMessages = {};
  if (!inicio) campos.inicio = message('dataInicioObrigatoria');
  if (!fim) campos.fim = message('dataFimObrigatoria');
  if (!inicio || !fim) return { campos, periodo: null };
  const dias = diasEntre(inicio, fim);
  if (dias < 0) return { campos, periodo: message('dataInicioMaiorDataFim') };
  if (dias > DOCUMENTOS_ERRO_MAXIMO_DIAS) return { campos, periodo: message('faixaDataInvalida') };
  return { campos, periodo: null };
}

/** A row's name for its buttons: UF, stream and NSU (goods and transport each number their own NSUs). */
const nsuDe = (d: DocumentoErro) => `${d.uf}${d.id.includes('-CTE-') ? ' CT-e' : ''} NSU ${semZeros(d.nsu)}`;

export default function DocumentosErroPage() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const gestor = !user.roles.includes('sefaz_admin');
  /** A manager filters by the own UF only. */
  const ufFixa = gestor ? (user.uf ?? '') : null;

  const [erros, setErros] = useState<FieldMessages>({});

  /** The filter's search: 'Todas' is no UF; a manager's own UF. */
  const searchOf = (f: Filter & { inicio: Date; fim: Date }): Search => ({
    UFOrigem: ufFixa ?? (f.uf === TODAS ? '' : f.uf),
    dataInicio: diaBr(f.inicio),
    dataFim: diaBr(f.fim),
  });

  /** Pesquisar's checks: both dates (beside each field) and a period of at most 90 days. */
  function validar(filter: Filter): Search | null {
    const { campos, periodo } = validarPeriodo(filter.inicio, filter.fim);
    setErros(campos);
    const problemas = [campos.inicio, campos.fim, periodo].filter((m): m is string => Boolean(m));
    if (problemas.length > 0 || !filter.inicio || !filter.fim) {
      for (const m of problemas) toast.warn(m);
      return null;
    }
    return searchOf({ ...filter, inicio: filter.inicio, fim: filter.fim });
  }

  const listSearch = useListSearch<Filter, Search>({
    empty: () => ({ uf: ufFixa ?? TODAS, inicio: hojeMais(-29), fim: hojeMais(0) }),
    toSearch: validar,
    // The last 30 days, searched at once.
    first: (f) => searchOf({ ...f, inicio: f.inicio ?? hojeMais(-29), fim: f.fim ?? hojeMais(0) }),
    perPage: DEFAULT_PAGE_SIZE,
  });
  const { draft: filter, set, pages, page, onSubmit } = listSearch;
  // Never idle (the first search is made on arrival and there is no Limpar): the fallback only types it.
  const search = listSearch.search ?? searchOf({ uf: TODAS, inicio: hojeMais(-29), fim: hojeMais(0) });
  const [detalhe, setDetalhe] = useState<DocumentoErro | null>(null);
  const [toRemove, setToRemove] = useState<DocumentoErro | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);

  const list = useApiQuery(
    fate.filtrarDocumentosErro,
    { query: { ...search, ...page } },
    { placeholderData: keepPreviousData },
  );
  const remover = useApiMutation(fate.removerDocumentoErro);
  const items = list.data?.items ?? [];

  const closeConfirm = () => setToRemove(null);
  useRegisterDialog(toRemove !== null, closeConfirm);

  async function download(doc: DocumentoErro) {
    setDownloading(doc.id);
    try {
      const file = await callApi(fate.baixarDocumentoErro, { params: { id: doc.id } });
      downloadBase64(file.nomeArquivo, file.conteudoBase64, file.contentType);
    } catch {
      // The reason is a toast already.
    } finally {
      setDownloading(null);
    }
  }

  async function remove(doc: DocumentoErro) {
    setToRemove(null);
    let answer;
    try {
      answer = await remover.mutateAsync({ params: { id: doc.id } });
    } catch {
      return;
    }
    toast.success(answer.message);
    // The last row of a page that is not the first: the page before it.
    if (items.length === 1 && pages.hasPrevious) pages.previous();
    await queryClient.invalidateQueries({ queryKey: apiQueryKey(fate.filtrarDocumentosErro) });
  }

  const actions = (doc: DocumentoErro) => (
    <div className="page-row-actions">
      <Button
        type="button"
        icon="pi pi-align-left"
        rounded
        text
        aria-label={`Ver detalhe do erro: ${nsuDe(doc)}`}
        tooltip="Ver detalhe do erro"
        tooltipOptions={{ position: 'top' }}
        onClick={() => setDetalhe(doc)}
      />
      <Button
        type="button"
        icon="pi pi-download"
        rounded
        text
        aria-label={`Baixar XML: ${nsuDe(doc)}`}
        tooltip="Baixar XML"
        tooltipOptions={{ position: 'top' }}
        loading={downloading === doc.id}
        onClick={() => void download(doc)}
      />
      <Button
        type="button"
        icon="pi pi-trash"
        rounded
        text
        severity="danger"
        aria-label={`Excluir: ${nsuDe(doc)}`}
        tooltip="Excluir"
        tooltipOptions={{ position: 'top' }}
        onClick={() => setToRemove(doc)}
      />
    </div>
  );

  const tooltip = message('faixaDataInvalida');

  /** A filter date (start or end): up to today, the 90-day tooltip, its own error beside it. */
  const dateField = useCallback((id: string, key: 'inicio' | 'fim', label: string, field: 'dataInicio' | 'dataFim') => (
    <div className="page-field">
      <label htmlFor={id}>{label}</label>
      <Calendar
        inputId={id}
        value={filter[key]}
        onChange={(e) => set(key, e.value instanceof Date ? e.value : null)}
        dateFormat="dd/mm/yy"
        maxDate={hojeMais(0)}
        showIcon
        showButtonBar
        tooltip={tooltip}
        tooltipOptions={{ position: 'top' }}
        invalid={Boolean(erros[key])}
        pt={describedBy(id)}
      />
      <FieldError error={null} field={field} id={`${id}-error`} messages={erros[key] ? [erros[key]] : []} />
    </div>
  ), [filter, set, tooltip, erros]);

  // The panel is the same element until its own values or errors change: the list's answers do not render it again.
  const pesquisar = onSubmit(list);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de documentos com erro" onSubmit={pesquisar}>
      <div className="page-field">
        <label htmlFor="filtro-uf-origem">UF de Origem</label>
        <Dropdown
          inputId="filtro-uf-origem"
          options={[...UF_ORIGEM_OPTIONS]}
          value={ufFixa ?? filter.uf}
          onChange={(e) => set('uf', (e.value as string | undefined) ?? TODAS)}
          disabled={ufFixa !== null}
          filter
          filterBy="label"
          emptyFilterMessage={message('nenhumRegistro')}
        />
      </div>
      {dateField('filtro-data-inicio', 'inicio', 'Data Início', 'dataInicio')}
      {dateField('filtro-data-fim', 'fim', 'Data Fim', 'dataFim')}
    </SearchPanel>
  ), [pesquisar, ufFixa, filter.uf, set, dateField]);

  return (
    <>
      <ListPage
        title="Documentos com Erro"
        filters={filters}
        label="Documentos com erro"
        rows={items}
        dataKey="id"
        query={list}
        paging={{ kind: 'cursor', pages, nextCursor: list.data?.nextCursor, label: 'Paginação de documentos com erro' }}
      >
        <Column field="tipo" header="Tipo" />
        <Column field="uf" header="UF" />
        <Column field="excecao" header="Exceção" />
        <Column field="erro" header="Mensagem de erro" />
        <Column header="Data de criação" body={(d: DocumentoErro) => formatDateTime(d.createdAt)} />
        <Column header="Ações" body={actions} style={{ width: '10rem' }} />
      </ListPage>

      <AppDialog
        header="Detalhe do erro"
        visible={detalhe !== null}
        onHide={() => setDetalhe(null)}
        style={{ width: 'min(60rem, 95vw)' }}
        modal
        dismissableMask
      >
        {detalhe && (
          <>
            <p>
              <strong>{detalhe.excecao}</strong>: {detalhe.erro}
            </p>
            <pre className="cargas-trace" tabIndex={0} aria-label={`Detalhe do erro: ${nsuDe(detalhe)}`}>
              {detalhe.detalhe || '—'}
            </pre>
          </>
        )}
      </AppDialog>

      <ConfirmSimNao target={toRemove} message={CONFIRMA_EXCLUSAO} onConfirm={(t) => void remove(t)} onClose={closeConfirm} danger />
    </>
  );
}
