/**
 * The local stand-in for CloudFront + API Gateway: one origin serving the portal and /api, routed by
 * the contract table exactly as the CDK app creates the routes, with the authorizer run before every
 * non-public route, and a second HTTPS port that asks for a client certificate (the mTLS domain).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { contracts, matchPath, type AnyContract } from '@plac/shared/contracts';
import { message, type MessageKey } from '@plac/shared/messages';
import { authorizerFunction, httpFunctions } from '../lib/topology';
import { fromApiResult, toApiEvent, type HttpAnswer } from './api-events';
import { LambdaTimeoutError, localFunction, type Invoke } from './lambda-runtime';
import { relayS3, S3_RELAY_PREFIX, type S3RelayOptions } from './s3-relay';
import type { WebServer } from './web-server';

/** API Gateway's own limit on a request's body. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** API Gateway HTTP APIs: request line and header values together at most 10,240 bytes. */
const MAX_HEADER_BYTES = 10 * 1024;
/**
 * Node refuses larger headers itself before any handler runs (`clientError`); above API Gateway's
 * limit, so that the gateway measures and answers 431 in the catalogue's shape, and well below
 * anything that could hurt the process.
 */
const NODE_MAX_HEADER_BYTES = 64 * 1024;

export interface GatewayOptions {
  host: string;
  port: number;
  tls?: { port: number; key: string; cert: string; ca: string[] };
  web?: WebServer;
  accessLog?: boolean;
  /** Origins allowed to call the mutual-TLS port from a browser (the portal's). */
  corsOrigins?: string[];
  /** The S3 emulator, relayed at /_s3 on the portal's origin behind S3's checks (s3-relay.ts). */
  s3?: S3RelayOptions;
  /** The test ICP-Brasil's CRLs, served at /_pki/<file> (the URL its certificates carry: emulators/test-pki.ts). */
  crl?: { dir: string; files: readonly string[] };
}

export interface Gateway {
  url: string;
  tlsUrl: string | undefined;
  stop(): Promise<void>;
}

type Channel = 'web' | 'mtls';

const functionsByContext = new Map(
  httpFunctions.map((spec) => [spec.entry.split('/')[0]!, localFunction(spec)] as const),
);
const authorizer: Invoke = localFunction(authorizerFunction);

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const http = createHttpServer({ maxHeaderSize: NODE_MAX_HEADER_BYTES }, (req, res) => void handle(req, res, 'web', options));
  http.on('clientError', answerClientError);
  await listen(http, options.port, options.host);
  options.web?.attach?.(http);
  let https: Server | undefined;
  if (options.tls) {
    https = createHttpsServer(
      {
        key: options.tls.key,
        cert: options.tls.cert,
        ca: options.tls.ca,
        requestCert: true,
        rejectUnauthorized: false,
        maxHeaderSize: NODE_MAX_HEADER_BYTES,
      },
      (req, res) => void handle(req, res, 'mtls', options),
    );
    https.on('clientError', answerClientError);
    await listen(https, options.tls.port, options.host);
  }
  const shown = options.host === '0.0.0.0' || options.host === '127.0.0.1' ? 'localhost' : options.host;
  return {
    url: `http://${shown}:${(http.address() as AddressInfo).port}`,
    tlsUrl: https ? `https://${shown}:${(https.address() as AddressInfo).port}` : undefined,
    stop: async () => {
      await Promise.all([close(http), https ? close(https) : undefined]);
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, channel: Channel, options: GatewayOptions) {
  const started = performance.now();
  const url = new URL(req.url ?? '/', 'http://localhost');
  let answer: HttpAnswer;
  try {
    const cors = channel === 'mtls' ? corsHeaders(req, options.corsOrigins ?? []) : {};
    if (options.s3 && channel === 'web' && isS3Path(req, url)) {
      answer = await relayS3(req, options.s3);
    } else if (options.crl && channel === 'web' && url.pathname.startsWith(`${CRL_PREFIX}/`)) {
      answer = await serveCrl(url.pathname.slice(CRL_PREFIX.length + 1), options.crl);
    } else if (channel === 'mtls' && req.method === 'OPTIONS') {
      answer = { status: 204, headers: cors, body: Buffer.alloc(0) };
    } else if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      answer = headerBytes(req) > MAX_HEADER_BYTES ? catalogueAnswer(431, 'cabecalhosGrandesDemais') : await api(req, url, channel);
      Object.assign(answer.headers, cors);
    } else if (options.web && channel === 'web') {
      await options.web.serve(req, res);
      return;
    } else {
      answer = catalogueAnswer(404, 'rotaNaoEncontrada');
    }
  } catch (error) {
    // A function that failed outright or ran past its timeout (or the gateway itself): API Gateway
    // would answer its English default; the twin answers the catalogue's erroInterno, as the functions
    // do themselves before their deadline (functions/platform/http.ts). The detail stays in the log.
    console.error('[gateway]', error);
    answer = catalogueAnswer(error instanceof LambdaTimeoutError ? 503 : 500, 'erroInterno');
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
  if (options.accessLog) {
    console.log(`[api] ${req.method} ${url.pathname} ${answer.status} ${(performance.now() - started).toFixed(0)}ms`);
  }
}

async function api(req: IncomingMessage, url: URL, channel: Channel): Promise<HttpAnswer> {
  const method = req.method ?? 'GET';
  const found = route(method, url.pathname, channel);
  if (!found) {
    const otherMethod = contracts.some((c) => servesChannel(c, channel) && matchPath(c.path, url.pathname));
    return otherMethod ? catalogueAnswer(405, 'metodoNaoPermitido') : catalogueAnswer(404, 'rotaNaoEncontrada');
  }
  const body = await readBody(req);
  if (body === null) return catalogueAnswer(413, 'corpoGrandeDemais');
  const event = toApiEvent({ req, url, body, routeKey: `${method} ${found.contract.path}`, pathParameters: found.params });

  if (found.contract.access !== 'public') {
    // The authorizer has no identity source (constructs/http-api.ts), so API Gateway calls it for a
    // request without a token too, and the function answers 'token_absent' from the catalogue.
    const decision = (await authorizer(event)) as { isAuthorized: boolean; context?: Record<string, unknown> };
    if (!decision.isAuthorized) return jsonAnswer(403, { message: 'Forbidden' });
    (event.requestContext as unknown as { authorizer: unknown }).authorizer = { lambda: decision.context ?? {} };
  }
  const invoke = functionsByContext.get(found.contract.context);
  if (!invoke) throw new Error(`no function serves context ${found.contract.context}`);
  return fromApiResult((await invoke(event)) as Parameters<typeof fromApiResult>[0]);
}

/**
 * The portal calls the certificate logins on the mutual-TLS origin, another origin than its own:
 * CORS for the portal's origin only, as the mTLS API's CORS configuration does in AWS.
 */
function corsHeaders(req: IncomingMessage, origins: string[]): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin || !origins.includes(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, PUT, DELETE',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-expose-headers': 'x-plac-token',
    // The client certificate counts as a credential for the browser (fetch with credentials: 'include').
    'access-control-allow-credentials': 'true',
    'access-control-max-age': '600',
    vary: 'origin',
  };
}

