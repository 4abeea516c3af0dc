/**
 * The portal as CloudFront serves it: files of the web build with the SPA fallback (paths without a
 * file extension get index.html) and the same security headers; or, for development, Vite's dev
 * server in middleware mode (modules transformed on demand, hot reload).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
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
        file = join(root, 'index.html');
        info = await stat(file).catch(() => null);
        if (!info) return notFound(res, 'The web app is not built: run `npm run build -w web`.');
      }
      const immutable = file.includes(`${sep}assets${sep}`);
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file).pipe(res);
    },
  };
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
