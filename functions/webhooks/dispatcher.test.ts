import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from './dispatcher';

/**
 * The delivery connects to the address the SSRF guard checked, not to whatever the host name resolves
 * to when the connection is made (no DNS-rebinding window). The receiver listens on 127.0.0.2 only;
 * the URL names `localhost`, which resolves to 127.0.0.1 (or ::1), where nothing listens.
 */
let server: Server;
let port: number;
const hosts: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('pinned webhook connection', () => {
  // First: a pooled keep-alive socket of the pinned request would otherwise be reused.
  it('without the pin, the same URL goes where the name resolves (and finds nothing there)', async () => {
    const url = new URL(`http://localhost:${port}/hook`);
    await expect(post({ ok: true, url }, {}, '{}')).rejects.toThrow();
  });

  it('reaches the checked address whatever the name resolves to', async () => {
    const url = new URL(`http://localhost:${port}/hook`);
    const status = await post({ ok: true, url, address: { address: '127.0.0.2', family: 4 } }, { 'content-type': 'application/json' }, '{}');
    expect(status).toBe(204);
    // The request still names the URL's host (virtual hosting and TLS SNI keep working).
    expect(hosts.at(-1)).toBe(`localhost:${port}`);
  });
});