const CRL_PREFIX = '/_pki';

/** One of the named CRL files, as a CA's web server publishes it; nothing else from the folder. */
async function serveCrl(name: string, crl: NonNullable<GatewayOptions['crl']>): Promise<HttpAnswer> {
  if (!crl.files.includes(name)) return catalogueAnswer(404, 'rotaNaoEncontrada');
  const body = await readFile(join(crl.dir, name));
  return { status: 200, headers: { 'content-type': 'application/pkix-crl', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }, body };
}

/** The relay's prefix, as sent or once `.` and `..` are resolved (the relay refuses the latter). */
function isS3Path(req: IncomingMessage, url: URL): boolean {
  const inPrefix = (path: string) => path === S3_RELAY_PREFIX || path.startsWith(`${S3_RELAY_PREFIX}/`);
  return inPrefix(url.pathname) || inPrefix((req.url ?? '/').split('?')[0]!);
}

function servesChannel(contract: AnyContract, channel: Channel): boolean {
  const served = contract.channel ?? 'web';
  return served === 'both' || served === channel;
}

/** Static segments win over parameters, as in API Gateway's route selection. */
function route(method: string, path: string, channel: Channel) {
  let best: { contract: AnyContract; params: Record<string, string>; score: number } | undefined;
  for (const contract of contracts) {
    if (contract.method !== method || !servesChannel(contract, channel)) continue;
    const params = matchPath(contract.path, path);
    if (!params) continue;
    const score = contract.path.split('/').filter((s) => !s.startsWith('{')).length;
    if (!best || score > best.score) best = { contract, params, score };
  }
  return best;
}

/** The body, or null past API Gateway's limit (the rest is read and dropped, so the client gets the 413). */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      if (size > 4 * MAX_BODY_BYTES) break;
      chunks.length = 0;
      continue;
    }
    chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? null : Buffer.concat(chunks);
}

/** The request line and the header values, as API Gateway counts them against its limit. */
function headerBytes(req: IncomingMessage): number {
  let bytes = Buffer.byteLength(`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}`);
  for (let i = 0; i < req.rawHeaders.length; i += 2) bytes += Buffer.byteLength(req.rawHeaders[i]!) + Buffer.byteLength(req.rawHeaders[i + 1]!);
  return bytes;
}

/**
 * A request Node could not even parse (headers over NODE_MAX_HEADER_BYTES, malformed request line):
 * answered on the raw socket, in the catalogue's shape where there is a key for it.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) return socket.destroy();
  const [status, key] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'cabecalhosGrandesDemais' as const] : [400, 'requisicaoMalFormada' as const];
  const body = JSON.stringify({ error: key, message: message(key) });
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function catalogueAnswer(status: number, key: MessageKey): HttpAnswer {
  return jsonAnswer(status, { error: key, message: message(key) });
}

function jsonAnswer(status: number, body: unknown): HttpAnswer {
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
