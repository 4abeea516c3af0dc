/**
 * The portal as CloudFront serves it: files of the web build with the SPA fallback ('/' gets
 * index.html, other paths without a file extension spa.html) and the same security headers; or, for development, Vite's dev
 * server in middleware mode (modules transformed on demand, hot reload).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { SECURITY_HEADERS as PRODUCTION_HEADERS } from '../lib/security-headers';

export interface WebServer {
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  attach?(server: Server): void;
  close?(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * CloudFront's response-headers policy (infra/lib/security-headers.ts), with the local S3 emulator in
 * place of amazonaws.com, and without HSTS: the twin serves plain http on localhost.
 */
const { 'strict-transport-security': _hsts, ...production } = PRODUCTION_HEADERS;
export const SECURITY_HEADERS: Record<string, string> = {
  ...production,
  'content-security-policy': production['content-security-policy']!.replaceAll('https://*.amazonaws.com', 'http://localhost:* http://127.0.0.1:*'),
};

export function distWebServer(dir: string): WebServer {
  const root = normalize(dir + sep);
  return {
    async serve(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let pathname: string;
      try {
        pathname = decodeURIComponent(url.pathname);
      } catch {
        pathname = '/';
      }
      let file = normalize(join(root, pathname));
      if (!file.startsWith(root)) file = join(root, 'index.html');
      let info = await stat(file).catch(() => null);
      if (!info?.isFile()) {
        if (extname(pathname)) return notFound(res);
        // As the web stack's SPA rewrite: '/' is the login page written into index.html by the build,
        // every other page path gets spa.html (the placeholder; index.html for a build without it).
        file = join(root, 'index.html');
        if (pathname !== '/') {
          const spa = join(root, 'spa.html');
          if (await stat(spa).catch(() => null)) file = spa;
        }
        info = await stat(file).catch(() => null);
        if (!info) return notFound(res, 'The web app is not built: run `npm run build -w web`.');
      }
      const immutable = file.includes(`${sep}assets${sep}`);
      const headers = {
        ...SECURITY_HEADERS,
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        vary: 'accept-encoding',
      };
      const encoding = COMPRESSIBLE.test(extname(file)) && info.size >= 1000 ? accepted(req.headers['accept-encoding']) : null;
      if (encoding) {
        const body = await compressed(file, info.mtimeMs, encoding);
        res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': body.length });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      res.writeHead(200, { ...headers, 'content-length': info.size });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file).pipe(res);
    },
  };
}

/**
 * CloudFront's automatic compression (the distribution's `compress: true`): text files of 1,000 bytes
 * or more, Brotli when the browser accepts it, else gzip; fonts and images as they are. Without it the
 * twin would serve the portal several times heavier than AWS does, and measure the wrong page.
 */
const COMPRESSIBLE = /^\.(html|m?js|css|json|svg|txt)$/;
type Encoding = 'br' | 'gzip';
const cache = new Map<string, Buffer>();

function accepted(header: string | undefined): Encoding | null {
  const offered = (header ?? '').split(',').map((part) => part.split(';')[0]!.trim());
  return offered.includes('br') ? 'br' : offered.includes('gzip') ? 'gzip' : null;
}

async function compressed(file: string, mtimeMs: number, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${mtimeMs}:${file}`;
  let body = cache.get(key);
  if (!body) {
    const raw = await readFile(file);
    body = encoding === 'br' ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(raw);
    cache.set(key, body);
  }
  return body;
}

function notFound(res: ServerResponse, text = 'Not found') {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

export async function viteWebServer(root: string): Promise<WebServer> {
  const { createServer } = await import('vite');
  let vite: Awaited<ReturnType<typeof createServer>> | undefined;
  let httpServer: Server | undefined;
  const ready = async () => {
    vite ??= await createServer({
      root,
      configFile: join(root, 'vite.config.ts'),
      appType: 'spa',
      server: { middlewareMode: true, hmr: httpServer ? { server: httpServer } : false },
      logLevel: 'warn',
    });
    return vite;
  };
  return {
    attach(server) {
      httpServer = server;
    },
    async serve(req, res) {
      const server = await ready();
      server.middlewares(req, res, () => notFound(res));
    },
    async close() {
      await vite?.close();
    },
  };
}
