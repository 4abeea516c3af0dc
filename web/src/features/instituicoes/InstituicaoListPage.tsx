import '../../components/page-layout.css';
import { FilterSelect, SearchPanel } from '../../components/listing';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import './instituicoes.css';
import { keepPreviousData } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { instituicoes } from '@plac/shared/contracts';
import { formatCnpjBase, type InstituicaoSituacao, type InstituicaoTipo } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import type { DataTablePageEvent } from 'primereact/datatable';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../lib/api';
import { toast } from '../../lib/toast';
import { InstituicaoAutoComplete } from './InstituicaoAutoComplete';
import {
  DEFAULT_PAGE_SIZE,
  isPageSize,
  situacaoLabel,
  SITUACAO_OPTIONS,
  TIPO_OPTIONS,
  UF_OPTIONS,
  type Instituicao,
  type InstituicaoFormState,
  type InstituicaoResumo,
  type PageSize,
} from './model';

/**
 * instituicao-financeira: filters institution (autocomplete), tipo, UF and
 * status — at least one, else the filter-error toast; columns name, tax id, type, UF, status, edit.
 */

interface Filter {
  instituicao: InstituicaoResumo | null;
  tipo: InstituicaoTipo | null;
  uf: string | null;
  situacao: InstituicaoSituacao | null;
}

interface Search {
  cnpjBaseEsf?: string;
  tipo?: InstituicaoTipo;
  uf?: string;
  situacao?: InstituicaoSituacao;
  page: number;
  size: PageSize;
}

const EMPTY: Filter = { instituicao: null, tipo: null, uf: null, situacao: null };

export default function InstituicaoListPage() {
  const navigate = useNavigate();
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [search, setSearch] = useState<Search | null>(null);

  const list = useApiQuery(instituicoes.filtrarInstituicoes, { body: search ?? { page: 1, size: DEFAULT_PAGE_SIZE } }, {
    enabled: search !== null,
    placeholderData: keepPreviousData,
  });
  const items = search ? (list.data?.items ?? []) : [];
  const total = search ? (list.data?.total ?? 0) : 0;
  const size = search?.size ?? DEFAULT_PAGE_SIZE;
  const page = search?.page ?? 1;

  const set = <K extends keyof Filter>(key: K, value: Filter[K]) => setFilter((f) => ({ ...f, [key]: value }));

  function onSearch(event: FormEvent) {
    event.preventDefault();
    if (!filter.instituicao && !filter.tipo && !filter.uf && !filter.situacao) {
      toast.error(MESSAGES.filtroObrigatorio);
      return;
    }
    const next: Search = {
      ...(filter.instituicao ? { cnpjBaseEsf: filter.instituicao.cnpj } : {}),
      ...(filter.tipo ? { tipo: filter.tipo } : {}),
      ...(filter.uf ? { uf: filter.uf } : {}),
      ...(filter.situacao ? { situacao: filter.situacao } : {}),
      page: 1,
      size,
    };
    if (JSON.stringify(next) === JSON.stringify(search)) void list.refetch();
    setSearch(next);
  }

  function onClear() {
    setFilter(EMPTY);
    setSearch(null);
  }

  function onPage(event: DataTablePageEvent) {
    if (!search) return;
    const rows = isPageSize(event.rows) ? event.rows : search.size;
    const nextPage = rows === search.size ? (event.page ?? Math.floor(event.first / rows)) + 1 : 1;
    setSearch({ ...search, page: nextPage, size: rows });
  }

  const edit = (i: Instituicao) => {
    const state: InstituicaoFormState = { instFin: i.id };
    navigate(routePath('instituicao-financeira-form'), { state });
  };

  const filters = (
    <SearchPanel label="Filtros de instituições financeiras" onSubmit={onSearch} onClear={onClear}>
      <div className="page-field">
        <label htmlFor="filtro-instituicao">Instituição Financeira</label>
        <InstituicaoAutoComplete inputId="filtro-instituicao" value={filter.instituicao} onChange={(v) => set('instituicao', v)} />
      </div>
      <FilterSelect id="filtro-tipo" label="Tipo" options={TIPO_OPTIONS} value={filter.tipo} onChange={(v) => set('tipo', v)} />
      <FilterSelect id="filtro-uf" label="UF" options={UF_OPTIONS} value={filter.uf} onChange={(v) => set('uf', v)} placeholder="Todas" search />
      <FilterSelect id="filtro-situacao" label="Status" options={SITUACAO_OPTIONS} value={filter.situacao} onChange={(v) => set('situacao', v)} />
    </SearchPanel>
  );

  return (
    <ListPage
      title="Instituições Financeiras"
      headerActions={<Button type="button" label="Adicionar" icon="pi pi-plus" onClick={() => navigate(routePath('instituicao-financeira-form'))} />}
      filters={filters}
      label="Instituições Financeiras"
      rows={items}
      dataKey="id"
      query={search ? list : IDLE_QUERY}
      paging={{ kind: 'pages', page, size, total, onPage }}
    >
      <Column field="razaoSocial" header="Nome" />
      <Column header="CNPJ" body={(i: Instituicao) => formatCnpjBase(i.cnpj)} bodyClassName="list-nowrap" />
      <Column header="Tipo" body={(i: Instituicao) => i.tipo ?? ''} />
      <Column field="uf" header="UF" />
      <Column header="Status" body={(i: Instituicao) => situacaoLabel(i.situacao)} />
      <Column
        header="Ações"
        style={{ width: '6rem' }}
        body={(i: Instituicao) => (
          <Button
            type="button"
            icon="pi pi-pencil"
            rounded
            text
            aria-label={`Editar ${i.razaoSocial}`}
            tooltip="Editar"
            tooltipOptions={{ position: 'top' }}
            onClick={() => edit(i)}
          />
        )}
      />
    </ListPage>
  );
}
