import './page-layout.css';
import './field.css';
import type { ReactNode } from 'react';
import { FieldError } from './FieldError';
import { RequiredMark } from './RequiredMark';

/**
 * Where a field stands, which only decides its frame; label, mark, control and messages are the same:
 * - 'form': a `.form-field` (the login card, the profile, the institution and tariff forms);
 * - 'page': a `.page-field` cell of a page grid (the user form);
 * - 'cliente': a `.page-field` of the client screens, whose required mark stands beside the label and
 *   outside it, so that the field's accessible name is the label's text exactly.
 */
export type FormFieldLayout = 'form' | 'page' | 'cliente';

export interface FormFieldProps {
  /** The input's id: the label points at it, and its messages get the id `${id}-error`. */
  id: string;
  label: string;
  /** Shows the required mark beside the label (give the input aria-required too: see describedBy). */
  required?: boolean;
  /** The field's name in the API's `errors` (the id when not given). */
  field?: string;
  /** The failed call (its field errors show here). */
  error?: unknown;
  /** The page's own messages for the field (required, invalid CNPJ, ...); empty entries show nothing. */
  messages?: readonly (string | null | undefined)[] | undefined;
  /** Shown under the input, e.g. a CharCounter. */
  hint?: ReactNode;
  /** Spans the whole row of the page grid. */
  wide?: boolean;
  /** A group of radios or checkboxes: a fieldset (with the id) and a legend instead of the label. */
  group?: boolean;
  layout?: FormFieldLayout;
  children: ReactNode;
}

/** The id of a field's messages, which its input's aria-describedby points at. */
export const errorId = (id: string) => `${id}-error`;

/**
 * The aria props of the input inside a FormField: described by its messages (after `extra`, e.g. a
 * hint's or a counter's id), and aria-required when the field is required.
 */
export function describedBy(id: string, required = false, extra?: string) {
  return { 'aria-describedby': extra ? `${extra} ${errorId(id)}` : errorId(id), ...(required ? { 'aria-required': true } : {}) };
}

/**
 * The one labelled form field of the portal: the label (with the required mark), the control, an
 * optional hint, and its messages beside it (the page's own first, then the server's for `field`).
 */
export function FormField({ id, label, required, field, error, messages, hint, wide, group, layout = 'form', children }: FormFieldProps) {
  const own = (messages ?? []).filter((m): m is string => Boolean(m));
  const frame = layout === 'form' ? 'form-field' : 'page-field';
  const className = wide ? `${frame} page-field-wide` : frame;
  const errors = <FieldError error={error} field={field ?? id} id={errorId(id)} messages={own} />;
  if (group) {
    return (
      <fieldset className={className} id={id} aria-describedby={errorId(id)}>
        <legend>
          {label}
          {required && <RequiredMark />}
        </legend>
        {children}
        {hint}
        {errors}
      </fieldset>
    );
  }
  const caption =
    layout === 'cliente' ? (
      <div className="clientes-label">
        <label htmlFor={id}>{label}</label>
        {required && <RequiredMark />}
      </div>
    ) : (
      <label htmlFor={id}>
        {label}
        {required && <RequiredMark />}
      </label>
    );
  return (
    <div className={className}>
      {caption}
      {children}
      {hint}
      {errors}
    </div>
  );
}
