import { keepPreviousData, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Column } from 'primereact/column';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSession, resetSession, saveFilter } from '../lib/session';
import { useListSearch, type SavedSearch } from './list-search';
import { SearchPanel } from './listing';
import { IDLE_QUERY, ListPage } from './ListPage';

interface Draft {
  nome: string;
}
interface Search {
  nome: string;
}

/** What the page asked for, request by request. */
let calls: Record<string, unknown>[] = [];

const SAVED: SavedSearch<Draft, Search> = {
  name: 'user',
  read: (saved) => ({ nome: typeof saved.nome === 'string' ? saved.nome : '' }),
  write: (_draft, search, perPage) => ({ ...search, size: perPage }),
  perPage: (saved) => (typeof saved.size === 'number' ? saved.size : 10),
};

/**
 * A small list page on the hook: one field, Pesquisar refuses '!' (and says so), the rows come from a
 * recorded request; a button stands for the paginator's size select.
 */
function Page({ first, saved }: { first?: 'idle' | ((d: Draft) => Search | null); saved?: SavedSearch<Draft, Search> }) {
  const s = useListSearch<Draft, Search>({
    empty: { nome: '' },
    toSearch: (d) => (d.nome === '!' ? null : { nome: d.nome.trim() }),
    perPage: 10,
    ...(first ? { first } : {}),
    ...(saved ? { saved } : {}),
  });
  const list = useQuery({
    queryKey: ['itens', s.search, s.page],
    queryFn: async () => {
      calls.push({ ...s.search, ...s.page });
      return { items: [{ id: `${s.search?.nome ?? ''}-${s.page.cursor ?? '1'}`, nome: `Linha ${s.search?.nome ?? ''}` }], nextCursor: 'c2' };
    },
    enabled: s.search !== null,
    placeholderData: keepPreviousData,
  });
  const filters = (
    <SearchPanel label="Filtros" onSubmit={s.onSubmit(list)} onClear={s.onClear}>
      <label htmlFor="nome">Nome</label>
      <input id="nome" value={s.draft.nome} onChange={(e) => s.set('nome', e.target.value)} />
    </SearchPanel>
  );
  return (
    <>
      <button type="button" onClick={() => s.pages.setPerPage(50)}>
        Cinquenta
      </button>
      <ListPage
        title="Itens"
        filters={filters}
        label="Itens"
        rows={s.search ? list.data?.items : []}
        dataKey="id"
        query={s.search ? list : IDLE_QUERY}
        paging={{ kind: 'cursor', pages: s.pages, nextCursor: s.search ? list.data?.nextCursor : undefined }}
      >
        <Column field="nome" header="Nome" />
      </ListPage>
    </>
  );
}

function renderPage(props: Parameters<typeof Page>[0] = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Page {...props} />
    </QueryClientProvider>,
  );
}

const type = (value: string) => fireEvent.change(screen.getByLabelText('Nome'), { target: { value } });
const pesquisar = () => fireEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));

beforeEach(() => {
  calls = [];
  resetSession();
});
afterEach(() => resetSession());

describe('useListSearch', () => {
  it('is idle until Pesquisar, then asks for the first page of the search typed', async () => {
    renderPage();
    type('ana');
    await act(async () => {});
    expect(calls).toEqual([]);
    expect(screen.queryByText('Linha ana')).toBeNull();
    pesquisar();
    expect(await screen.findByText('Linha ana')).toBeTruthy();
    expect(calls).toEqual([{ nome: 'ana', perPage: 10 }]);
  });

  it('asks again for the same search, from its first page', async () => {
    renderPage();
    type('ana');
    pesquisar();
    await screen.findByText('Linha ana');
    pesquisar();
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual({ nome: 'ana', perPage: 10 });
    fireEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]).toEqual({ nome: 'ana', perPage: 10, cursor: 'c2' });
    expect(await screen.findByText('Página 2')).toBeTruthy();
    pesquisar();
    await waitFor(() => expect(calls).toHaveLength(4));
    expect(calls[3]).toEqual({ nome: 'ana', perPage: 10 });
    expect(screen.getByText('Página 1')).toBeTruthy();
  });

  it('a refused draft changes nothing: no request, the search on screen stays', async () => {
    renderPage();
    type('ana');
    pesquisar();
    await screen.findByText('Linha ana');
    type('!');
    pesquisar();
    await act(async () => {});
    expect(calls).toHaveLength(1);
    expect(screen.getByText('Linha ana')).toBeTruthy();
  });

  it('Limpar empties the draft and goes back to idle', async () => {
    renderPage();
    type('ana');
    pesquisar();
    await screen.findByText('Linha ana');
    fireEvent.click(screen.getByRole('button', { name: 'Limpar' }));
    expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(screen.queryByText('Linha ana')).toBeNull());
    expect(calls).toHaveLength(1);
  });

  it('searches on arrival with first, and Limpar searches the empty draft', async () => {
    renderPage({ first: (d) => ({ nome: d.nome }) });
    await waitFor(() => expect(calls).toEqual([{ nome: '', perPage: 10 }]));
    type('ana');
    pesquisar();
    await screen.findByText('Linha ana');
    fireEvent.click(screen.getByRole('button', { name: 'Limpar' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]).toEqual({ nome: '', perPage: 10 });
  });

  it('restores the saved filter with its page size, saves each search and size, and Limpar removes it', async () => {
    saveFilter('user', { nome: 'bia', size: 25 });
    renderPage({ first: (d) => ({ nome: d.nome }), saved: SAVED });
    expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('bia');
    await waitFor(() => expect(calls).toEqual([{ nome: 'bia', perPage: 25 }]));
    type('ana');
    pesquisar();
    await screen.findByText('Linha ana');
    expect(getSession().filters.user).toEqual({ nome: 'ana', size: 25 });
    fireEvent.click(screen.getByRole('button', { name: 'Cinquenta' }));
    await waitFor(() => expect(getSession().filters.user).toEqual({ nome: 'ana', size: 50 }));
    fireEvent.click(screen.getByRole('button', { name: 'Limpar' }));
    await waitFor(() => expect(calls.at(-1)).toEqual({ nome: '', perPage: 10 }));
    expect(getSession().filters.user).toBeUndefined();
  });
});
