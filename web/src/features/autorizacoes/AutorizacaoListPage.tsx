import '../../components/page-layout.css';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import { FilterSelect, SearchPanel } from '../../components/listing';
import '../../components/instituicao.css';
import { keepPreviousData } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { instituicoes } from '@plac/shared/contracts';
import { formatCnpj, formatCnpjBase, type AutorizacaoStatus } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import type { DataTablePageEvent } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../lib/api';
import { formatDate, formatDateTime, toTransportDate } from '../../lib/format';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { InstituicaoAutoComplete } from '../../components/InstituicaoAutoComplete';
import type { InstituicaoResumo } from '../../components/InstituicaoAutoComplete';
import { DEFAULT_PAGE_SIZE, isPageSize, type PageSize } from '../../components/listing';
import { STATUS_OPTIONS, statusLabel, type AutorizacaoFormState, type AutorizacaoLinha, type ClienteOpcao } from './model';
import { RowActions } from '../../components/RowActions';
import { useListSearch } from '../../components/list-search';

/**
 * autorizacao-inf-cliente-list: filters institution, client, initial and final
 * date (up to today) and status. A client user has its client fixed; the administrator picks one.
 * Rules: a client is required, start not after end, a missing end takes the start.
 */

interface Filter {
  instituicao: InstituicaoResumo | null;
  clienteId: string | null;
  dataInicial: Date | null;
  dataFinal: Date | null;
  status: AutorizacaoStatus | null;
}

interface Search {
  cnpjCliente: string;
  instituicaoFinanceira?: string;
  dataInicial?: string;
  dataFinal?: string;
  status?: AutorizacaoStatus;
  page: number;
  size: PageSize;
}

