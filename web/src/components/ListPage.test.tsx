import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { users } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { Column } from 'primereact/column';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useApiQuery } from '../lib/api';
import { jsonResponse, signIn } from '../test/render';
import { ApiError } from '../lib/api/errors';
import { useCursorPages } from '../lib/cursor-pages';
import { combineQueries, IDLE_QUERY, ListPage, ListTable, listState, moneyColumn, type ListQuery } from './ListPage';

/** A list of users through the real API client and react-query, as the screens use it. */
function UsersList() {
  const list = useApiQuery(users.listUsers, { query: { perPage: 10 } });
  return (
    <ListPage title="Usuários" label="Usuários" rows={list.data?.items} dataKey="id" query={list}>
      <Column field="name" header="Nome" />
    </ListPage>
  );
}

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <UsersList />
    </QueryClientProvider>,
  );
}

const user = {
  id: 'u-1',
  name: 'Ana Lima',
  email: 'ana@example.com',
  cpf: '52998224725',
  telefone: null,
  situacao: 'A',
  tipo_usuario: 'S',
  roles: [{ slug: 'sefaz_admin', label: 'Administrador' }],
  uf: 'BA',
  cliente_id: null,
  cliente: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  updated_by: null,
};
const page = (items: unknown[]) => ({ items });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ListPage', () => {
  it('shows a spinner while loading, never the empty message', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    signIn(['sefaz_admin']);
    const { container } = renderList();
    const table = await screen.findByRole('table', { name: 'Usuários' });
    await waitFor(() => expect(table.getAttribute('aria-busy')).toBe('true'));
    expect(container.querySelector('.p-datatable-loading-overlay')).not.toBeNull();
    expect(screen.queryByText(MESSAGES.nenhumRegistro)).toBeNull();
    answer(jsonResponse(200, page([])));
    expect(await screen.findByText(MESSAGES.nenhumRegistro)).toBeTruthy();
  });

  it('shows the empty message after a successful empty answer', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(200, page([]))));
    signIn(['sefaz_admin']);
    renderList();
    expect(await screen.findByText(MESSAGES.nenhumRegistro)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Tentar novamente' })).toBeNull();
  });

  it('shows Serviço indisponível with Tentar novamente on a 500, and the retry asks again and shows the rows', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse(500, { error: 'erroInterno' }))
      .mockResolvedValueOnce(jsonResponse(200, page([user])));
    vi.stubGlobal('fetch', fetchMock);
    signIn(['sefaz_admin']);
    renderList();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.servicoIndisponivel)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.nenhumRegistro)).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Ana Lima')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows Serviço indisponível when the network fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    signIn(['sefaz_admin']);
    renderList();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.servicoIndisponivel)).toBeTruthy();
  });
});

/** A cursor-paged table over a fixed request state (no fetch): what the states render. */
function CursorList({ query, rows }: { query: ListQuery; rows: { id: string; nome: string }[] }) {
  const pages = useCursorPages({}, 10);
  return (
    <ListTable label="Itens" rows={rows} dataKey="id" query={query} paging={{ kind: 'cursor', pages, nextCursor: 'c2' }}>
      <Column field="nome" header="Nome" />
    </ListTable>
  );
}

describe('ListTable states without a request in flight', () => {
  it('shows nothing before a search (idle): neither the empty message nor an error', () => {
    render(<CursorList query={IDLE_QUERY} rows={[]} />);
    expect(screen.queryByText(MESSAGES.nenhumRegistro)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('on a failure hides the rows of the previous answer and the paginator', () => {
    const failed: ListQuery = { isFetching: false, isError: true, isSuccess: false, error: new ApiError({ status: 0, message: MESSAGES.servicoIndisponivel }), refetch: vi.fn() };
    render(<CursorList query={failed} rows={[{ id: '1', nome: 'Antiga' }]} />);
    expect(screen.getByRole('alert').textContent).toContain(MESSAGES.servicoIndisponivel);
    expect(screen.queryByText('Antiga')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Paginação de itens' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(failed.refetch).toHaveBeenCalledTimes(1);
  });

  it('says a 4xx refusal as the server put it, not as unavailable', () => {
    const refused: ListQuery = { isFetching: false, isError: true, isSuccess: false, error: new ApiError({ status: 422, message: 'Período inválido.' }), refetch: vi.fn() };
    render(<CursorList query={refused} rows={[]} />);
    expect(screen.getByRole('alert').textContent).toContain('Período inválido.');
  });

  it('shows the rows and the paginator after a successful answer', () => {
    const ok: ListQuery = { isFetching: false, isError: false, isSuccess: true, error: null, refetch: vi.fn() };
    render(<CursorList query={ok} rows={[{ id: '1', nome: 'Atual' }]} />);
    expect(screen.getByText('Atual')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Paginação de itens' })).toBeTruthy();
  });
});

describe('listState and combineQueries', () => {
  const q = (over: Partial<ListQuery>): ListQuery => ({ isFetching: false, isError: false, isSuccess: false, error: null, refetch: vi.fn(), ...over });

  it('is idle before any answer, empty only after a successful one', () => {
    expect(listState(q({}), 0)).toBe('idle');
    expect(listState(q({ isFetching: true, isSuccess: true }), 0)).toBe('loading');
    expect(listState(q({ isSuccess: true }), 0)).toBe('empty');
    expect(listState(q({ isSuccess: true }), 2)).toBe('rows');
    expect(listState(q({ isError: true, error: new ApiError({ status: 503, message: 'x' }) }), 3)).toBe('error');
  });

  it('fails when one of its requests fails, and retries only the failed one', () => {
    const ok = q({ isSuccess: true });
    const failed = q({ isError: true, error: 'x' });
    const combined = combineQueries(ok, failed, false);
    expect(combined.isError).toBe(true);
    expect(combined.isSuccess).toBe(false);
    void combined.refetch();
    expect(failed.refetch).toHaveBeenCalledTimes(1);
    expect(ok.refetch).not.toHaveBeenCalled();
  });

  it('moneyColumn formats centavos on one line', () => {
    const col = moneyColumn((r: { v: number }) => r.v);
    expect(col.body({ v: 23664 })).toBe('R$ 236,64');
    expect(col.bodyClassName).toBe('list-money');
  });
});
