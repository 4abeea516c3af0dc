import '../../components/page-layout.css';
import { ListPage } from '../../components/ListPage';
import { FilterSelect, SearchPanel } from '../../components/listing';
import './clientes.css';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { cadastro, clientes } from '@plac/shared/contracts';
import { formatCnpj, formatTelefone, normalizeCnpj, type ClienteSituacao } from '@plac/shared/domain';
import { Column } from 'primereact/column';
import type { DataTablePageEvent, DataTableSortEvent } from 'primereact/datatable';
import { InputText } from 'primereact/inputtext';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { apiQueryKey, callApi, useApiMutation, useApiQuery } from '../../lib/api';
import { useRegisterDialog } from '../../lib/dialogs';
import { getSession, useSession } from '../../lib/session';
import { useListSearch } from '../../components/list-search';
import { toast } from '../../lib/toast';
import { maskCnpj } from '../../lib/mask';
import { MaskedInput } from '../../components/MaskedInput';
import {
  DEFAULT_PAGE_SIZE,
  isPageSize,
  SITUACAO_OPTIONS,
  situacaoLabel,
  type ClienteRow,
  type PageSize,
} from './model';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { downloadBase64 } from '../../lib/download';
import { RowActions } from '../../components/RowActions';

/**
 * cliente-list (sefaz_admin and sefaz_gestor): filters cnpj,
 * razão social and situação, remembered in the session; the table pages and sorts on the server.
 * Actions: edit (admin), contract download (not for SHOPPING), unlock (admin, only Novo).
 */

export type SortField = 'razao_social' | 'cnpj' | 'tipo_cliente' | 'situacao';
const SORT_FIELDS: readonly SortField[] = ['razao_social', 'cnpj', 'tipo_cliente', 'situacao'];
type Order = 'asc' | 'desc';

export interface ClienteFilter {
  /** Masked, as typed. */
  cnpj: string;
  razao_social: string;
  situacao: ClienteSituacao | null;
}

export interface SavedClienteSearch extends ClienteFilter {
  page: number;
  size: PageSize;
  sort: SortField;
  order: Order;
}

/** ours: the product asks for a yes/no confirmation without giving its text. */
export const CONFIRMA_LIBERACAO = 'Deseja liberar o cliente?';
export const CONTRATO_NOME = 'contrato_plac.pdf';

const EMPTY_FILTER: ClienteFilter = { cnpj: '', razao_social: '', situacao: null };
const START: Pick<SavedClienteSearch, 'page' | 'size' | 'sort' | 'order'> = {
  page: 1,
  size: DEFAULT_PAGE_SIZE,
  sort: 'razao_social',
  order: 'asc',
};

/** The search after Limpar: every client, from the start. */
const EVERY_CLIENTE: SavedClienteSearch = { ...EMPTY_FILTER, ...START };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The saved search of the session, field by field; anything malformed falls back to the default. */
function savedSearch(saved: Record<string, unknown>): SavedClienteSearch {
  const situacao = SITUACAO_OPTIONS.find((o) => o.value === saved.situacao)?.value ?? null;
  const page = typeof saved.page === 'number' && Number.isInteger(saved.page) && saved.page >= 1 ? saved.page : 1;
  return {
    cnpj: maskCnpj(text(saved.cnpj)),
    razao_social: text(saved.razao_social),
    situacao,
    page,
    size: isPageSize(saved.size) ? saved.size : DEFAULT_PAGE_SIZE,
    sort: SORT_FIELDS.find((f) => f === saved.sort) ?? 'razao_social',
    order: saved.order === 'desc' ? 'desc' : 'asc',
  };
}

function filterOf({ cnpj, razao_social, situacao }: SavedClienteSearch): ClienteFilter {
  return { cnpj, razao_social, situacao };
}

