import { REFRESHED_TOKEN_HEADER } from '@plac/shared/access';
import {
  fillPath,
  platform,
  type AnyContract,
  type BodyIn,
  type ParamsIn,
  type QueryIn,
  type ResponseOf,
} from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { toTransportDate } from '../format';
import { getSession, setToken } from '../session';
import { ApiError, certificateNetworkError, errorFromResponse, networkError, reportApiError } from './errors';

/**
 * The typed fetch client generated from the contract table (@plac/shared/contracts): one function for
 * every endpoint, typed by the contract's zod schemas. It sends the bearer token, keeps the refreshed
 * token the API returns in x-plac-token, validates the answer against the contract, and reports
 * failures to the user (see errors.ts).
 */

/** A part of the input: absent when the contract has no schema for it, optional when all-optional. */
type Part<K extends string, T> = [T] extends [never]
  ? { [P in K]?: undefined }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/** What a call sends: path parameters, query and body, each typed by the contract. */
export type ApiInput<C> = Part<'params', ParamsIn<C>> & Part<'query', QueryIn<C>> & Part<'body', BodyIn<C>>;

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * false: the caller shows the failure itself (e.g. the silent 410 of certificate login). Token
   * failures still end the session.
   */
  notify?: boolean;
  /** Sent as the Idempotency-Key header: a look-up retried with the same key is charged once. */
  idempotencyKey?: string;
}

/** The input argument is optional only when the contract needs nothing. */
export type CallArgs<C> = object extends ApiInput<C> ? [input?: ApiInput<C> & CallOptions] : [input: ApiInput<C> & CallOptions];

export interface ApiResult<C> {
  status: number;
  data: ResponseOf<C>;
  headers: Headers;
}

interface RawInput extends CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

function queryValue(value: unknown): string {
  if (value instanceof Date) return toTransportDate(value);
  return String(value);
}

/** Query string from an object: empty values are left out, arrays repeat the key. */
export function toQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined || v === null || v === '') continue;
      search.append(key, queryValue(v));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Files and forms go as they are (the browser sets the multipart boundary); the rest as JSON. Towards
 * the mTLS domain the JSON travels as text/plain, a CORS-safelisted type, so that the browser sends the
 * request without a preflight: a preflight carries no client certificate (Fetch standard; Firefox and
 * Safari follow it), and a domain that requires one at the handshake would refuse it. The API parses the
 * body as JSON whatever its declared type.
 */
function encodeBody(body: unknown, headers: Headers, mtls: boolean): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams) return body;
  headers.set('Content-Type', mtls ? 'text/plain;charset=UTF-8' : 'application/json');
  return JSON.stringify(body);
}

/**
 * How long a request may wait for its answer. API Gateway ends an integration at 29 s, so past 30 s no
 * answer will come and the user is told 'Serviço indisponível' rather than left with a spinner (or, on
 * the login card, nothing). A file upload gets longer: its body may take a while on a slow line.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
export const UPLOAD_TIMEOUT_MS = 120_000;
/**
 * A certificate login's request waits while the browser asks the user to choose a certificate (the
 * TLS handshake holds it): the user's time, not the service's, so minutes rather than seconds.
 */
export const CERTIFICATE_TIMEOUT_MS = 300_000;

/** The caller's signal (a cancelled query) and the timeout's, as one. */
function withTimeout(signal: AbortSignal | undefined, ms: number): { signal: AbortSignal; timedOut: () => boolean; done: () => void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException('tempo esgotado', 'TimeoutError'));
  }, ms);
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    },
  };
}

/**
 * The mutual-TLS domain: certificate logins are served only there, on another
 * origin (e.g. https://localhost:3443 locally), where the browser asks the user for a client certificate.
 * Its address comes from GET /api/v1/config, asked once per page load; a failed look-up is not cached,
 * so the next certificate login asks again.
 */
let mtlsBaseUrl: Promise<string> | null = null;

export function getMtlsBaseUrl(): Promise<string> {
  mtlsBaseUrl ??= request(platform.runtimeConfig, {}).then(
    (result) => (result.data as ResponseOf<typeof platform.runtimeConfig>).mtlsBaseUrl,
    (error: unknown) => {
      mtlsBaseUrl = null;
      throw error;
    },
  );
  return mtlsBaseUrl;
}

