import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import type { CursorPages } from '../lib/cursor-pages';
import { PAGE_SIZES } from './listing';

/**
 * The paginator of every list paged on the server by cursor (lib/cursor-pages.ts): 'Anterior',
 * 'Página N', 'Próxima' and the page size. There is no page count: a list knows its total only where a
 * counter holds it (`total`, shown when given).
 */
export function CursorPaginator({
  pages,
  nextCursor,
  loading = false,
  total,
  sizes = PAGE_SIZES,
  label = 'Paginação',
}: {
  pages: CursorPages;
  nextCursor: string | undefined;
  loading?: boolean;
  total?: number | undefined;
  sizes?: readonly number[];
  label?: string;
}) {
  const sizeId = `${label.replace(/\W+/g, '-').toLowerCase()}-tamanho`;
  return (
    <nav className="cursor-paginator" aria-label={label} style={{ display: 'flex', alignItems: 'center', gap: '0.75rem', flexWrap: 'wrap', padding: '0.5rem 0' }}>
      <Button type="button" label="Anterior" icon="pi pi-angle-left" text disabled={loading || !pages.hasPrevious} onClick={pages.previous} />
      <span aria-live="polite">Página {pages.page}</span>
      <Button
        type="button"
        label="Próxima"
        icon="pi pi-angle-right"
        iconPos="right"
        text
        disabled={loading || !nextCursor}
        onClick={() => nextCursor && pages.next(nextCursor)}
      />
      <label htmlFor={sizeId}>Registros por página</label>
      <Dropdown inputId={sizeId} value={pages.perPage} options={sizes.map((n) => ({ value: n, label: String(n) }))} onChange={(e) => pages.setPerPage(Number(e.value))} />
      {total !== undefined && <span>Total de registros: {total}</span>}
    </nav>
  );
}

/**
 * DataTable props of a cursor-paged list: lazy (the server pages), PrimeReact's loading state, and no
 * 'Nenhum registro encontrado' while the page is on its way.
 */
export function cursorTable(loading: boolean) {
  return {
    lazy: true,
    loading,
    emptyMessage: loading ? ' ' : MESSAGES.nenhumRegistro,
    stripedRows: true,
  };
}
