import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import type { FormEvent, ReactNode } from 'react';

/**
 * What every list page shares: the page sizes (10, 25, 50, 100), the filter panel with its
 * Pesquisar (and Limpar where the screen clears), and the props of a server-paged DataTable.
 */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
/** The default page size of every list (the contracts' pageQuery). */
export const DEFAULT_PAGE_SIZE: PageSize = 25;

/** Whether a value read from the address or a saved filter is one of the page sizes. */
export function isPageSize(value: unknown): value is PageSize {
  return (PAGE_SIZES as readonly unknown[]).includes(value);
}

/** Pesquisar, and Limpar when the screen can clear its filters. */
export function SearchActions({ onClear }: { onClear?: (() => void) | undefined }) {
  return (
    <div className="page-actions">
      <Button type="submit" label="Pesquisar" icon="pi pi-search" />
      {onClear && <Button type="button" label="Limpar" icon="pi pi-eraser" severity="secondary" outlined onClick={onClear} />}
    </div>
  );
}

/**
 * The filter panel of a list page: a search form (its accessible name `label`) with the fields in the
 * page grid and Pesquisar/Limpar below. The screens check their fields themselves and say what is wrong
 * beside them (noValidate: no browser bubbles in another language).
 */
export function SearchPanel({ label, onSubmit, onClear, children }: { label: string; onSubmit: (event: FormEvent) => void; onClear?: () => void; children: ReactNode }) {
  return (
    <form className="page-panel" role="search" aria-label={label} onSubmit={onSubmit} noValidate>
      <div className="page-grid">{children}</div>
      <SearchActions onClear={onClear} />
    </form>
  );
}

/**
 * A filter's select in the panel: its label, the placeholder ('Todos', 'Todas') standing for "any",
 * and a clear button back to it; `search` adds the options' text filter (long lists: UFs, clients).
 */
export function FilterSelect<V extends string>({
  id,
  label,
  options,
  value,
  onChange,
  placeholder = 'Todos',
  search = false,
}: {
  id: string;
  label: string;
  options: readonly { value: V; label: string }[];
  value: V | null;
  onChange: (value: V | null) => void;
  placeholder?: string;
  search?: boolean;
}) {
  return (
    <div className="page-field">
      <label htmlFor={id}>{label}</label>
      <Dropdown
        inputId={id}
        options={[...options]}
        value={value}
        onChange={(e) => onChange((e.value as V | undefined) ?? null)}
        placeholder={placeholder}
        showClear
        {...(search ? { filter: true, filterBy: 'label' } : {})}
      />
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
