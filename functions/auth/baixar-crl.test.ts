import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baixarCrl } from './baixar-crl';

/** The CRL download against a local HTTP server answering as a CA's distribution point might. */
const CRL = new Uint8Array(Buffer.from('0\u0082 uma LCR assinada '.repeat(50), 'latin1'));
let server: Server;
let base: string;
const pedidos: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    pedidos.push(req.url ?? '');
    switch (req.url) {
      case '/ac.crl':
        res.writeHead(200, { 'content-type': 'application/pkix-crl', 'content-length': CRL.length });
        return res.end(CRL);
      case '/sem-tamanho.crl':
        // Chunked: no Content-Length, the size known only while reading.
        res.writeHead(200, { 'content-type': 'application/pkix-crl' });
        res.write(CRL.subarray(0, 500));
        return res.end(CRL.subarray(500));
      case '/movida.crl':
        res.writeHead(302, { location: '/ac.crl' });
        return res.end();
      case '/em-circulo.crl':
        res.writeHead(301, { location: '/em-circulo.crl' });
        return res.end();
      case '/parada.crl':
        // Answers the headers, then never the body.
        res.writeHead(200, { 'content-type': 'application/pkix-crl' });
        return res.write(CRL.subarray(0, 10));
      default:
        res.writeHead(404);
        return res.end('no');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const limites = { timeoutMs: 2000, maxBytes: 1024 * 1024 };

describe('baixarCrl', () => {
  it('answers the body of a 200, as bytes', async () => {
    expect(Buffer.from(await baixarCrl(`${base}/ac.crl`, limites)).equals(Buffer.from(CRL))).toBe(true);
    expect(Buffer.from(await baixarCrl(`${base}/sem-tamanho.crl`, limites)).equals(Buffer.from(CRL))).toBe(true);
  });

  it('follows a redirect, and refuses an endless one', async () => {
    expect((await baixarCrl(`${base}/movida.crl`, limites)).length).toBe(CRL.length);
    await expect(baixarCrl(`${base}/em-circulo.crl`, limites)).rejects.toThrow(/too many redirects/);
  });

  it('refuses any other status', async () => {
    await expect(baixarCrl(`${base}/nada.crl`, limites)).rejects.toThrow('HTTP 404');
  });

  it('refuses more than maxBytes, from its Content-Length or while reading', async () => {
    const pequeno = { ...limites, maxBytes: 100 };
    await expect(baixarCrl(`${base}/ac.crl`, pequeno)).rejects.toThrow(/larger than CRL_MAX_BYTES/);
    await expect(baixarCrl(`${base}/sem-tamanho.crl`, pequeno)).rejects.toThrow(/larger than CRL_MAX_BYTES/);
  });

  it('gives up at its deadline when the body stops coming', async () => {
    const inicio = Date.now();
    await expect(baixarCrl(`${base}/parada.crl`, { ...limites, timeoutMs: 200 })).rejects.toThrow();
    expect(Date.now() - inicio).toBeLessThan(1500);
  });

  it('asks nothing of a URL that is not http(s) or carries credentials', async () => {
    const antes = pedidos.length;
    await expect(baixarCrl('ftp://127.0.0.1/ac.crl', limites)).rejects.toThrow(/not allowed/);
    await expect(baixarCrl(`${base.replace('http://', 'http://eu:senha@')}/ac.crl`, limites)).rejects.toThrow(/not allowed/);
    expect(pedidos.length).toBe(antes);
  });
});
