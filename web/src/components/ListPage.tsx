import './list-page.css';
import { formatBRL, type Centavos } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { DataTable, type DataTablePageEvent, type DataTableProps, type DataTableValueArray } from 'primereact/datatable';
import { useDeferredValue, useMemo, type ReactNode } from 'react';
import { userMessageOf } from '../lib/api/errors';
import type { CursorPages } from '../lib/cursor-pages';
import { CursorPaginator } from './CursorPaginator';
import { PAGE_SIZES, serverPaging } from './listing';

/**
 * The list page of the portal: a title with its buttons, the filter panel, the list's own actions
 * (Exportar CSV) and the table with its paging. Every list screen uses it, so that each shows the same
 * four states the same way (issue 28):
 * - loading: a spinner over the table, never 'Nenhum registro encontrado' (the answer is not in yet);
 * - error: the catalogue's message ('Serviço indisponível' for a 5xx, a timeout, no network) with
 *   'Tentar novamente', which asks again; never an empty table, which would read as "there is none";
 * - empty: 'Nenhum registro encontrado' only after a successful answer with no row;
 * - idle (a search not made yet): nothing.
 */

/** What the list needs of the request(s) behind its rows: react-query's result fits. */
export interface ListQuery {
  isFetching: boolean;
  isError: boolean;
  isSuccess: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * One request state from several (a list that needs its options and its rows): fetching while any is,
 * failed when any failed (the first failure is shown), successful when all answered; a retry asks
 * again those that failed.
 */
export function combineQueries(...queries: (ListQuery | false | null | undefined)[]): ListQuery {
  const active = queries.filter((q): q is ListQuery => Boolean(q));
  const failed = active.filter((q) => q.isError);
  return {
    isFetching: active.some((q) => q.isFetching),
    isError: failed.length > 0,
    isSuccess: active.length > 0 && active.every((q) => q.isSuccess),
    error: failed[0]?.error ?? null,
    refetch: () => {
      for (const q of failed.length > 0 ? failed : active) void q.refetch();
    },
  };
}

/** The request of a search not made yet (the filters wait for Pesquisar): the list shows nothing. */
export const IDLE_QUERY: ListQuery = { isFetching: false, isError: false, isSuccess: false, error: null, refetch: () => undefined };

/** How the list pages: by page number on the server, by cursor on the server, in the browser, or not. */
export type ListPaging =
  | { kind: 'pages'; page: number; size: number; total: number; onPage: (event: DataTablePageEvent) => void }
  | { kind: 'cursor'; pages: CursorPages; nextCursor: string | undefined; total?: number | undefined; label?: string; sizes?: readonly number[] }
  | { kind: 'local'; rows?: number }
  | { kind: 'none' };

export type ListState = 'loading' | 'error' | 'empty' | 'rows' | 'idle';

/** The state a list shows for its request and rows (exported for the tests and the pages' own texts). */
export function listState(query: ListQuery, rowCount: number): ListState {
  if (query.isFetching) return 'loading';
  if (query.isError) return 'error';
  if (!query.isSuccess) return 'idle';
  return rowCount === 0 ? 'empty' : 'rows';
}

export interface ListTableProps<T extends DataTableValueArray> {
  /** The table's accessible name. */
  label: string;
  rows: T | undefined;
  /** The row's key field; none where the rows have no id (their position keys them). */
  dataKey?: string;
  query: ListQuery;
  paging?: ListPaging;
  /** The Column elements. */
  children: ReactNode;
  /** The empty message of this list, when it says more than 'Nenhum registro encontrado'. */
  emptyText?: string;
  /** Other DataTable props (footers, sorting, row classes). */
  table?: Omit<DataTableProps<T>, 'value' | 'dataKey' | 'children' | 'loading' | 'emptyMessage'>;
}

/** The error state: the message and 'Tentar novamente'. */
export function ListError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="list-error" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <span>{userMessageOf(error)}</span>
      <Button type="button" label="Tentar novamente" icon="pi pi-refresh" size="small" outlined onClick={onRetry} />
    </div>
  );
}

