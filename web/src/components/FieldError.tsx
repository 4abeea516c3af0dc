import { fieldErrorsOf } from '../lib/api';

interface FieldErrorProps {
  /** The failed call's error (e.g. `mutation.error`); anything that is not an ApiError shows nothing. */
  error: unknown;
  /** The field's name as the API reports it in `errors`. */
  field: string;
  /** Give it and point the input's aria-describedby at it. */
  id?: string;
}

/** The server's messages for one field, shown beside it (spec 1 section 8). */
export function FieldError({ error, field, id }: FieldErrorProps) {
  const messages = fieldErrorsOf(error, field);
  if (messages.length === 0) return null;
  return (
    <small className="p-error field-error" id={id} role="alert">
      {messages.map((text) => (
        <span key={text}>{text}</span>
      ))}
    </small>
  );
}
