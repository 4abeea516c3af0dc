/**
 * The local PKI behind the twin's HTTPS port (certificate logins and integrators' mutual TLS).
 *
 * On first use it creates a root CA and a server certificate for localhost / 127.0.0.1 / ::1 signed by
 * it, and keeps them as PEM files in `<dataDir>/pki/`; later starts reuse them, so a developer who
 * trusted the CA once (or a test that pins it) keeps working. Anything missing, unreadable, expired
 * (or expiring within a day) or not signed by the current CA is regenerated.
 *
 * RSA 2048 with SHA-256 (RSASSA-PKCS1-v1_5), like the ICP-Brasil chains the real endpoint checks, so
 * test e-CNPJ certificates issued from this CA (hence `caKeyPem`) look like real ones to our
 * chain-checking code.
 */
import { createPrivateKey, webcrypto, X509Certificate as NodeX509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RSA_SHA256 as algorithm, x509 } from './x509';

export interface LocalPki {
  caCertPem: string;
  /** PKCS#8 PEM. Local only: it lets tests issue client certificates that the twin trusts. */
  caKeyPem: string;
  serverCertPem: string;
  /** PKCS#8 PEM. */
  serverKeyPem: string;
}

export const LOCAL_CA_NAME = 'PLAC Local Test Root — NOT TRUSTED OUTSIDE THE LOCAL TWIN';

const files = {
  caCert: 'ca.cert.pem',
  caKey: 'ca.key.pem',
  serverCert: 'server.cert.pem',
  serverKey: 'server.key.pem',
} as const;

const DAY_MS = 86_400_000;
const CA_VALIDITY_DAYS = 3650;
/** 397 days: the longest validity that browsers accept for a server certificate. */
const SERVER_VALIDITY_DAYS = 397;

/** Loads the PKI from `<dataDir>/pki/`, creating or renewing what is missing or no longer valid. */
export async function ensureLocalPki(dataDir: string): Promise<LocalPki> {
  const dir = join(dataDir, 'pki');
  mkdirSync(dir, { recursive: true });

  let ca = readPair(dir, files.caCert, files.caKey);
  if (!ca || !isCurrent(ca.certPem)) {
    ca = await createCa();
    writePair(dir, files.caCert, files.caKey, ca);
  }
  let server = readPair(dir, files.serverCert, files.serverKey);
  if (!server || !isCurrent(server.certPem) || !isSignedBy(server.certPem, ca.certPem)) {
    server = await createServerCertificate(ca);
    writePair(dir, files.serverCert, files.serverKey, server);
  }
  return { caCertPem: ca.certPem, caKeyPem: ca.keyPem, serverCertPem: server.certPem, serverKeyPem: server.keyPem };
}

interface Pair {
  certPem: string;
  keyPem: string;
}

async function createCa(): Promise<Pair> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ O: ['PLAC Fat-e (ambiente local)'] }, { CN: [LOCAL_CA_NAME] }],
    notBefore: new Date(now - DAY_MS), // tolerate small clock differences between processes/VMs
    notAfter: new Date(now + CA_VALIDITY_DAYS * DAY_MS),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 1, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportPkcs8(keys.privateKey) };
}

async function createServerCertificate(ca: Pair): Promise<Pair> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importPkcs8(ca.keyPem);
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: [{ O: ['PLAC Fat-e (ambiente local)'] }, { CN: ['localhost'] }],
    issuer: caCert.subject,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + SERVER_VALIDITY_DAYS * DAY_MS),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      // Clients match the host against the SAN only (the CN is ignored), so every name we serve is here.
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportPkcs8(keys.privateKey) };
}

/** Imports a PKCS#8 PEM key of this PKI for signing (for issuing certificates from the local CA). */
export async function importPkcs8(pem: string): Promise<webcrypto.CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  return webcrypto.subtle.importKey('pkcs8', der, algorithm, true, ['sign']);
}

async function exportPkcs8(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

function readPair(dir: string, certFile: string, keyFile: string): Pair | undefined {
  const certPath = join(dir, certFile);
  const keyPath = join(dir, keyFile);
  if (!existsSync(certPath) || !existsSync(keyPath)) return undefined;
  try {
    const pair = { certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
    // A key that does not belong to the certificate (half-written files) counts as missing.
    return new NodeX509Certificate(pair.certPem).checkPrivateKey(createPrivateKey(pair.keyPem))
      ? pair
      : undefined;
  } catch {
    return undefined;
  }
}

function writePair(dir: string, certFile: string, keyFile: string, pair: Pair): void {
  writeFileSync(join(dir, certFile), pair.certPem);
  // Private keys readable by the owner only, as any tool that loads them would expect.
  writeFileSync(join(dir, keyFile), pair.keyPem, { mode: 0o600 });
  chmodSync(join(dir, keyFile), 0o600);
}

function isCurrent(certPem: string): boolean {
  const cert = new NodeX509Certificate(certPem);
  const now = Date.now();
  return new Date(cert.validFrom).getTime() <= now && new Date(cert.validTo).getTime() > now + DAY_MS;
}

function isSignedBy(certPem: string, caCertPem: string): boolean {
  const cert = new NodeX509Certificate(certPem);
  const ca = new NodeX509Certificate(caCertPem);
  return cert.checkIssued(ca) && cert.verify(ca.publicKey);
}

/** 16 random bytes with the top bit cleared: a positive DER integer, unique enough to never repeat. */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

