import '../../components/page-layout.css';
import type { ReactNode } from 'react';
import { FieldError } from '../../components/FieldError';
import { RequiredMark } from '../../components/RequiredMark';

interface FormFieldProps {
  /** The input's id; the label points at it and the messages are `${id}-error`. */
  id: string;
  label: string;
  required?: boolean;
  /** The API's name of the field, for the server's messages. */
  field?: string;
  /** The failed save whose field messages are shown. */
  error?: unknown;
  /** A message of the page itself (required field, invalid CPF). */
  message?: string | null;
  /** A group of radios or checkboxes: fieldset and legend instead of label. */
  group?: boolean;
  wide?: boolean;
  children: ReactNode;
}

export function errorId(id: string): string {
  return `${id}-error`;
}

/** One field of the user screens: label (with the required mark), input, and its messages. */
export function FormField({ id, label, required, field, error, message, group, wide, children }: FormFieldProps) {
  const className = wide ? 'page-field page-field-wide' : 'page-field';
  const caption = (
    <>
      {label}
      {required && <RequiredMark />}
    </>
  );
  const messages = (
    <>
      {message && (
        <small className="p-error field-error" id={errorId(id)} role="alert">
          <span>{message}</span>
        </small>
      )}
      {field && <FieldError error={error} field={field} {...(message ? {} : { id: errorId(id) })} />}
    </>
  );
  if (group) {
    return (
      <fieldset className={className} id={id} aria-describedby={errorId(id)}>
        <legend>{caption}</legend>
        {children}
        {messages}
      </fieldset>
    );
  }
  return (
    <div className={className}>
      <label htmlFor={id}>{caption}</label>
      {children}
      {messages}
    </div>
  );
}
