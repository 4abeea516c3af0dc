import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distWebServer } from './web-server';

/** The built portal as CloudFront serves it: compressed text, fonts as they are, the SPA fallback. */
describe('distWebServer', () => {
  let dir: string;
  let server: Server;
  let base: string;
  const script = 'export const x = 1;\n'.repeat(200);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plac-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>PLAC Fat-e</title>' + '<p>login</p>'.repeat(200));
    writeFileSync(join(dir, 'spa.html'), '<!doctype html><title>PLAC Fat-e</title>' + '<p>spa</p>'.repeat(200));
    writeFileSync(join(dir, 'assets', 'app.js'), script);
    writeFileSync(join(dir, 'assets', 'font.woff2'), Buffer.alloc(4000, 7));
    writeFileSync(join(dir, 'assets', 'small.js'), 'export {};');
    const web = distWebServer(dir);
    server = createServer((req, res) => void web.serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fetchPath = async (path: string, encoding: string) => {
    const r = await fetch(base + path, { headers: { 'accept-encoding': encoding } });
    return { r, bytes: Buffer.from(await r.arrayBuffer()) };
  };

  it('sends text Brotli-compressed when the browser accepts it, else gzip, else as it is', async () => {
    // fetch decompresses by itself; the raw bytes are read through a Node request instead.
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = get(base + '/assets/app.js', { headers: { 'accept-encoding': encoding } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c)).on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
        });
        req.on('error', reject);
      });
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(Number(br.headers['content-length'])).toBeLessThan(script.length / 10);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(br.headers.vary).toBe('accept-encoding');
  });

  it('leaves fonts and files under 1,000 bytes uncompressed, as CloudFront does', async () => {
    const font = await fetchPath('/assets/font.woff2', 'br');
    expect(font.r.headers.get('content-encoding')).toBeNull();
    expect(font.bytes.length).toBe(4000);
    const small = await fetchPath('/assets/small.js', 'br');
    expect(small.r.headers.get('content-encoding')).toBeNull();
  });

  it('answers / with index.html (the login page), another page path with spa.html, a missing asset with 404', async () => {
    const page = await fetchPath('/app/fatura/consultarFatura', 'br');
    expect(page.r.status).toBe(200);
    expect(page.r.headers.get('content-encoding')).toBe('br');
    expect(page.r.headers.get('cache-control')).toBe('no-cache');
    expect(page.bytes.toString()).toContain('<p>spa</p>');
    expect((await fetchPath('/', 'br')).bytes.toString()).toContain('<p>login</p>');
    expect((await fetchPath('/assets/missing.js', 'br')).r.status).toBe(404);
  });
});