/** Forgets the cached mTLS address (tests; a deploy that moved the domain is picked up on reload). */
export function resetMtlsBaseUrl(): void {
  mtlsBaseUrl = null;
}

/** The full URL of an mTLS contract; without a configured domain, the portal's own origin. */
function onMtlsDomain(base: string, pathAndQuery: string): string {
  if (base === '') return pathAndQuery;
  return new URL(pathAndQuery, base.endsWith('/') ? base : `${base}/`).toString();
}

async function request(contract: AnyContract, input: RawInput): Promise<ApiResult<AnyContract>> {
  // Read before any await: logout calls the API and clears the session right after.
  const token = getSession().token;
  const mtls = contract.channel === 'mtls';
  const path = fillPath(contract.path, input.params) + toQueryString(input.query);
  const url = mtls ? onMtlsDomain(await getMtlsBaseUrl(), path) : path;
  const textual = contract.produces !== undefined && contract.produces !== 'application/json';
  const headers = new Headers({ Accept: textual ? contract.produces! : 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (input.idempotencyKey) headers.set('Idempotency-Key', input.idempotencyKey);
  const init: RequestInit = { method: contract.method, headers };
  // A TLS client certificate is a credential in the Fetch standard: with 'omit' (or the default
  // 'same-origin' towards another origin) the browser never offers one and every certificate login
  // would fail. So 'include', and the mTLS domain answers with the portal's exact origin in
  // Access-Control-Allow-Origin and Access-Control-Allow-Credentials: true. The API uses no cookies.
  if (mtls) init.credentials = 'include';
  const body = encodeBody(input.body, headers, mtls);
  if (body !== undefined) init.body = body;
  const upload = input.body instanceof FormData || input.body instanceof Blob;
  const deadline = withTimeout(input.signal, mtls ? CERTIFICATE_TIMEOUT_MS : upload ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  init.signal = deadline.signal;

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, init);
    text = await response.text();
  } catch (error) {
    // A cancelled query is not a failure to show.
    if (input.signal?.aborted || (!deadline.timedOut() && error instanceof DOMException && error.name === 'AbortError')) throw error;
    // A request without answer in time is one without answer: 'Serviço indisponível'.
    if (deadline.timedOut()) throw networkError();
    // On the mTLS domain a refused handshake (no certificate chosen, or one the server rejects) looks
    // like a network failure to the page.
    throw mtls ? certificateNetworkError() : networkError();
  } finally {
    deadline.done();
  }

  // A response carrying a refreshed credential replaces the stored token.
  const refreshed = response.headers.get(REFRESHED_TOKEN_HEADER);
  if (refreshed) setToken(refreshed);

  if (!response.ok) throw errorFromResponse(response.status, response.headers, text);

  let data: unknown = text;
  if (!textual) {
    try {
      data = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ApiError({ status: response.status, message: MESSAGES.erroInterno, error: 'erroInterno' });
    }
  }
  // The answer is checked against the contract, which also applies its transforms.
  const parsed = contract.response.safeParse(data);
  if (!parsed.success) {
    console.error(`resposta fora do contrato ${contract.id}`, parsed.error);
    throw new ApiError({ status: response.status, message: MESSAGES.erroInterno, error: 'erroInterno' });
  }
  return { status: response.status, data: parsed.data, headers: response.headers };
}

/** Untyped core shared by callApi and the react-query hooks. */
export async function send(contract: AnyContract, input: RawInput = {}): Promise<ApiResult<AnyContract>> {
  try {
    return await request(contract, input);
  } catch (error) {
    if (error instanceof ApiError && (input.notify !== false || error.isTokenError)) reportApiError(error);
    throw error;
  }
}

/** Calls an endpoint and resolves with its body; rejects with ApiError (already shown to the user). */
export async function callApi<C extends AnyContract>(contract: C, ...[input]: CallArgs<C>): Promise<ResponseOf<C>> {
  const result = await send(contract, (input ?? {}) as RawInput);
  return result.data as ResponseOf<C>;
}

/** Like callApi, with the success status and headers (the login type check answers 209 or 210). */
export async function callApiWithStatus<C extends AnyContract>(contract: C, ...[input]: CallArgs<C>): Promise<ApiResult<C>> {
  return (await send(contract, (input ?? {}) as RawInput)) as ApiResult<C>;
}
