import { createHash } from 'node:crypto';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpRouterHandler, { type Route } from '@middy/http-router';
import { REFRESHED_TOKEN_HEADER, type Principal } from '@plac/shared/access';
import { isContract, isCreate, type AnyContract, type Contract } from '@plac/shared/contracts/define';
import { toFieldErrors } from '@plac/shared/validation';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { authorize, type Caller } from './auth/principal';
import { signToken } from './auth/tokens';
import { badRequest, forbidden, HttpError, invalid } from './errors';
import { chaveDeIdempotencia, umaVez } from './idempotencia';
import { logger } from './observability';
import { countBusiness } from './business-metrics';
import { cameThroughCloudFront } from './origin-verify';

/**
 * The HTTP side of a bounded context: binds one implementation to each contract of the context's
 * contract module, and answers every request the same way — the access rule, input validated into
 * pt-BR field messages, output validated against the contract, errors in the catalogue's shape.
 */

type Out<S> = [S] extends [z.ZodNever] ? undefined : S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : never;

export interface HttpRequest<C> {
  params: C extends Contract<infer P, z.ZodType, z.ZodType, z.ZodType> ? Out<P> : never;
  query: C extends Contract<z.ZodType, infer Q, z.ZodType, z.ZodType> ? Out<Q> : never;
  body: C extends Contract<z.ZodType, z.ZodType, infer B, z.ZodType> ? Out<B> : never;
  /** The caller, or null on a public route called without a token. */
  principal: C extends { access: 'public' } ? Principal | null : Principal;
  /** The caller's session id (for logout), or null without a token. */
  sid: string | null;
  headers: Record<string, string | undefined>;
  sourceIp: string;
  requestId: string;
  /** PEM of the client certificate presented on the mutual-TLS domain. */
  clientCertPem: string | undefined;
}

type ResponseIn<C> = C extends Contract<z.ZodType, z.ZodType, z.ZodType, infer R> ? In<R> : never;

