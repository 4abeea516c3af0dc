/**
 * The twin's stand-in for S3 behind presigned URLs: `/_s3/<bucket>/<key>` on the portal's origin
 * (functions/platform/documents.ts signs its URLs for that prefix), relayed to the S3 emulator, which
 * itself accepts any request. So that the twin is no more open than S3, the relay checks first what
 * S3 checks on a presigned request, and answers S3's XML errors:
 * - SigV4 query-string authentication only: the six X-Amz-* parameters (400
 *   AuthorizationQueryParametersError when some are missing or malformed; 403 AccessDenied for a
 *   request with none: the bucket is private), the twin's access key (403 InvalidAccessKeyId), and the
 *   signature recomputed with the twin's secret over the canonical request as the client sent it
 *   (method, the path with its `/_s3` prefix, every query parameter but the signature, the signed
 *   headers, UNSIGNED-PAYLOAD): 403 SignatureDoesNotMatch otherwise. So a URL signed for GET does not
 *   PUT or DELETE, does not reach another key, and takes no response-* override that was not signed.
 * - X-Amz-Date + X-Amz-Expires in the past: 403 AccessDenied "Request has expired".
 * - One object per request: the bucket root and the service root (listings), and any query parameter
 *   but the authentication ones, `x-id`, `x-amz-checksum-mode` and S3's response overrides (sub-
 *   resources such as `list-type`, `acl`, `uploads`), are 403 AccessDenied even when signed.
 * - A path with a `.` or `..` segment, plain or percent-encoded, or an encoded `/` or `\`: 400 InvalidURI.
 *
 * The answer is served from the portal's origin, which S3's own answers never are, so a stored file
 * must never become a page there: every object is served with `X-Content-Type-Options: nosniff`, and
 * inline only when its type is one of INLINE_TYPES; anything else (text/html, XML, SVG, unknown types)
 * as an attachment, keeping the file name of a signed `response-content-disposition: attachment; …`.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual, type BinaryLike } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpAnswer } from './api-events';

export interface S3RelayOptions {
  /** The S3 emulator's endpoint (fauxqs). */
  endpoint: string;
  /** The region and credentials the twin's functions sign with (emulators/index.ts). */
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

/** Where presigned URLs point on the portal's origin (PLAC_S3_PUBLIC_ENDPOINT in twin.ts). */
export const S3_RELAY_PREFIX = '/_s3';

/** The types the portal shows in the page (avatars, the DAE's PDF) or that browsers never render as a page. */
const INLINE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'text/csv', 'application/zip']);

const AUTH = {
  algorithm: 'X-Amz-Algorithm',
  credential: 'X-Amz-Credential',
  date: 'X-Amz-Date',
  expires: 'X-Amz-Expires',
  signedHeaders: 'X-Amz-SignedHeaders',
  signature: 'X-Amz-Signature',
} as const;
const RESPONSE_OVERRIDES = [
  'response-content-type',
  'response-content-disposition',
  'response-cache-control',
  'response-content-encoding',
  'response-content-language',
  'response-expires',
];
/** Every query parameter an object URL may carry; anything else is a sub-resource or a listing. */
const ALLOWED_PARAMETERS = new Set<string>([...Object.values(AUTH), 'X-Amz-Content-Sha256', 'x-id', 'x-amz-checksum-mode', ...RESPONSE_OVERRIDES]);
/** S3's limit on X-Amz-Expires: seven days. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;
/** A request dated later than this ahead of the clock is not valid yet (S3 allows 15 minutes of skew). */
const MAX_SKEW_MS = 15 * 60_000;
/** The largest body relayed (a single PUT); the portal's uploads are a few MB. */
const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

export type PresignedCheck =
  | { ok: true; objectPath: string; query: Map<string, string> }
  | { ok: false; status: number; code: string; message: string };

export interface PresignedRequest {
  method: string;
  /** The request target as received (`req.url`): path and query, still percent-encoded. */
  url: string;
  headers: IncomingMessage['headers'];
}

