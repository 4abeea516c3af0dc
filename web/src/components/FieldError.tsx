import { fieldErrorsOf } from '../lib/api';

interface FieldErrorProps {
  /** The failed call's error (e.g. `mutation.error`); anything that is not an ApiError shows nothing. */
  error: unknown;
  /** The field's name as the API reports it in `errors`. */
  field: string;
  /** Give it and point the input's aria-describedby at it. */
  id?: string;
  /** Messages of the page's own checks (before sending), shown before the server's. */
  messages?: readonly string[] | undefined;
}

/** The server's messages for one field, shown beside it, and the page's own. */
export function FieldError({ error, field, id, messages = [] }: FieldErrorProps) {
  const all = [...new Set([...messages, ...fieldErrorsOf(error, field)])];
  if (all.length === 0) return null;
  return (
    <small className="p-error field-error" id={id} role="alert">
      {all.map((text) => (
        <span key={text}>{text}</span>
      ))}
    </small>
  );
}
