import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { distWebServer } from '../infra/local/web-server';

/** Hop-by-hop headers, which HTTP/2 forbids and a proxy never forwards. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'host', 'content-length']);

/**
 * The portal over HTTP/2 and TLS, as CloudFront serves it to a browser (the twin's own port speaks
 * plain HTTP/1.1, where a browser opens six connections per origin and queues the rest: a page of
 * sixty small chunks would be measured slower than AWS serves it). The built portal is served by the
 * twin's CloudFront stand-in (compression, headers, the SPA rewrite); /api/* is relayed to the twin,
 * as CloudFront's second behaviour does. The certificate is the twin's local CA's server certificate:
 * the browser is told to accept it (`--ignore-certificate-errors`).
 */
export async function startH2Front(twin: { url: string; dataDir: string }, webDist: string) {
  const web = distWebServer(webDist);
  const server = createSecureServer(
    { key: readFileSync(join(twin.dataDir, 'pki/server.key.pem')), cert: readFileSync(join(twin.dataDir, 'pki/server.cert.pem')), allowHTTP1: true },
    (req, res) => void handle(req, res),
  );
  async function handle(req: Http2ServerRequest, res: Http2ServerResponse) {
    try {
      if (!req.url.startsWith('/api/')) return await web.serve(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      const chunks: Buffer[] = [];
      if (req.method !== 'GET' && req.method !== 'HEAD') for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !k.startsWith(':') && !HOP_BY_HOP.has(k) && typeof v === 'string')) as Record<string, string>;
      const answer = await fetch(twin.url + req.url, { method: req.method, headers, ...(body ? { body } : {}) });
      const bytes = Buffer.from(await answer.arrayBuffer());
      // fetch has already decoded the body: its encoding and length are no longer the twin's.
      const out = Object.fromEntries([...answer.headers].filter(([k]) => !HOP_BY_HOP.has(k) && k !== 'content-encoding'));
      res.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
      res.end(bytes);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