/** The table of a list page with its states and paging (see the file's comment). */
export function ListTable<T extends DataTableValueArray>({ label, rows, dataKey, query, paging = { kind: 'local' }, emptyText, children, table }: ListTableProps<T>) {
  const state = listState(query, rows?.length ?? 0);
  // A failed request shows no rows: those on screen would be the previous search's, not this one's.
  const value = (state === 'error' ? [] : (rows ?? [])) as T;
  const emptyMessage =
    state === 'error' ? <ListError error={query.error} onRetry={() => void query.refetch()} /> : state === 'empty' ? (emptyText ?? MESSAGES.nenhumRegistro) : ' ';
  const pagingProps =
    paging.kind === 'pages'
      ? { ...serverPaging(paging.page, paging.size, paging.total), onPage: paging.onPage }
      : paging.kind === 'local'
        ? { paginator: true, rows: paging.rows ?? 10, rowsPerPageOptions: [...PAGE_SIZES] as number[] }
        : paging.kind === 'cursor'
          ? { lazy: true }
          : {};
  const { pt, ...rest } = table ?? {};
  const props = {
    stripedRows: true,
    ...pagingProps,
    ...rest,
    value,
    ...(dataKey ? { dataKey } : {}),
    loading: state === 'loading',
    emptyMessage,
    className: ['list-table', rest.className].filter(Boolean).join(' '),
    pt: { ...pt, table: { 'aria-label': label, 'aria-busy': state === 'loading' }, wrapper: { tabIndex: 0, role: 'region', 'aria-label': `${label} (rolável)` } },
  } as DataTableProps<T>;
  // The table is drawn in the background (a deferred render React splits into short slices), not in
  // the task that brought the list's answer: a query's answer renders synchronously (react-query reads
  // its store through useSyncExternalStore), and PrimeReact's DataTable costs ~0.3 ms a cell in Chromium
  // unthrottled, four times that on Lighthouse's phone: a long task that blocks input (Total Blocking
  // Time, issue 39). Until that render is done, the table on screen is the previous render's, for a few
  // frames.
  const deferred = useDeferredValue({ props, children });
  const drawn = useMemo(() => <DataTable {...deferred.props}>{deferred.children}</DataTable>, [deferred]);
  return (
    <>
      {drawn}
      {paging.kind === 'cursor' && state !== 'error' && (
        <CursorPaginator pages={paging.pages} nextCursor={paging.nextCursor} loading={query.isFetching} total={paging.total} label={paging.label ?? `Paginação de ${label.toLowerCase()}`} {...(paging.sizes ? { sizes: paging.sizes } : {})} />
      )}
    </>
  );
}

export interface ListPageProps<T extends DataTableValueArray> extends ListTableProps<T> {
  /** The page's heading; none for a list inside a tab or a dialog. */
  title?: string;
  /** Buttons beside the heading (Adicionar). */
  headerActions?: ReactNode;
  /** The filter panel (a form role="search" with its Pesquisar). */
  filters?: ReactNode;
  /** The list's own actions above it, on the right (Exportar CSV). */
  listActions?: ReactNode;
  /** Anything between the filters and the table (a summary, a note). */
  before?: ReactNode;
}

/** A whole list page: heading, filters, list actions and the table (see the file's comment). */
export function ListPage<T extends DataTableValueArray>({ title, headerActions, filters, listActions, before, ...table }: ListPageProps<T>) {
  return (
    <>
      {title !== undefined && (
        <div className="page-header">
          <h1 className="app-page-title">{title}</h1>
          {headerActions}
        </div>
      )}
      {filters}
      {before}
      {listActions && <div className="page-actions page-list-actions">{listActions}</div>}
      <ListTable {...table} />
    </>
  );
}

/**
 * Column props of an amount in centavos: right-aligned and on one line ('R$ 236,64' never wraps into
 * 'R$ / 236,64'). `valor` reads the row's amount; none leaves the cell empty.
 */
export function moneyColumn<T>(valor: (row: T) => number | null | undefined) {
  return {
    body: (row: T) => {
      const centavos = valor(row);
      // The screens' money format (a plain space after R$, as the CSVs and the tests read it).
      return centavos == null || !Number.isInteger(centavos) ? '' : formatBRL(centavos as Centavos);
    },
    align: 'right' as const,
    headerClassName: 'list-money',
    bodyClassName: 'list-money',
    footerClassName: 'list-money',
  };
}

/** Column props of a cell kept on one line (dates, codes, CNPJ). */
export const oneLine = { bodyClassName: 'list-nowrap' } as const;
