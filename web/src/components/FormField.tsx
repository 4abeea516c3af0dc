import type { ReactNode } from 'react';
import { FieldError } from './FieldError';
import { RequiredMark } from './RequiredMark';

interface FormFieldProps {
  /** The input's id: the label points at it, and its messages get the id `${id}-error`. */
  id: string;
  label: string;
  /** Shows the required mark beside the label (give the input aria-required too). */
  required?: boolean;
  /** The field's name in the API's `errors`. */
  field: string;
  /** The failed call (its field errors show here). */
  error?: unknown;
  /** The page's own messages for the field. */
  messages?: readonly string[] | undefined;
  /** Shown under the input, e.g. a CharCounter. */
  hint?: ReactNode;
  children: ReactNode;
}

/**
 * A labelled form field with its messages beside it (field errors are shown beside the
 * fields). The input inside takes `id` and `aria-describedby={`${id}-error`}`.
 */
export function FormField({ id, label, required, field, error, messages, hint, children }: FormFieldProps) {
  return (
    <div className="form-field">
      <label htmlFor={id}>
        {label}
        {required && <RequiredMark />}
      </label>
      {children}
      {hint}
      <FieldError error={error} field={field} id={`${id}-error`} messages={messages} />
    </div>
  );
}
