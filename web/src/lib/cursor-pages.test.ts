import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useCursorPages } from './cursor-pages';

describe('useCursorPages', () => {
  it('keeps the stack of cursors: Próxima pushes, Anterior pops; the filters or the page size start again at page 1', () => {
    const { result, rerender } = renderHook(({ filtros }) => useCursorPages(filtros, 25), { initialProps: { filtros: { uf: 'BA' } as unknown } });
    expect(result.current).toMatchObject({ cursor: undefined, page: 1, perPage: 25, hasPrevious: false });
    act(() => result.current.next('c2'));
    act(() => result.current.next('c3'));
    expect(result.current).toMatchObject({ cursor: 'c3', page: 3, hasPrevious: true });
    act(() => result.current.previous());
    expect(result.current).toMatchObject({ cursor: 'c2', page: 2 });
    rerender({ filtros: { uf: 'BA' } });
    expect(result.current.page).toBe(2);
    rerender({ filtros: { uf: 'SE' } });
    expect(result.current).toMatchObject({ cursor: undefined, page: 1 });
    act(() => result.current.next('x'));
    act(() => result.current.setPerPage(50));
    expect(result.current).toMatchObject({ cursor: undefined, page: 1, perPage: 50 });
    act(() => result.current.previous());
    expect(result.current.page).toBe(1);
  });
});
