import './page-layout.css';
import './field.css';
import type { ReactNode } from 'react';
import { FieldError } from './FieldError';
import { RequiredMark } from './RequiredMark';

interface FieldProps {
  /** The input's id: the label points at it, its messages are `${id}-error`. */
  id: string;
  label: string;
  required?: boolean;
  /** The API's name of the field, for the server's messages. */
  field?: string;
  /** The failed call whose field messages are shown. */
  error?: unknown;
  /** The page's own messages (required field, invalid CNPJ, ...). */
  messages?: readonly (string | null | undefined)[];
  wide?: boolean;
  children: ReactNode;
}

export const errorId = (id: string) => `${id}-error`;

/** One labelled field of the client screens, with its messages beside it. */
export function Field({ id, label, required, field, error, messages = [], wide, children }: FieldProps) {
  const own = messages.filter((m): m is string => Boolean(m));
  return (
    <div className={wide ? 'page-field page-field-wide' : 'page-field'}>
      {/* The mark stays outside the label, so that the field's name is the label's text exactly. */}
      <div className="clientes-label">
        <label htmlFor={id}>{label}</label>
        {required && <RequiredMark />}
      </div>
      {children}
      <FieldError error={error} field={field ?? id} id={errorId(id)} messages={own} />
    </div>
  );
}

/** aria props of an input inside Field. */
export function describedBy(id: string, required = false) {
  return { 'aria-describedby': errorId(id), ...(required ? { 'aria-required': true } : {}) };
}
