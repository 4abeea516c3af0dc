import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { cursorPage, useCursorPages, type CursorPages } from '../lib/cursor-pages';
import { getSession, saveFilter, type FilterName } from '../lib/session';

/**
 * The search state of a list page (issue 40, "Every screen one way"): every list screen keeps it the
 * same way, so each behaves the same:
 * - the draft is what the filter panel shows as typed; nothing is asked while it changes;
 * - the applied search is what the list shows: `null` (idle: nothing asked, nothing shown) until the
 *   first Pesquisar, or a first search made on arrival (`first`);
 * - Pesquisar runs the page's own checks and conversion (`toSearch`): a refused draft (null) changes
 *   nothing (the page has said why: its toasts, its field errors);
 * - an accepted search shows its first page (a cursor is bound to the query it was made for); the same
 *   search again still asks the server (the user expects fresh data), from its first page;
 * - Limpar puts the draft back to empty and the search back to its cleared value (idle by default);
 * - a saved filter (lib/session.ts) is read on the first render, written on each search applied (and,
 *   where it keeps the page size, when the paginator changes it) and removed by Limpar.
 */

/** A request that can be asked again (react-query's result fits). */
export interface Refetchable {
  refetch: () => unknown;
}

/** The filter a page keeps in the session (SavedFilters), as the hook reads and writes it. */
export interface SavedSearch<D, S> {
  /** The session's key (saveFilter): it stays the page's (the e2e specs read it). */
  name: FilterName;
  /** The draft from the saved value (`{}` when none), field by field; anything malformed falls back. */
  read: (saved: Record<string, unknown>) => D;
  /** The value kept for an applied search (its draft, the search, the page size). */
  write: (draft: D, search: S, perPage: number) => Record<string, unknown>;
  /**
   * The saved page size, where the value keeps one: then a size picked in the paginator is saved with
   * the search, and Limpar brings the default size back with the empty filter.
   */
  perPage?: (saved: Record<string, unknown>) => number;
}

export interface ListSearchOptions<D, S> {
  /** The draft after Limpar, and the first one unless `initial` or `saved` say otherwise. */
  empty: D | (() => D);
  /** The first draft (e.g. the last 30 days), when it is not the empty one. */
  initial?: D | (() => D);
  /** Pesquisar's checks and conversion: the search, or null when refused (the page says why). */
  toSearch: (draft: D) => S | null;
  /** The search on arrival: 'idle' (the default: nothing until Pesquisar) or the first draft's. */
  first?: 'idle' | ((draft: D) => S | null);
  /** The search after Limpar: 'idle', or the empty draft's; by default what `first` gives the empty draft. */
  cleared?: 'idle' | ((empty: D) => S | null);
  /** The page size of the first page shown (the saved one when the filter keeps it). */
  perPage: number;
  saved?: SavedSearch<D, S>;
}

export interface ListSearch<D, S> {
  /** The filter panel's values as typed. */
  draft: D;
  /** One field of the draft. */
  set: <K extends keyof D>(key: K, value: D[K]) => void;
  setDraft: (draft: D | ((draft: D) => D)) => void;
  /** The applied search; null: idle. */
  search: S | null;
  /** The cursor pages of the applied search. */
  pages: CursorPages;
  /** The page to ask for: perPage, and the cursor past the first page. */
  page: { perPage: number; cursor?: string };
  /** The search form's submit handler; `list` is the list's request (none: a list filtered in the browser). */
  onSubmit: (list?: Refetchable) => (event?: FormEvent) => void;
  /** Limpar. */
  onClear: () => void;
  /** Applies a search without Pesquisar's checks (a paginator or a sort of a page-numbered list). */
  apply: (search: S | null) => void;
}

const valueOf = <T>(value: T | (() => T)): T => (typeof value === 'function' ? (value as () => T)() : value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useListSearch<D, S>(options: ListSearchOptions<D, S>): ListSearch<D, S> {
  const { saved } = options;
  // Read once: the session's saved value (anything but an object counts as none).
  const [stored] = useState<Record<string, unknown> | null>(() => (saved ? (getSession().filters[saved.name] ?? {}) : null));
  const [draft, setDraft] = useState<D>(() => (saved && stored ? saved.read(stored) : valueOf(options.initial ?? options.empty)));
  const [search, setSearch] = useState<S | null>(() => (options.first === undefined || options.first === 'idle' ? null : options.first(draft)));
  const defaultPerPage = options.perPage;
  const pages = useCursorPages(search, saved?.perPage && stored ? saved.perPage(stored) : defaultPerPage);
  /** The draft of the applied search and the page size last saved with it (for the paginator's save). */
  const applied = useRef({ draft, perPage: pages.perPage });

  const keepsSize = Boolean(saved?.perPage);
  useEffect(() => {
    // A page size picked in the paginator is kept with the search, as the size the list comes back with.
    if (!saved || !keepsSize || search === null || pages.perPage === applied.current.perPage) return;
    applied.current = { ...applied.current, perPage: pages.perPage };
    saveFilter(saved.name, saved.write(applied.current.draft, search, pages.perPage));
  }, [saved, keepsSize, search, pages.perPage]);

  // The handlers below keep one identity for the page's life, so that a page can keep its filter panel
  // out of the renders its list's answers cause (a panel of calendars and dropdowns is most of a list
  // page's render on a phone: issue 39). They read the last render's values when they run.
  const latest = useRef({ draft, search, pages, options, list: undefined as Refetchable | undefined });
  useLayoutEffect(() => {
    latest.current = { ...latest.current, draft, search, pages, options };
  });

  const apply = useCallback((next: S | null) => {
    const { options: { saved }, pages } = latest.current;
    setSearch(next);
    if (saved && next !== null) saveFilter(saved.name, saved.write(applied.current.draft, next, pages.perPage));
  }, []);

  const submit = useCallback((event?: FormEvent) => {
    event?.preventDefault();
    const { draft, search, pages, options, list } = latest.current;
    const next = options.toSearch(draft);
    if (next === null) return;
    // The same search again still asks the server (the user expects fresh data), from its first page.
    if (same(next, search)) {
      if (pages.page === 1) void list?.refetch();
      else pages.reset();
    }
    setSearch(next);
    if (options.saved) {
      applied.current = { draft, perPage: pages.perPage };
      saveFilter(options.saved.name, options.saved.write(draft, next, pages.perPage));
    }
  }, []);

  // The list is the last render's (its refetch is the same function from one render to the next).
  const onSubmit = useCallback(
    (list?: Refetchable) => {
      latest.current.list = list;
      return submit;
    },
    [submit],
  );

  const onClear = useCallback(() => {
    const { options, pages } = latest.current;
    const empty = valueOf(options.empty);
    const cleared = options.cleared ?? options.first ?? 'idle';
    setDraft(empty);
    setSearch(cleared === 'idle' ? null : cleared(empty));
    if (!options.saved) return;
    if (options.saved.perPage) {
      applied.current = { draft: empty, perPage: options.perPage };
      pages.setPerPage(options.perPage);
    }
    saveFilter(options.saved.name, undefined);
  }, []);

  const set = useCallback(<K extends keyof D>(key: K, value: D[K]) => setDraft((d) => ({ ...d, [key]: value })), []);

  return { draft, set, setDraft, search, pages, page: cursorPage(pages), onSubmit, onClear, apply };
}
