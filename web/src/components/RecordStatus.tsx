import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import type { ReactNode } from 'react';

/** A page's data on its way: the spinner and 'Carregando...', announced as a status. */
export function Loading() {
  return (
    <p role="status">
      <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Carregando...
    </p>
  );
}

/**
 * A form whose record did not come or may not be edited now: its title, why (by default 'Recurso não
 * encontrado'; the reason the server gave is already a toast) and the way back.
 */
export function RecordNotFound({ title, text = MESSAGES.recursoNaoEncontrado, onBack }: { title: string; text?: string; onBack: () => void }) {
  return (
    <>
      <h1 className="app-page-title">{title}</h1>
      <p>{text}</p>
      <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={onBack} />
    </>
  );
}

interface RecordGateProps<T> {
  /** The record's query, read afresh on mount: the form starts from this answer, never from an old one. */
  query: { isFetchedAfterMount: boolean; data: T | undefined };
  /** The title of the page that says the record did not come. */
  title: string;
  onBack: () => void;
  /** The form, started from the record. */
  children: (record: T) => ReactNode;
}

/** An edit form's record on its way: 'Carregando...' until it comes, then the form, or RecordNotFound if none came. */
export function RecordGate<T>({ query, title, onBack, children }: RecordGateProps<T>) {
  if (!query.isFetchedAfterMount) return <Loading />;
  if (!query.data) return <RecordNotFound title={title} onBack={onBack} />;
  return children(query.data);
}
