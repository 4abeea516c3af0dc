import '../../components/page-layout.css';
import { FilterSelect, SearchPanel } from '../../components/listing';
import { IDLE_QUERY, ListPage } from '../../components/ListPage';
import '../../components/instituicao.css';
import { keepPreviousData } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { instituicoes } from '@plac/shared/contracts';
import { formatCnpjBase, type InstituicaoSituacao, type InstituicaoTipo } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../lib/api';
import { useListSearch } from '../../components/list-search';
import { toast } from '../../lib/toast';
import { InstituicaoAutoComplete } from '../../components/InstituicaoAutoComplete';
import {
  DEFAULT_PAGE_SIZE,
  situacaoLabel,
  SITUACAO_OPTIONS,
  TIPO_OPTIONS,
  UF_OPTIONS,
  type Instituicao,
  type InstituicaoFormState,
  type InstituicaoResumo,
} from './model';
import { RowActions } from '../../components/RowActions';

/**
 * instituicao-financeira: filters institution (autocomplete), tipo, UF and
 * status — at least one, else the filter-error toast; columns name, tax id, type, UF, status, edit.
 * The table pages on the server by cursor (Anterior / Próxima): the registry grows with the
 * institutions issuers add, so no search reads it whole.
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
}

const EMPTY: Filter = { instituicao: null, tipo: null, uf: null, situacao: null };

/** Pesquisar's check and conversion: at least one filter, else the filter-error toast. */
function toSearch(filter: Filter): Search | null {
  if (!filter.instituicao && !filter.tipo && !filter.uf && !filter.situacao) {
    toast.error(MESSAGES.filtroObrigatorio);
    return null;
  }
  return {
    ...(filter.instituicao ? { cnpjBaseEsf: filter.instituicao.cnpj } : {}),
    ...(filter.tipo ? { tipo: filter.tipo } : {}),
    ...(filter.uf ? { uf: filter.uf } : {}),
    ...(filter.situacao ? { situacao: filter.situacao } : {}),
  };
}

export default function InstituicaoListPage() {
  const navigate = useNavigate();
  const { draft: filter, set, search, pages, page, onSubmit, onClear } = useListSearch({ empty: EMPTY, toSearch, perPage: DEFAULT_PAGE_SIZE });

  const list = useApiQuery(instituicoes.filtrarInstituicoes, { body: { ...(search ?? {}), ...page } }, {
    enabled: search !== null,
    placeholderData: keepPreviousData,
  });
  const items = search ? (list.data?.items ?? []) : [];

  const edit = (i: Instituicao) => {
    const state: InstituicaoFormState = { instFin: i.id };
    navigate(routePath('instituicao-financeira-form'), { state });
  };

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(list);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de instituições financeiras" onSubmit={pesquisar} onClear={onClear}>
      <div className="page-field">
        <label htmlFor="filtro-instituicao">Instituição Financeira</label>
        <InstituicaoAutoComplete inputId="filtro-instituicao" value={filter.instituicao} onChange={(v) => set('instituicao', v)} />
      </div>
      <FilterSelect id="filtro-tipo" label="Tipo" options={TIPO_OPTIONS} value={filter.tipo} onChange={(v) => set('tipo', v)} />
      <FilterSelect id="filtro-uf" label="UF" options={UF_OPTIONS} value={filter.uf} onChange={(v) => set('uf', v)} placeholder="Todas" search />
      <FilterSelect id="filtro-situacao" label="Status" options={SITUACAO_OPTIONS} value={filter.situacao} onChange={(v) => set('situacao', v)} />
    </SearchPanel>
  ), [pesquisar, onClear, filter, set]);

  return (
    <ListPage
      title="Instituições Financeiras"
      headerActions={<Button type="button" label="Adicionar" icon="pi pi-plus" onClick={() => navigate(routePath('instituicao-financeira-form'))} />}
      filters={filters}
      label="Instituições Financeiras"
      rows={items}
      dataKey="id"
      query={search ? list : IDLE_QUERY}
      paging={{ kind: 'cursor', pages, nextCursor: search ? list.data?.nextCursor : undefined, label: 'Paginação de instituições financeiras' }}
    >
      <Column field="razaoSocial" header="Nome" />
      <Column header="CNPJ" body={(i: Instituicao) => formatCnpjBase(i.cnpj)} bodyClassName="list-nowrap" />
      <Column header="Tipo" body={(i: Instituicao) => i.tipo ?? ''} />
      <Column field="uf" header="UF" />
      <Column header="Status" body={(i: Instituicao) => situacaoLabel(i.situacao)} />
      <Column
        header="Ações"
        style={{ width: '6rem' }}
        body={(i: Instituicao) => <RowActions actions={[{ icon: 'pi pi-pencil', label: 'Editar', ariaLabel: `Editar ${i.razaoSocial}`, onClick: () => edit(i) }]} />}
      />
    </ListPage>
  );
}
