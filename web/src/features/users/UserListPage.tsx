import '../../components/page-layout.css';
import { FilterSelect, SearchPanel } from '../../components/listing';
import { ListPage } from '../../components/ListPage';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { routePath, type UserType } from '@plac/shared/access';
import { users } from '@plac/shared/contracts';
import { formatCpf, MASKS, onlyDigits } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { InputMask } from 'primereact/inputmask';
import { InputText } from 'primereact/inputtext';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { useListSearch, type SavedSearch } from '../../components/list-search';
import { useRegisterDialog } from '../../lib/dialogs';
import { toast } from '../../lib/toast';
import {
  DEFAULT_PAGE_SIZE,
  isPageSize,
  SITUACAO_OPTIONS,
  tipoLabel,
  TIPO_OPTIONS,
  type PageSize,
  type Situacao,
  type User,
} from './model';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { RowActions } from '../../components/RowActions';

/**
 * user-list: filters CPF, name, e-mail, situacao and tipo; the table pages on the server by cursor, in
 * name order (Anterior / Próxima). The search, with its page size, is the session's saved user filter,
 * so coming back from the form shows the same list (from its first page: a cursor is not kept).
 */

/** The filter fields as typed; the CPF holds its digits only. */
export interface UserFilter {
  cpf: string;
  name: string;
  email: string;
  situacao: Situacao | null;
  tipo: UserType | null;
}

/** The saved user filter: the last search and the page size. */
export interface SavedUserSearch extends UserFilter {
  size: PageSize;
}

export const EMPTY_FILTER: UserFilter = { cpf: '', name: '', email: '', situacao: null, tipo: null };

/** Confirmation before removing (ours: the product's text gives no wording). */
export const CONFIRMA_REMOCAO = 'Deseja realmente remover o usuário?';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The saved user filter (the session's 'user'): the search, field by field (anything malformed falls
 * back to empty), with its page size.
 */
const SAVED: SavedSearch<UserFilter, UserFilter> = {
  name: 'user',
  read: (saved) => ({
    cpf: onlyDigits(text(saved.cpf)).slice(0, 11),
    name: text(saved.name),
    email: text(saved.email),
    situacao: SITUACAO_OPTIONS.find((o) => o.value === saved.situacao)?.value ?? null,
    tipo: TIPO_OPTIONS.find((o) => o.value === saved.tipo)?.value ?? null,
  }),
  write: (_draft, search, perPage) => ({ ...search, size: isPageSize(perPage) ? perPage : DEFAULT_PAGE_SIZE }) satisfies SavedUserSearch,
  perPage: (saved) => (isPageSize(saved.size) ? saved.size : DEFAULT_PAGE_SIZE),
};

/** The list always shows a search, the filter as typed: the saved one on arrival, every user after Limpar. */
const asSearch = (filter: UserFilter) => filter;

export default function UserListPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const listSearch = useListSearch({ empty: EMPTY_FILTER, toSearch: asSearch, first: asSearch, perPage: DEFAULT_PAGE_SIZE, saved: SAVED });
  const { draft: filter, set, pages, page, onSubmit, onClear } = listSearch;
  const search = listSearch.search ?? EMPTY_FILTER;
  const [toRemove, setToRemove] = useState<User | null>(null);

  const filtros = useMemo(
    () => ({
      cpf: search.cpf || undefined,
      name: search.name.trim() || undefined,
      email: search.email.trim() || undefined,
      situacao: search.situacao ?? undefined,
      tipo: search.tipo ?? undefined,
    }),
    [search],
  );
  const query = { ...filtros, ...page };
  const list = useApiQuery(users.listUsers, { query }, { placeholderData: keepPreviousData });
  const remove = useApiMutation(users.deleteUser);
  const items = list.data?.items ?? [];

  const closeConfirm = () => setToRemove(null);
  useRegisterDialog(toRemove !== null, closeConfirm);

  async function removeUser(user: User) {
    setToRemove(null);
    try {
      await remove.mutateAsync({ params: { id: user.id } });
    } catch {
      // The API client has shown the reason (e.g. 'Você não pode remover seu próprio usuário').
      return;
    }
    toast.success(MESSAGES.remocaoRealizada);
    // The last row of a page: go back one, so the table does not show an empty page.
    if (items.length === 1 && pages.hasPrevious) pages.previous();
    await queryClient.invalidateQueries({ queryKey: apiQueryKey(users.listUsers) });
  }

  const actions = (user: User) => (
    <RowActions
      actions={[
        { icon: 'pi pi-pencil', label: 'Editar', onClick: () => navigate(routePath('user-form', { id: user.id })) },
        { icon: 'pi pi-trash', label: 'Remover', severity: 'danger', onClick: () => setToRemove(user) },
      ]}
    />
  );

  // The panel is the same element until its own values change: the list's answers do not render it again.
  const pesquisar = onSubmit(list);
  const filters = useMemo(() => (
    <SearchPanel label="Filtros de usuários" onSubmit={pesquisar} onClear={onClear}>
      <div className="page-field">
        <label htmlFor="filtro-cpf">CPF</label>
        <InputMask
          id="filtro-cpf"
          mask={MASKS.cpf}
          unmask
          autoClear={false}
          value={filter.cpf}
          onChange={(e) => set('cpf', onlyDigits(e.value ?? ''))}
        />
      </div>
      <div className="page-field">
        <label htmlFor="filtro-nome">Nome</label>
        <InputText id="filtro-nome" maxLength={100} value={filter.name} onChange={(e) => set('name', e.target.value)} />
      </div>
      <div className="page-field">
        <label htmlFor="filtro-email">E-mail</label>
        <InputText id="filtro-email" maxLength={100} value={filter.email} onChange={(e) => set('email', e.target.value)} />
      </div>
      <FilterSelect id="filtro-situacao" label="Situação" options={SITUACAO_OPTIONS} value={filter.situacao} onChange={(v) => set('situacao', v)} placeholder="Todas" />
      <FilterSelect id="filtro-tipo" label="Tipo" options={TIPO_OPTIONS} value={filter.tipo} onChange={(v) => set('tipo', v)} />
    </SearchPanel>
  ), [pesquisar, onClear, filter, set]);

  return (
    <>
      <ListPage
        title="Usuários"
        headerActions={<Button type="button" label="Adicionar" icon="pi pi-plus" onClick={() => navigate(routePath('user-form', { id: 'new' }))} />}
        filters={filters}
        label="Usuários"
        rows={items}
        dataKey="id"
        query={list}
        paging={{ kind: 'cursor', pages, nextCursor: list.data?.nextCursor, label: 'Paginação de usuários' }}
      >
        <Column field="name" header="Nome" />
        <Column field="email" header="E-mail" />
        <Column header="Tipo" body={(user: User) => tipoLabel(user.tipo_usuario)} />
        <Column header="CPF/CNPJ" body={(user: User) => formatCpf(user.cpf)} bodyClassName="list-nowrap" />
        <Column header="UF" body={(user: User) => user.uf ?? ''} />
        <Column header="Ações" body={actions} style={{ width: '7rem' }} />
      </ListPage>

      <ConfirmSimNao target={toRemove} message={CONFIRMA_REMOCAO} onConfirm={(t) => void removeUser(t)} onClose={closeConfirm} danger />
    </>
  );
}
