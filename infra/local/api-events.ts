/**
 * HTTP request ⇄ API Gateway HTTP API (payload format 2.0) event and result, as AWS builds them:
 * lower-cased headers, repeated query values joined with commas, decoded path parameters, binary
 * bodies base64-encoded, the client certificate under requestContext.authentication on mTLS.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|.*\+json)|text\/)/i;

export interface IncomingApiRequest {
  req: IncomingMessage;
  url: URL;
  body: Buffer;
  routeKey: string;
  pathParameters: Record<string, string>;
}

export function toApiEvent({ req, url, body, routeKey, pathParameters }: IncomingApiRequest): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = new Date();
  const cert = peerCertificatePem(req);
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    ...(headers.cookie ? { cookies: headers.cookie.split(/;\s*/) } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      ...(cert ? { authentication: { clientCert: cert } } : {}),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
  } as APIGatewayProxyEventV2;
}

function peerCertificatePem(req: IncomingMessage) {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerX509Certificate !== 'function') return undefined;
  const x509 = socket.getPeerX509Certificate();
  if (!x509) return undefined;
  return {
    clientCertPem: x509.toString(),
    subjectDN: x509.subject.replace(/\n/g, ','),
    issuerDN: x509.issuer.replace(/\n/g, ','),
    serialNumber: x509.serialNumber,
    validity: { notBefore: x509.validFrom, notAfter: x509.validTo },
  };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export function fromApiResult(result: APIGatewayProxyStructuredResultV2 | string | undefined): HttpAnswer {
  // Payload format 2.0 lets a handler return a bare value; API Gateway then answers it as JSON.
  if (typeof result !== 'object' || result === null || !('statusCode' in result)) {
    return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(result ?? null)) };
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const raw = result.body ?? '';
  return {
    status: result.statusCode ?? 200,
    headers,
    body: result.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8'),
  };
}