/** Whether a request to the relay may reach the emulator, by the rules in this module's comment. */
export async function checkPresignedRequest(request: PresignedRequest, options: S3RelayOptions, now = new Date()): Promise<PresignedCheck> {
  const split = request.url.indexOf('?');
  const rawPath = split < 0 ? request.url : request.url.slice(0, split);
  const rawQuery = split < 0 ? '' : request.url.slice(split + 1);

  const objectPath = checkedObjectPath(rawPath);
  if (objectPath === 'invalid') return refused(400, 'InvalidURI', "Couldn't parse the specified URI.");
  const query = parseQuery(rawQuery);
  if (!query) return refused(400, 'InvalidArgument', 'A query parameter is malformed or repeated.');
  if (objectPath === 'listing' || [...query.keys()].some((name) => !ALLOWED_PARAMETERS.has(name))) return refused(403, 'AccessDenied', 'Access Denied');

  const present = Object.values(AUTH).filter((name) => query.has(name));
  if (present.length === 0) return refused(403, 'AccessDenied', 'Access Denied');
  const auth = parseAuth(query, options.region);
  if (present.length < Object.values(AUTH).length || !auth) {
    return refused(
      400,
      'AuthorizationQueryParametersError',
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  if (auth.accessKeyId !== options.credentials.accessKeyId) {
    return refused(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }

  const expected = await signatureOf(request, rawPath, query, auth, options);
  const given = Buffer.from(query.get(AUTH.signature)!, 'utf8');
  if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return refused(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
  if (now.getTime() > auth.date.getTime() + auth.expiresSeconds * 1000) return refused(403, 'AccessDenied', 'Request has expired');
  if (auth.date.getTime() > now.getTime() + MAX_SKEW_MS) return refused(403, 'AccessDenied', 'Request is not valid yet');
  return { ok: true, objectPath, query };
}

/** Checks the request, then relays it to the emulator and shapes the answer as described above. */
export async function relayS3(req: IncomingMessage, options: S3RelayOptions): Promise<HttpAnswer> {
  const method = req.method ?? 'GET';
  const check = await checkPresignedRequest({ method, url: req.url ?? '/', headers: req.headers }, options);
  if (!check.ok) return s3Error(check.status, check.code, check.message);

  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    body = (await readLimited(req)) ?? undefined;
    if (!body) return s3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
  }
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'content-length', 'content-md5', 'range', 'if-none-match', 'if-modified-since']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // The emulator takes the object path as the client sent it (still encoded), without the signature.
  const response = await fetch(new URL(check.objectPath, options.endpoint), { method, headers, ...(body ? { body } : {}) });
  const out: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  for (const name of ['content-type', 'etag', 'last-modified', 'content-range', 'accept-ranges']) {
    const value = response.headers.get(name);
    if (value) out[name] = value;
  }
  if (response.ok && (method === 'GET' || method === 'HEAD')) {
    const type = check.query.get('response-content-type') ?? out['content-type'] ?? 'application/octet-stream';
    out['content-type'] = type;
    out['content-disposition'] = dispositionFor(type, check.query.get('response-content-disposition') ?? response.headers.get('content-disposition'));
  }
  return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Inline only for INLINE_TYPES (as signed or as stored); any other type is an attachment, under the
 * file name a signed or stored `attachment; filename=…` gives.
 */
export function dispositionFor(contentType: string, disposition: string | null): string {
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  if (disposition && /^\s*attachment\b/i.test(disposition)) return disposition;
  if (INLINE_TYPES.has(essence)) return disposition ?? 'inline';
  return 'attachment';
}

export function s3Error(status: number, code: string, message: string): HttpAnswer {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>${randomUUID()}</RequestId></Error>`;
  return { status, headers: { 'content-type': 'application/xml', 'x-content-type-options': 'nosniff' }, body: Buffer.from(xml) };
}

// ---------------------------------------------------------------------------------------------------

/**
 * `/<bucket>/<key…>` (still encoded) for an object; 'listing' without a key; 'invalid' outside the
 * prefix, with a dot segment, or with an encoded separator or NUL (traversal in the emulator's files).
 */
function checkedObjectPath(rawPath: string): string | 'listing' | 'invalid' {
  if (rawPath !== S3_RELAY_PREFIX && !rawPath.startsWith(`${S3_RELAY_PREFIX}/`)) return 'invalid';
  const objectPath = rawPath.slice(S3_RELAY_PREFIX.length) || '/';
  const segments = objectPath.slice(1).split('/');
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'invalid';
    }
    if (decoded === '.' || decoded === '..' || /[/\\\0]/.test(decoded)) return 'invalid';
  }
  const [bucket, ...key] = segments;
  return bucket && key.join('/') !== '' ? objectPath : 'listing';
}

/** Query parameters decoded as SigV4 encodes them (no `+` for space); null when malformed or repeated. */
function parseQuery(raw: string): Map<string, string> | null {
  const query = new Map<string, string>();
  if (raw === '') return query;
  for (const pair of raw.split('&')) {
    const eq = pair.indexOf('=');
    try {
      const name = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1));
      if (query.has(name)) return null;
      query.set(name, value);
    } catch {
      return null;
    }
  }
  return query;
}

interface PresignedAuth {
  accessKeyId: string;
  date: Date;
  expiresSeconds: number;
  signedHeaders: string[];
}

/** The authentication parameters when well formed for S3 in the twin's region; null otherwise. */
function parseAuth(query: Map<string, string>, region: string): PresignedAuth | null {
  if (query.get(AUTH.algorithm) !== 'AWS4-HMAC-SHA256') return null;
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(query.get(AUTH.date) ?? '');
  const expires = query.get(AUTH.expires) ?? '';
  const credential = (query.get(AUTH.credential) ?? '').split('/');
  const signedHeaders = (query.get(AUTH.signedHeaders) ?? '').split(';');
  if (!date || !/^\d{1,6}$/.test(expires) || Number(expires) < 1 || Number(expires) > MAX_EXPIRES_SECONDS) return null;
  if (credential.length !== 5 || credential[2] !== region || credential[3] !== 's3' || credential[4] !== 'aws4_request') return null;
  if (!signedHeaders.includes('host') || !/^[0-9a-f]{64}$/.test(query.get(AUTH.signature) ?? '')) return null;
  const [, y, mo, d, h, mi, s] = date.map(Number) as [number, number, number, number, number, number, number];
  return { accessKeyId: credential[0]!, date: new Date(Date.UTC(y, mo - 1, d, h, mi, s)), expiresSeconds: Number(expires), signedHeaders };
}

/**
 * The signature the twin's key gives this request: @smithy/signature-v4 presigns the same request
 * (S3's settings: path not escaped again, UNSIGNED-PAYLOAD) at the same instant for the same life,
 * over the headers the client said it signed, with their values as received. Null when a signed
 * header is missing.
 */
async function signatureOf(request: PresignedRequest, rawPath: string, query: Map<string, string>, auth: PresignedAuth, options: S3RelayOptions) {
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) {
    const value = request.headers[name];
    if (value === undefined) return null;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // The payload hash of every presigned S3 request; read by the signer, neither signed nor moved to the query.
  headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
  const signed = new Set(auth.signedHeaders);
  const signer = new SignatureV4({
    service: 's3',
    region: options.region,
    credentials: options.credentials,
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const host = request.headers.host ?? '';
  const presigned = await signer.presign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: host.replace(/:\d+$/, ''),
      path: rawPath,
      query: Object.fromEntries([...query].filter(([name]) => name !== AUTH.signature)),
      headers,
    },
    {
      signingDate: auth.date,
      expiresIn: auth.expiresSeconds,
      signableHeaders: signed,
      unsignableHeaders: new Set(['x-amz-content-sha256'].filter((h) => !signed.has(h))),
      unhoistableHeaders: new Set(['x-amz-content-sha256']),
    },
  );
  return Buffer.from(String(presigned.query?.[AUTH.signature]), 'utf8');
}

/** What the signer hashes (@smithy/types' SourceData). */
type SourceData = string | ArrayBuffer | ArrayBufferView;

/** SHA-256 and HMAC-SHA-256 for the signer, from node:crypto. */
class NodeSha256 {
  private readonly secret: BinaryLike | undefined;
  private hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;
  constructor(secret?: SourceData) {
    this.secret = secret === undefined ? undefined : bytes(secret);
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
  update(data: SourceData) {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset() {
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
}

function bytes(data: SourceData): BinaryLike {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

function refused(status: number, code: string, message: string): PresignedCheck {
  return { ok: false, status, code, message };
}

async function readLimited(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPLOAD_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