export default function ClienteListPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const isAdmin = user?.roles.includes('sefaz_admin') ?? false;
  const listSearch = useListSearch<ClienteFilter, SavedClienteSearch>({
    empty: EMPTY_FILTER,
    // Pesquisar keeps the sort and the page size, from the first page.
    toSearch: (f): SavedClienteSearch => ({ ...search, ...f, page: 1 }),
    // The saved search (with its page and sort) on arrival; after Limpar every client, from the start.
    first: () => savedSearch(getSession().filters.cliente ?? {}),
    cleared: () => EVERY_CLIENTE,
    perPage: DEFAULT_PAGE_SIZE,
    saved: { name: 'cliente', read: (saved) => filterOf(savedSearch(saved)), write: (_filter, next) => ({ ...next }) },
  });
  const { draft: filter, set, onSubmit, onClear, apply } = listSearch;
  // Never idle (the saved search or every client).
  const search: SavedClienteSearch = listSearch.search ?? EVERY_CLIENTE;
  const [toUnlock, setToUnlock] = useState<ClienteRow | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);

  const query = useMemo(
    () => ({
      cnpj: normalizeCnpj(search.cnpj) || undefined,
      razao_social: search.razao_social.trim() || undefined,
      situacao: search.situacao ?? undefined,
      sort: search.sort,
      order: search.order,
      page: search.page,
      size: search.size,
    }),
    [search],
  );
  const list = useApiQuery(clientes.listClientes, { query }, { placeholderData: keepPreviousData });
  const liberar = useApiMutation(cadastro.liberarCliente);
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const closeConfirm = () => setToUnlock(null);
  useRegisterDialog(toUnlock !== null, closeConfirm);

  function onPage(event: DataTablePageEvent) {
    const size = isPageSize(event.rows) ? event.rows : search.size;
    const page = size === search.size ? (event.page ?? Math.floor(event.first / size)) + 1 : 1;
    apply({ ...search, page, size });
  }

  function onSort(event: DataTableSortEvent) {
    const sort = SORT_FIELDS.find((f) => f === event.sortField) ?? 'razao_social';
    apply({ ...search, sort, order: event.sortOrder === -1 ? 'desc' : 'asc', page: 1 });
  }

  async function unlock(row: ClienteRow) {
    setToUnlock(null);
    let answer;
    try {
      answer = await liberar.mutateAsync({ params: { id: row.id } });
    } catch {
      return;
    }
    toast.success(answer.message);
    await queryClient.invalidateQueries({ queryKey: apiQueryKey(clientes.listClientes) });
  }

  async function download(row: ClienteRow) {
    setDownloading(row.id);
    try {
      const contrato = await callApi(clientes.contratoCliente, { params: { id: row.id } });
      downloadBase64(CONTRATO_NOME, contrato.arquivo, 'application/pdf');
    } catch {
      // The reason is a toast already.
    } finally {
      setDownloading(null);
    }
  }

  const actions = (row: ClienteRow) => (
    <RowActions
      actions={[
        { icon: 'pi pi-pencil', label: 'Editar', show: isAdmin, onClick: () => navigate(routePath('dados-cliente-form', { id: row.id })) },
        { icon: 'pi pi-download', label: 'Baixar contrato', show: row.tipo_cliente !== 'SHOPPING', loading: downloading === row.id, onClick: () => void download(row) },
        { icon: 'pi pi-lock-open', label: 'Liberar', severity: 'success', show: isAdmin && row.situacao === 'N', onClick: () => setToUnlock(row) },
      ]}
    />
  );

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(list);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de clientes" onSubmit={pesquisar} onClear={onClear}>
      <div className="page-field">
        <label htmlFor="filtro-cnpj">CNPJ</label>
        <MaskedInput id="filtro-cnpj" value={filter.cnpj} format={maskCnpj} onValueChange={(v) => set('cnpj', v)} autoComplete="off" />
      </div>
      <div className="page-field">
        <label htmlFor="filtro-razao-social">Razão Social</label>
        <InputText
          id="filtro-razao-social"
          maxLength={150}
          value={filter.razao_social}
          onChange={(e) => set('razao_social', e.target.value)}
        />
      </div>
      <FilterSelect id="filtro-situacao" label="Situação" options={SITUACAO_OPTIONS} value={filter.situacao} onChange={(v) => set('situacao', v)} placeholder="Todas" />
    </SearchPanel>
  ), [pesquisar, onClear, filter, set]);

  return (
    <>
      <ListPage
        title="Clientes"
        filters={filters}
        label="Clientes"
        rows={items}
        dataKey="id"
        query={list}
        paging={{ kind: 'pages', page: search.page, size: search.size, total, onPage }}
        table={{ sortField: search.sort, sortOrder: search.order === 'desc' ? -1 : 1, onSort }}
      >
        <Column field="razao_social" header="Razão Social" sortable />
        <Column field="cnpj" header="CNPJ" sortable body={(row: ClienteRow) => formatCnpj(row.cnpj)} />
        <Column field="tipo_cliente" header="Tipo" sortable />
        <Column header="Telefone" body={(row: ClienteRow) => (row.telefone ? formatTelefone(row.telefone) : '')} />
        <Column field="situacao" header="Situação" sortable body={(row: ClienteRow) => situacaoLabel(row.situacao)} />
        <Column header="Ações" body={actions} style={{ width: '9rem' }} />
      </ListPage>

      <ConfirmSimNao target={toUnlock} message={CONFIRMA_LIBERACAO} onConfirm={(t) => void unlock(t)} onClose={closeConfirm} />
    </>
  );
}
