import { message, type MessageKey } from '@plac/shared/messages';
import type { FieldErrors } from '@plac/shared';

/**
 * An answer that is not a success: a catalogue key (`{ error, message }`) or field messages
 * (`{ errors }`). Services throw these; the HTTP layer turns them into responses. Anything else
 * thrown is a defect or an outage and is answered without detail.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey | null,
    readonly fieldErrors?: FieldErrors,
    readonly vars: Record<string, string> = {},
  ) {
    super(key ? message(key, vars) : 'validation failed');
    this.name = 'HttpError';
  }

  /** A key with field messages (a duplicate e-mail) answers both: the toast's text and the field to mark. */
  body(): Record<string, unknown> {
    if (this.fieldErrors && !this.key) return { errors: this.fieldErrors };
    return { error: this.key, message: this.key ? message(this.key, this.vars) : undefined, ...(this.fieldErrors ? { errors: this.fieldErrors } : {}) };
  }
}

export const badRequest = (fieldErrors: FieldErrors) => new HttpError(400, null, fieldErrors);
export const invalid = (key: MessageKey, vars?: Record<string, string>) => new HttpError(400, key, undefined, vars);
export const unauthorized = (key: Extract<MessageKey, `token_${string}`>) => new HttpError(401, key);
export const forbidden = (key: MessageKey = 'acessoNegado') => new HttpError(403, key);
export const notFound = (key: MessageKey = 'recursoNaoEncontrado') => new HttpError(404, key);
export const conflict = (key: MessageKey = 'recursoDuplicado', fields: string[] = []) =>
  new HttpError(409, key, fields.length ? Object.fromEntries(fields.map((f) => [f, [message(key)]])) : undefined);
export const unavailable = () => new HttpError(503, 'servicoIndisponivel');