/** A success answer with a status or headers other than the contract's defaults. */
export class Reply<T> {
  constructor(
    readonly body: T,
    readonly init: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}

export type Implementation<C> = (request: HttpRequest<C>) => Promise<ResponseIn<C> | Reply<ResponseIn<C>>>;

/** One implementation per contract of the module (a module may also export its schemas). */
export type Implementations<M> = { [K in keyof M as M[K] extends AnyContract ? K : never]: Implementation<M[K]> };

/** 6 MB: the Lambda synchronous payload limit; base64 PDFs travel in JSON bodies. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;
/**
 * Ours (issue 27 item 3): the deepest nesting of arrays and objects a JSON body may have. No contract's
 * body is deeper than a few levels; a deeper one is refused (400 corpoProfundoDemais) before any schema
 * walks it.
 */
export const MAX_BODY_DEPTH = 32;

type RouteHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** How long before the Lambda's deadline a request gives up and answers erroInterno. */
const TIMEOUT_EARLY_MS = 1000;

const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function httpApi<M extends Record<string, unknown>>(module: M, implementations: Implementations<M>) {
  const contractsOfModule = Object.entries(module).filter((entry): entry is [string, AnyContract] => isContract(entry[1]));
  const routes: Route<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>[] = contractsOfModule.map(
    ([name, contract]) => ({
      method: contract.method,
      path: contract.path,
      handler: (event: APIGatewayProxyEventV2) =>
        serve(contract, (implementations as Record<string, Implementation<AnyContract>>)[name]!, event),
    }),
  );
  // One second before the Lambda timeout the request answers erroInterno (503) itself: API Gateway
  // would answer its English default. The work already done stays; creates are safe to retry.
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>({
    timeoutEarlyInMillis: TIMEOUT_EARLY_MS,
    timeoutEarlyResponse: () => {
      logger.error('request answered before the Lambda timeout');
      return { ...json(503, new HttpError(503, 'erroInterno').body()), headers: { ...BASE_HEADERS, 'content-type': 'application/json', 'retry-after': '5' } };
    },
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({ onError: answerError })
    // Before any route, and before a 404: a request that went around CloudFront learns nothing.
    .use({
      before: (request) => {
        if (!cameThroughCloudFront(request.event)) {
          logger.warn('request on the execute-api host without the CloudFront origin header', { ip: request.event.requestContext?.http?.sourceIp });
          throw forbidden();
        }
      },
    })
    .handler(httpRouterHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(routes) as unknown as RouteHandler);
}

async function serve(
  contract: AnyContract,
  implementation: Implementation<AnyContract>,
  event: APIGatewayProxyEventV2,
): Promise<APIGatewayProxyStructuredResultV2> {
  const authorizer = (event.requestContext as { authorizer?: unknown }).authorizer;
  const caller = authorize(contract.access, authorizer, contract.paraCadastroSegundoFator === true);
  const request = {
    params: parse(contract.params, event.pathParameters ?? {}),
    query: parse(contract.query, event.queryStringParameters ?? {}),
    // A route that takes no body (the issuer's certificate login, …) still parses one that is sent, as
    // every route does (invalid JSON 400, another content type 415, size 413, depth 400), then ignores it.
    body: contract.body ? parseBody(contract, contract.body, event) : (jsonBody(event, acceptsTextPlain(contract)), undefined),
    principal: caller?.principal ?? null,
    sid: caller?.sid ?? null,
    headers: event.headers ?? {},
    sourceIp: event.requestContext.http.sourceIp,
    requestId: event.requestContext.requestId,
    clientCertPem: clientCertOf(event),
  } as HttpRequest<AnyContract>;

  const answer = async (): Promise<APIGatewayProxyStructuredResultV2> => {
    const result = await implementation(request);
    const reply = result instanceof Reply ? result : new Reply(result);
    const checked = contract.response.safeParse(reply.body);
    if (!checked.success) {
      // Our answer breaks our own contract: a defect, never the caller's fault.
      logger.error('response does not match its contract', { contract: contract.id, issues: checked.error.issues });
      throw new Error(`response of ${contract.id} does not match its contract`);
    }
    const produces = contract.produces ?? 'application/json';
    return {
      statusCode: reply.init.status ?? contract.status ?? 200,
      headers: { ...BASE_HEADERS, 'content-type': produces, ...reply.init.headers },
      body: produces === 'application/json' ? JSON.stringify(checked.data) : String(checked.data),
    };
  };
  // A create (201) with an Idempotency-Key runs once per caller and key (idempotencia.ts); the look-ups
  // (contract.idempotent) key their metering instead.
  const scope = isCreate(contract) ? callerScope(caller, request.clientCertPem) : null;
  const key = scope ? chaveDeIdempotencia(request.headers) : undefined;
  const resposta = scope && key ? await umaVez(`${contract.id}#${scope}`, key, request.body, answer) : await answer();
  // The look-ups are what the platform sells: their count is a business metric (docs/operations.md).
  if (contract.context === 'consulta' && resposta.statusCode !== undefined && resposta.statusCode < 300) countBusiness('ConsultasRespondidas');
  return { ...resposta, headers: { ...resposta.headers, ...(await refreshedToken(caller)) } };
}

/**
 * Whose key it is: the user, or the integrator's certificate. An anonymous caller has none (null): a
 * key alone would let one stranger read another's stored answer.
 */
function callerScope(caller: Caller | null, clientCertPem: string | undefined): string | null {
  if (caller) return `u:${caller.principal.userId}`;
  if (clientCertPem) return `c:${createHash('sha256').update(clientCertPem).digest('base64url')}`;
  return null;
}

/** Sliding sessions: past half its life, a token is answered with a fresh one (REFRESHED_TOKEN_HEADER). */
async function refreshedToken(caller: Caller | null): Promise<Record<string, string>> {
  if (!caller || !caller.expiresAt || !(caller.expiresAt > caller.issuedAt) || !caller.issuedAt) return {};
  const now = Date.now() / 1000;
  if (now < caller.issuedAt + (caller.expiresAt - caller.issuedAt) / 2) return {};
  // The fresh token lives as long as the one it replaces (the login's TOKEN_TTL_SECONDS): no need to
  // load the sessions module (and ElectroDB with it) into functions that never open a session.
  return { [REFRESHED_TOKEN_HEADER]: await signToken(caller.principal, caller.sid, caller.expiresAt - caller.issuedAt) };
}

function parse(schema: z.ZodType | undefined, input: unknown): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(toFieldErrors(parsed.error));
  return parsed.data;
}

/**
 * The JSON body of a route that takes one. A missing body is read as `{}`, so that the answer names
 * every required field ('O campo nome é obrigatório.'); a body that is not an object at all, or is
 * sent as something other than JSON, gets the catalogue's body texts instead of a field message.
 */
function parseBody(contract: AnyContract, schema: z.ZodType, event: APIGatewayProxyEventV2): unknown {
  const body = jsonBody(event, acceptsTextPlain(contract));
  const input = body === undefined ? {} : body;
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  if (parsed.error.issues.some((issue) => issue.path.length === 0 && issue.code === 'invalid_type')) {
    throw invalid(body === undefined ? 'corpoAusente' : 'corpoObjetoEsperado');
  }
  throw badRequest(toFieldErrors(parsed.error));
}

/**
 * The portal calls the mutual-TLS routes cross-origin with a `text/plain` body, a CORS "simple request"
 * with no preflight (a preflight carries no client certificate; see web/src/lib/api/client.ts): those
 * routes read such a body as JSON too, and only as JSON (a text/plain body that is not JSON is 400
 * corpoInvalido, like any invalid JSON; issue 27 item 3 keeps this exception on purpose). Every other
 * route wants `application/json` (415 otherwise), and a form or any other type is 415 on every route.
 */
function acceptsTextPlain(contract: AnyContract): boolean {
  return servedOnMtls(contract);
}

const servedOnMtls = (contract: AnyContract) => contract.channel === 'mtls' || contract.channel === 'both';

const clientCertOf = (event: APIGatewayProxyEventV2): string | undefined =>
  (event.requestContext as { authentication?: { clientCert?: { clientCertPem?: string } } }).authentication?.clientCert?.clientCertPem;

/** `application/json`, with or without parameters (charset), or a `+json` type. */
function isJsonContentType(value: string | undefined, textPlain: boolean): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type) || (textPlain && type === 'text/plain');
}

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function jsonBody(event: APIGatewayProxyEventV2, textPlain: boolean): unknown {
  if (!event.body) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new HttpError(413, 'corpoGrandeDemais');
  if (!isJsonContentType(header(event, 'content-type'), textPlain)) throw new HttpError(415, 'tipoConteudoInvalido');
  if (!text.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('corpoInvalido');
  }
  if (depthOver(parsed, MAX_BODY_DEPTH)) throw invalid('corpoProfundoDemais');
  return parsed;
}

/** Whether a parsed JSON value nests arrays and objects deeper than `max` (iterative: no recursion to overflow). */
export function depthOver(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** middy onError: every failure becomes a catalogue answer; details stay in the log. */
async function answerError(request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) {
  const error = request.error;
  if (error instanceof HttpError) {
    if (error.status >= 500) logger.error('request failed', { status: error.status, key: error.key });
    request.response = json(error.status, error.body());
    return;
  }
  // The router's "no such route" (a route that the table has but this function does not serve).
  if ((error as { statusCode?: number } | null)?.statusCode === 404) {
    request.response = json(404, new HttpError(404, 'rotaNaoEncontrada').body());
    return;
  }
  // The stack stays in the log, in the twin too (issue 27 item 2): an answer never carries it.
  logger.error('unhandled error', error as Error);
  request.response = json(500, new HttpError(500, 'erroInterno').body());
}

function json(statusCode: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return { statusCode, headers: { ...BASE_HEADERS, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