export default function AutorizacaoListPage() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const podeCriar = user.roles.includes('cliente');
  const navigate = useNavigate();
  const clientes = useApiQuery(instituicoes.clientesAutorizacao, {});
  const { draft: filter, set, search, onSubmit, onClear, apply } = useListSearch<Filter, Search>({
    empty: { instituicao: null, clienteId: null, dataInicial: null, dataFinal: null, status: null },
    toSearch: validar,
    // Paged on the server by page number: the hook's cursor pages stay on their first page.
    perPage: DEFAULT_PAGE_SIZE,
  });

  // A client user: its own client, fixed.
  const fixo = !admin ? (clientes.data?.[0] ?? null) : null;
  const clienteId = fixo?.id ?? filter.clienteId;
  const cliente: ClienteOpcao | null = clientes.data?.find((c) => c.id === clienteId) ?? null;
  const clienteOptions = useMemo(
    () => (clientes.data ?? []).map((c) => ({ value: c.id, label: `${c.razaoSocial} - ${formatCnpj(c.cnpj)}` })),
    [clientes.data],
  );

  const list = useApiQuery(instituicoes.listAutorizacoes, { body: search ?? { page: 1, size: DEFAULT_PAGE_SIZE } }, {
    enabled: search !== null,
    placeholderData: keepPreviousData,
  });
  const items = search ? (list.data?.items ?? []) : [];
  const total = search ? (list.data?.total ?? 0) : 0;
  const size = search?.size ?? DEFAULT_PAGE_SIZE;
  const page = search?.page ?? 1;

  /** Pesquisar's checks (a client; start not after end) and the search, from its first page. */
  function validar(filter: Filter): Search | null {
    if (!cliente) {
      toast.error(MESSAGES.clientePlacObrigatorio);
      return null;
    }
    // A missing final date takes the initial date (shown in the field too).
    const dataFinal = filter.dataFinal ?? filter.dataInicial;
    if (filter.dataInicial && dataFinal && toTransportDate(filter.dataInicial) > toTransportDate(dataFinal)) {
      toast.error(MESSAGES.dataInicioMaiorDataFim);
      return null;
    }
    if (dataFinal !== filter.dataFinal) set('dataFinal', dataFinal);
    return {
      cnpjCliente: cliente.cnpj,
      ...(filter.instituicao ? { instituicaoFinanceira: filter.instituicao.cnpj } : {}),
      ...(filter.dataInicial ? { dataInicial: toTransportDate(filter.dataInicial) } : {}),
      ...(dataFinal ? { dataFinal: toTransportDate(dataFinal) } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      page: 1,
      size,
    };
  }

  function onPage(event: DataTablePageEvent) {
    if (!search) return;
    const rows = isPageSize(event.rows) ? event.rows : search.size;
    const nextPage = rows === search.size ? (event.page ?? Math.floor(event.first / rows)) + 1 : 1;
    apply({ ...search, page: nextPage, size: rows });
  }

  function open(state: AutorizacaoFormState) {
    navigate(routePath('autorizacao-inf-cliente-form'), { state });
  }

  function nova() {
    if (!cliente) {
      toast.error(MESSAGES.clientePlacObrigatorio);
      return;
    }
    open({ option: 'new', cliente });
  }

  const clienteDaLinha = (a: AutorizacaoLinha): ClienteOpcao =>
    clientes.data?.find((c) => c.cnpj === a.cnpjCliente) ?? { id: '', cnpj: a.cnpjCliente, razaoSocial: a.razaoSocialCliente };

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(list);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de autorizações" onSubmit={pesquisar} onClear={onClear}>
      <div className="page-field">
        <label htmlFor="filtro-cliente">Cliente</label>
        <Dropdown
          inputId="filtro-cliente"
          options={clienteOptions}
          value={clienteId}
          onChange={(e) => set('clienteId', (e.value as string | undefined) ?? null)}
          disabled={!admin}
          filter
          filterBy="label"
          placeholder="Selecione o cliente"
          emptyMessage={MESSAGES.nenhumRegistro}
          emptyFilterMessage={MESSAGES.nenhumRegistro}
          loading={clientes.isFetching}
        />
      </div>
      <div className="page-field">
        <label htmlFor="filtro-instituicao">Instituição Financeira</label>
        <InstituicaoAutoComplete inputId="filtro-instituicao" value={filter.instituicao} onChange={(v) => set('instituicao', v)} />
      </div>
      <div className="page-field">
        <label htmlFor="filtro-data-inicial">Data Início</label>
        <Calendar
          inputId="filtro-data-inicial"
          value={filter.dataInicial}
          onChange={(e) => set('dataInicial', (e.value as Date | null | undefined) ?? null)}
          dateFormat="dd/mm/yy"
          maxDate={new Date()}
          showIcon
          showButtonBar
        />
      </div>
      <div className="page-field">
        <label htmlFor="filtro-data-final">Data Fim</label>
        <Calendar
          inputId="filtro-data-final"
          value={filter.dataFinal}
          onChange={(e) => set('dataFinal', (e.value as Date | null | undefined) ?? null)}
          dateFormat="dd/mm/yy"
          maxDate={new Date()}
          showIcon
          showButtonBar
        />
      </div>
      <FilterSelect id="filtro-status" label="Status" options={STATUS_OPTIONS} value={filter.status} onChange={(v) => set('status', v)} />
    </SearchPanel>
  ), [pesquisar, onClear, clienteOptions, clienteId, set, admin, clientes.isFetching, filter.instituicao, filter.dataInicial, filter.dataFinal, filter.status]);

  return (
    <>
      <ListPage
        title="Autorização de Instituição Financeira"
        headerActions={podeCriar && <Button type="button" label="Nova Autorização" icon="pi pi-plus" onClick={nova} />}
        filters={filters}
        label="Autorizações"
        rows={items}
        dataKey="cnpjInstFinanceira"
        query={search ? list : IDLE_QUERY}
        paging={{ kind: 'pages', page, size, total, onPage }}
      >
        <Column field="razaoSocialInstFinanceira" header="Instituição Financeira" />
        <Column header="CNPJ" body={(a: AutorizacaoLinha) => formatCnpjBase(a.cnpjInstFinanceira)} />
        <Column header="Data Autorização" body={(a: AutorizacaoLinha) => formatDate(a.dataAutorizacao)} />
        <Column header="Status" body={(a: AutorizacaoLinha) => statusLabel(a.status)} />
        <Column header="Data Atualização" body={(a: AutorizacaoLinha) => formatDateTime(a.dataAtualizacao)} />
        <Column
          header="Ações"
          style={{ width: '6rem' }}
          body={(a: AutorizacaoLinha) => (
            <RowActions
              actions={[
                {
                  icon: 'pi pi-pencil',
                  label: 'Editar',
                  ariaLabel: `Editar ${a.razaoSocialInstFinanceira}`,
                  onClick: () => open({ option: 'edit', cliente: clienteDaLinha(a), cnpjInstFinanceira: a.cnpjInstFinanceira }),
                },
              ]}
            />
          )}
        />
      </ListPage>
    </>
  );
}
