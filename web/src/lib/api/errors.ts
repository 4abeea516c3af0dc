import { isMessageKey, MESSAGES, translate } from '@plac/shared/messages';
import { getSession, logout } from '../session';
import { toast } from '../toast';

/**
 * Failed API calls, and what the user sees of them.
 */

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the request never got an answer (network failure). */
  readonly status: number;
  /** The body's `error`: a catalogue key (e.g. token_expired) or a text. */
  readonly error?: string;
  /** The body's `errors`, field → pt-BR messages, for showing beside the fields. */
  readonly fieldErrors?: FieldErrors;

  /** `message` is the pt-BR text the user is shown. */
  constructor(init: { status: number; message: string; error?: string; fieldErrors?: FieldErrors }) {
    super(init.message);
    this.status = init.status;
    if (init.error !== undefined) this.error = init.error;
    if (init.fieldErrors !== undefined) this.fieldErrors = init.fieldErrors;
  }

  /** Token failures (token_expired, token_invalid, token_absent) end the session. */
  get isTokenError(): boolean {
    return this.error?.startsWith('token_') ?? false;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** The messages of one field of a failed call, or none. */
export function fieldErrorsOf(error: unknown, field: string): string[] {
  return isApiError(error) ? (error.fieldErrors?.[field] ?? []) : [];
}

function unavailable(status: number): ApiError {
  return new ApiError({ status, message: MESSAGES.servicoIndisponivel });
}

function asFieldErrors(value: unknown): FieldErrors | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: FieldErrors = {};
  for (const [field, messages] of Object.entries(value)) {
    const list = Array.isArray(messages) ? messages : [messages];
    // A value can break several rules with one sentence (the password's length and its digits): once.
    out[field] = [...new Set(list.filter((m): m is string => typeof m === 'string').map(translate))];
  }
  return out;
}

/** Builds the ApiError of a non-2xx response from its status and body text (only JSON is read). */
export function errorFromResponse(status: number, _headers: Headers, text: string): ApiError {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    return unavailable(status);
  }
  if (typeof body !== 'object' || body === null) return unavailable(status);
  const { error, message, errors } = body as { error?: unknown; message?: unknown; errors?: unknown };
  const fieldErrors = asFieldErrors(errors);
  const hasFieldErrors = fieldErrors !== undefined && Object.values(fieldErrors).some((list) => list.length > 0);
  if (typeof error === 'string' && error !== '') {
    // A known key shows the catalogue text; for an unknown one the server's own message is better
    // than the bare key. Field errors beside it (a 409 recursoDuplicado naming the CPF) mark the fields.
    const text = isMessageKey(error) ? MESSAGES[error] : typeof message === 'string' && message !== '' ? message : error;
    return new ApiError({ status, error, message: text, ...(hasFieldErrors ? { fieldErrors } : {}) });
  }
  // API Gateway refuses a request without a token before our code runs: 401 {"message":"Unauthorized"}.
  if (status === 401) return new ApiError({ status, error: 'token_absent', message: MESSAGES.token_absent });
  if (hasFieldErrors) {
    // One line per distinct message: two fields refused with the same sentence say it once.
    const lines = [...new Set(Object.values(fieldErrors).flat())];
    return new ApiError({ status, message: lines.join('\n'), fieldErrors });
  }
  return unavailable(status);
}

/**
 * The pt-BR text of any failure for the screen that shows it inline (a list's error state, the login
 * card). A request that got no answer (network, timeout) or a 5xx is 'Serviço indisponível' unless the
 * server named a specific catalogue message for it; anything that is not an ApiError (a bug in the
 * page) is the same: the user gets the catalogue's text, never a stack trace or an empty screen.
 */
export function userMessageOf(error: unknown): string {
  if (!isApiError(error)) return MESSAGES.servicoIndisponivel;
  if (error.status === 0 || error.status >= 500) {
    const specific = error.error !== undefined && error.error !== 'erroInterno' && isMessageKey(error.error);
    return specific ? error.message : MESSAGES.servicoIndisponivel;
  }
  return error.message;
}

/** The failure of a request that got no answer (server down, offline, CORS). */
export function networkError(): ApiError {
  return unavailable(0);
}

/**
 * The failure of a request to the mTLS domain that got no answer. There the TLS handshake fails when the
 * user chooses no certificate (or the server refuses the one chosen) before any HTTP answer can say so,
 * so the page shows the certificate message rather than 'Serviço indisponível'.
 */
export function certificateNetworkError(): ApiError {
  return new ApiError({ status: 0, error: 'certificadoAusente', message: MESSAGES.certificadoAusente });
}

/**
 * What the user sees of a failed call: a token failure signs them out (the inactivity message, dialogs
 * closed, back to '/'); anything else is one error
 * toast (the translated `error`, the field messages one per line, or 'Serviço indisponível' for a
 * request without answer or a 5xx: userMessageOf).
 */
export function reportApiError(error: ApiError): void {
  if (error.isTokenError) {
    // Several calls may fail together; only the first one ends the session and says so.
    if (getSession().user) logout('inactivity');
    return;
  }
  toast.error(userMessageOf(error));
}
