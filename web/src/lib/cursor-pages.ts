import { useCallback, useState } from 'react';

/**
 * The pages of a list paged on the server by cursor (docs/architecture.md, "Lists"). The API answers
 * one page and, when more follow, a `nextCursor`; the screen keeps the stack of the cursors it went
 * through, so 'Anterior' asks for the previous page again and 'Próxima' for the next. A change of the
 * filters (`filtros`: anything serialisable that names the query) or of the page size starts again at
 * the first page, as a cursor is bound to the query it was made for.
 */
export interface CursorPages {
  /** The cursor to send for the page shown (undefined: the first page). */
  cursor: string | undefined;
  /** 1-based. */
  page: number;
  perPage: number;
  hasPrevious: boolean;
  next: (nextCursor: string) => void;
  previous: () => void;
  setPerPage: (perPage: number) => void;
  /** Back to the first page (e.g. after a removal). */
  reset: () => void;
}

interface State {
  key: string;
  perPage: number;
  stack: (string | undefined)[];
}

export function useCursorPages(filtros: unknown, defaultPerPage: number): CursorPages {
  const key = JSON.stringify(filtros ?? null);
  const [state, setState] = useState<State>({ key, perPage: defaultPerPage, stack: [undefined] });
  // The filters changed: the first page (adjusting state while rendering, React's documented pattern).
  const current = state.key === key ? state : { ...state, key, stack: [undefined] };
  if (current !== state) setState(current);

  const next = useCallback((cursor: string) => setState((s) => ({ ...s, stack: [...s.stack, cursor] })), []);
  const previous = useCallback(() => setState((s) => (s.stack.length > 1 ? { ...s, stack: s.stack.slice(0, -1) } : s)), []);
  const setPerPage = useCallback((perPage: number) => setState((s) => ({ ...s, perPage, stack: [undefined] })), []);
  const reset = useCallback(() => setState((s) => ({ ...s, stack: [undefined] })), []);

  return {
    cursor: current.stack[current.stack.length - 1],
    page: current.stack.length,
    perPage: current.perPage,
    hasPrevious: current.stack.length > 1,
    next,
    previous,
    setPerPage,
    reset,
  };
}

/** The page to ask for: its size, and its cursor past the first page (the contracts' cursor query). */
export function cursorPage(pages: Pick<CursorPages, 'perPage' | 'cursor'>): { perPage: number; cursor?: string } {
  return { perPage: pages.perPage, ...(pages.cursor ? { cursor: pages.cursor } : {}) };
}
