import type { z } from 'zod';
import type { Role } from '../access/roles';
import type { MessageKey } from '../messages';
// Whoever uses a contract validates with it: zod must speak the catalogue's pt-BR by then.
import '../validation';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route: anyone, any signed-in user, or the listed roles. */
export type Access = 'public' | 'authenticated' | readonly Role[];

/**
 * One endpoint of the API. The table of these (contracts/index.ts) is the single source of truth:
 * the CDK routes, each Lambda's router, the local gateway, the web client, the OpenAPI document and
 * the authorization matrix test are all generated from it. No route exists that is not in the table.
 */
export interface Contract<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** Unique id, `<context>.<name>`; also the OpenAPI operationId and the web hook's name. */
  readonly id: string;
  /** The bounded context, i.e. the Lambda (functions/<context>/handler.ts) that serves the route. */
  readonly context: string;
  readonly method: HttpMethod;
  /** Full path with OpenAPI-style parameters, e.g. `/api/v1/dominio/cidades/{uf}/{text}`. */
  readonly path: string;
  /** pt-BR one-liner for the integrators' reference page. */
  readonly summary: string;
  readonly access: Access;
  /** `mtls`: served only on the mutual-TLS domain (certificate logins, machine-to-machine calls). */
  readonly channel?: 'web' | 'mtls' | 'both';
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** Schema of the success body; handlers' answers are validated against it. */
  readonly response: R;
  /** Success status; 200 unless said. */
  readonly status?: number;
  /** Other success statuses the route answers with the same body (a handler's Reply), for the description. */
  readonly alsoStatus?: readonly number[];
  /** Content type of the success body; JSON unless said. */
  readonly produces?: 'application/json' | 'text/html; charset=utf-8' | 'text/csv; charset=utf-8';
  /** Accepts the Idempotency-Key header: a retry with the same key is charged once (the look-ups). */
  readonly idempotent?: boolean;
  /** Catalogue keys this route may answer with, besides the generic ones every route may give. */
  readonly errors: readonly MessageKey[];
  /**
   * Reachable by a session that must first enrol the second factor (a Sefaz user's password login
   * without one, issue 42): the profile, the enrolment, the logout. Every other route answers 403
   * `segundoFatorObrigatorio` to such a session.
   */
  readonly paraCadastroSegundoFator?: true;
}

export type AnyContract = Contract<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

export function isContract(value: unknown): value is AnyContract {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;
}

/**
 * A create: a POST answering 201. With an Idempotency-Key it runs once per caller and key
 * (functions/platform/idempotencia.ts); the look-ups (`idempotent`) key their metering instead.
 */
export function isCreate(contract: AnyContract): boolean {
  return contract.method === 'POST' && contract.status === 201 && !contract.idempotent;
}

/** The contracts of one context module (`import * as dominio from '@plac/shared/contracts/dominio'`). */
export function contractsOf(module: Record<string, unknown>): AnyContract[] {
  return Object.values(module).filter(isContract);
}

/** Identity with inference: keeps each schema's precise type for handlers and the web client. */
export function defineContract<
  P extends z.ZodType = z.ZodNever,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
  R extends z.ZodType = z.ZodType,
>(contract: Contract<P, Q, B, R>): Contract<P, Q, B, R> {
  return contract;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : never;
type InferIn<S> = S extends z.ZodType ? z.input<S> : never;

/** What a handler receives, after validation. */
export type ParamsOf<C> = C extends Contract<infer P, z.ZodType, z.ZodType, z.ZodType> ? Infer<P> : never;
export type QueryOf<C> = C extends Contract<z.ZodType, infer Q, z.ZodType, z.ZodType> ? Infer<Q> : never;
export type BodyOf<C> = C extends Contract<z.ZodType, z.ZodType, infer B, z.ZodType> ? Infer<B> : never;
/** What a handler returns (before the response schema's transforms). */
export type ResponseIn<C> = C extends Contract<z.ZodType, z.ZodType, z.ZodType, infer R> ? InferIn<R> : never;
/** What a client receives. */
export type ResponseOf<C> = C extends Contract<z.ZodType, z.ZodType, z.ZodType, infer R> ? Infer<R> : never;
/** What a client sends. */
export type ParamsIn<C> = C extends Contract<infer P, z.ZodType, z.ZodType, z.ZodType> ? InferIn<P> : never;
export type QueryIn<C> = C extends Contract<z.ZodType, infer Q, z.ZodType, z.ZodType> ? InferIn<Q> : never;
export type BodyIn<C> = C extends Contract<z.ZodType, z.ZodType, infer B, z.ZodType> ? InferIn<B> : never;

export const API_BASE = '/api/v1';

/** `/api/v1/dominio/cidades/{uf}/{text}` with values → a concrete URL path (values URI-encoded). */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Matches a concrete path against a contract path; returns the decoded parameters or null. */
export function matchPath(pattern: string, actual: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = actual.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    const name = /^\{(\w+)\}$/.exec(w)?.[1];
    if (name) {
      if (g === '') return null;
      try {
        params[name] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w !== g) {
      return null;
    }
  }
  return params;
}

export function allows(access: Access, roles: readonly Role[] | undefined): boolean {
  if (access === 'public') return true;
  if (!roles) return false;
  if (access === 'authenticated') return true;
  return access.some((role) => roles.includes(role));
}
