import { webcrypto, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request, createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import './reflect-metadata';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureLocalPki, importPkcs8, LOCAL_CA_NAME, type LocalPki } from './tls';

const rsa = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

describe('local PKI', () => {
  let dataDir: string;
  let pki: LocalPki;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-pki-'));
    pki = await ensureLocalPki(dataDir);
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates a local root CA and a localhost server certificate signed by it', async () => {
    const ca = new X509Certificate(pki.caCertPem);
    const server = new X509Certificate(pki.serverCertPem);
    expect(ca.subject).toContain(`CN=${LOCAL_CA_NAME}`);
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(pki.serverKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/); // PKCS#8
    expect(pki.caKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect((await stat(join(dataDir, 'pki', 'ca.key.pem'))).mode & 0o777).toBe(0o600);
  });

  it('reuses the same files on a later start', async () => {
    expect(await ensureLocalPki(dataDir)).toEqual(pki);
  });

  it('renews an expired server certificate from the same CA', async () => {
    const file = join(dataDir, 'pki', 'server.cert.pem');
    const original = await readFile(file, 'utf8');
    const caCert = new x509.X509Certificate(pki.caCertPem);
    const serverKey = new X509Certificate(original).publicKey.export({ type: 'spki', format: 'der' });
    const expired = await x509.X509CertificateGenerator.create({
      subject: 'CN=localhost',
      issuer: caCert.subject,
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
      signingAlgorithm: rsa,
      publicKey: await webcrypto.subtle.importKey('spki', serverKey, rsa, true, ['verify']),
      signingKey: await importPkcs8(pki.caKeyPem),
    });
    await writeFile(file, expired.toString('pem'));

    const renewed = await ensureLocalPki(dataDir);
    expect(renewed.caCertPem).toBe(pki.caCertPem);
    expect(renewed.serverCertPem).not.toBe(expired.toString('pem'));
    expect(new Date(new X509Certificate(renewed.serverCertPem).validTo).getTime()).toBeGreaterThan(Date.now());
    pki = renewed;
  });

  describe('serving HTTPS with client certificates', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer({ key: pki.serverKeyPem, cert: pki.serverCertPem, ca: pki.caCertPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
        const socket = req.socket as TLSSocket;
        const peer = socket.getPeerCertificate();
        res.end(JSON.stringify({ authorized: socket.authorized, subject: peer.subject?.CN ?? null }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const get = (options: { host: string; ca?: string; cert?: string; key?: string }) =>
      new Promise<{ authorized: boolean; subject: string | null }>((resolve, reject) => {
        request({ host: options.host, port, path: '/', ca: options.ca, cert: options.cert, key: options.key, agent: false }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve(JSON.parse(body) as { authorized: boolean; subject: string | null }));
        })
          .on('error', reject)
          .end();
      });

    it('is trusted by a client that has the local CA, for localhost and 127.0.0.1', async () => {
      expect(await get({ host: 'localhost', ca: pki.caCertPem })).toEqual({ authorized: false, subject: null });
      expect(await get({ host: '127.0.0.1', ca: pki.caCertPem })).toEqual({ authorized: false, subject: null });
    });

    it('is not trusted by a client without the local CA', async () => {
      await expect(get({ host: 'localhost' })).rejects.toMatchObject({ code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    });

    it('accepts a client certificate issued from the kept CA key', async () => {
      const keys = await webcrypto.subtle.generateKey(rsa, true, ['sign', 'verify']);
      const client = await x509.X509CertificateGenerator.create({
        subject: 'CN=EMPRESA TESTE LTDA:12345678000195',
        issuer: new x509.X509Certificate(pki.caCertPem).subject,
        notAfter: new Date(Date.now() + 86_400_000),
        signingAlgorithm: rsa,
        publicKey: keys.publicKey,
        signingKey: await importPkcs8(pki.caKeyPem),
        extensions: [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])],
      });
      const key = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
      expect(await get({ host: 'localhost', ca: pki.caCertPem, cert: client.toString('pem'), key })).toEqual({
        authorized: true,
        subject: 'EMPRESA TESTE LTDA:12345678000195',
      });
    });
  });
});
