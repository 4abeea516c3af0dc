import { webcrypto } from 'node:crypto';
// Before @peculiar/x509, which refuses to load without Reflect's metadata API.
import './reflect-metadata';
import * as x509 from '@peculiar/x509';

/**
 * @peculiar/x509 as the twin's certificate makers use it (the local CA and server certificate,
 * tls.ts; the ICP-Brasil-shaped test PKI, test-pki.ts): on Node's WebCrypto (complete for RSA and
 * ECDSA; the library uses one global provider), every key RSA 2048 signing with SHA-256.
 */
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export const RSA_SHA256: webcrypto.RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

export { x509 };
