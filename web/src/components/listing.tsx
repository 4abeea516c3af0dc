import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';

/**
 * What every list page shares: the page sizes (10, 25, 50, 100), the Pesquisar/Limpar pair of
 * the filter panel, and the props of a server-paged DataTable.
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

export function SearchActions({ onClear }: { onClear: () => void }) {
  return (
    <div className="page-actions">
      <Button type="submit" label="Pesquisar" icon="pi pi-search" />
      <Button type="button" label="Limpar" icon="pi pi-eraser" severity="secondary" outlined onClick={onClear} />
    </div>
  );
}

/** DataTable props for a list paged on the server (page is 1-based). */
export function serverPaging(page: number, size: number, total: number) {
  return {
    lazy: true,
    paginator: true,
    first: (page - 1) * size,
    rows: size,
    totalRecords: total,
    rowsPerPageOptions: [...PAGE_SIZES] as number[],
    emptyMessage: MESSAGES.nenhumRegistro,
    paginatorTemplate: 'FirstPageLink PrevPageLink PageLinks NextPageLink LastPageLink RowsPerPageDropdown CurrentPageReport',
    currentPageReportTemplate: 'Total de registros: {totalRecords}',
    stripedRows: true,
  };
}
