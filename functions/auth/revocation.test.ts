import { X509Certificate } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCa, issueECnpj, issueTestCrl, type CertificatePair } from '../../infra/local/emulators/test-pki';
import type { Baixar } from './baixar-crl';
import { parseCrl } from './crl';
import { forgetCrls, revocationStatus, type RevocationOptions } from './revocation';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CA_CRL = 'http://crl.teste.invalid/ac.crl';
const CA_CRL_MIRROR = 'http://crl-espelho.teste.invalid/ac.crl';
const ROOT_CRL = 'http://crl.teste.invalid/raiz.crl';

let root: CertificatePair;
let ca: CertificatePair;
let good: CertificatePair;
let revoked: CertificatePair;

const cert = (pair: CertificatePair) => new X509Certificate(pair.certPem);
const chainOf = (leaf: CertificatePair, issuer = ca) => [cert(leaf), cert(issuer), cert(root)];

/**
 * A fake network for the download (baixar-crl.ts, whose own test speaks HTTP): the bytes each URL
 * answers, or a failure as the downloader reports it (no answer, an HTTP status, too many bytes).
 */
function network(answers: Record<string, Uint8Array | 'down' | number>) {
  const calls: string[] = [];
  const baixar: Baixar = async (url, { maxBytes }) => {
    calls.push(url);
    const answer = answers[url];
    if (answer === undefined || answer === 'down') throw new Error('connect ECONNREFUSED');
    if (typeof answer === 'number') throw new Error(`HTTP ${answer}`);
    if (answer.length > maxBytes) throw new Error('CRL larger than CRL_MAX_BYTES');
    return answer;
  };
  return { baixar, calls };
}

const options = (baixar: Baixar, now = new Date(), extra: Partial<RevocationOptions> = {}): RevocationOptions => ({
  baixar,
  now,
  maxAgeMs: HOUR,
  timeoutMs: 2000,
  maxBytes: 1024 * 1024,
  ...extra,
});

beforeAll(async () => {
  root = await createTestCa({ name: 'Raiz Revogação Teste', pathLength: 1 });
  ca = await createTestCa({ name: 'AC Revogação Teste', issuer: root, pathLength: 0, crlUrl: ROOT_CRL });
  const leaf = (cnpj: string) => issueECnpj(ca, { cnpj, razaoSocial: 'EMPRESA', crlUrl: CA_CRL });
  good = await leaf('11222333000181');
  revoked = await leaf('45997418000153');
});

beforeEach(() => forgetCrls());

describe('revocationStatus', () => {
  let caCrl: Uint8Array;
  let rootCrl: Uint8Array;
  beforeAll(async () => {
    caCrl = await issueTestCrl(ca, { revoked: [revoked.certPem] });
    rootCrl = await issueTestCrl(root);
  });

  it('refuses a certificate on its CA’s CRL and accepts one that is not', async () => {
    const net = network({ [CA_CRL]: caCrl, [ROOT_CRL]: rootCrl });
    expect(await revocationStatus(chainOf(revoked), options(net.baixar))).toBe('revoked');
    expect(await revocationStatus(chainOf(good), options(net.baixar))).toBe('good');
    // Both CRLs of the chain were read, once each: the second look-up used the cache.
    expect(net.calls.sort()).toEqual([CA_CRL, ROOT_CRL]);
  });

  it('refuses every certificate under a CA that its root has revoked', async () => {
    const otherCa = await createTestCa({ name: 'AC Revogação Teste', issuer: root, pathLength: 0, crlUrl: ROOT_CRL });
    const leaf = await issueECnpj(otherCa, { cnpj: '11222333000181', razaoSocial: 'EMPRESA', crlUrl: CA_CRL });
    const net = network({ [CA_CRL]: await issueTestCrl(otherCa), [ROOT_CRL]: await issueTestCrl(root, { revoked: [otherCa.certPem] }) });
    expect(await revocationStatus(chainOf(leaf, otherCa), options(net.baixar))).toBe('revoked');
  });

  it('refuses a CRL that the issuing CA did not sign (same name, another key), and a tampered one', async () => {
    const impostor = await createTestCa({ name: 'AC Revogação Teste', issuer: root, pathLength: 0 });
    const forged = await issueTestCrl(impostor);
    expect(await revocationStatus(chainOf(revoked), options(network({ [CA_CRL]: forged, [ROOT_CRL]: rootCrl }).baixar))).toBe('unavailable');
    forgetCrls();
    const tampered = Uint8Array.from(caCrl);
    const serial = Buffer.from(new X509Certificate(revoked.certPem).serialNumber, 'hex');
    const at = Buffer.from(tampered).indexOf(serial);
    expect(at).toBeGreaterThan(0);
    tampered[at + serial.length - 1]! ^= 0x01; // another serial on the list: the signature no longer matches
    expect(await revocationStatus(chainOf(revoked), options(network({ [CA_CRL]: tampered, [ROOT_CRL]: rootCrl }).baixar))).toBe('unavailable');
  });

  it('refuses when no CRL can be fetched and none is cached', async () => {
    for (const answer of ['down', 404, new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01])] as const) {
      forgetCrls();
      const net = network({ [CA_CRL]: answer, [ROOT_CRL]: rootCrl });
      expect(await revocationStatus(chainOf(good), options(net.baixar)), String(answer)).toBe('unavailable');
    }
  });

  it('keeps using the cached CRL while the server is down, until the CRL’s nextUpdate; then refuses', async () => {
    const start = new Date();
    const up = network({ [CA_CRL]: caCrl, [ROOT_CRL]: rootCrl });
    expect(await revocationStatus(chainOf(good), options(up.baixar, start))).toBe('good');
    const down = network({});
    const later = new Date(start.getTime() + 2 * HOUR); // past maxAge: fetched again, and that fails
    expect(await revocationStatus(chainOf(good), options(down.baixar, later))).toBe('good');
    expect(await revocationStatus(chainOf(revoked), options(down.baixar, later))).toBe('revoked');
    expect(down.calls).toContain(CA_CRL);
    const nextUpdate = parseCrl(caCrl).nextUpdate.getTime();
    expect(await revocationStatus(chainOf(good), options(down.baixar, new Date(nextUpdate + 1000)))).toBe('unavailable');
  });

  it('does not take a fetched CRL past its nextUpdate (a stale publication)', async () => {
    const stale = await issueTestCrl(ca, { thisUpdate: new Date(Date.now() - 10 * DAY), nextUpdate: new Date(Date.now() - DAY) });
    expect(await revocationStatus(chainOf(good), options(network({ [CA_CRL]: stale, [ROOT_CRL]: rootCrl }).baixar))).toBe('unavailable');
  });

  it('fetches again after maxAge, and takes the new CRL', async () => {
    const start = new Date();
    expect(await revocationStatus(chainOf(good), options(network({ [CA_CRL]: await issueTestCrl(ca), [ROOT_CRL]: rootCrl }).baixar, start))).toBe('good');
    const newer = network({ [CA_CRL]: await issueTestCrl(ca, { revoked: [good.certPem] }), [ROOT_CRL]: rootCrl });
    expect(await revocationStatus(chainOf(good), options(newer.baixar, new Date(start.getTime() + HOUR - 1000)))).toBe('good');
    expect(newer.calls).toEqual([]);
    expect(await revocationStatus(chainOf(good), options(newer.baixar, new Date(start.getTime() + HOUR + 1000)))).toBe('revoked');
  });

  it('tries the next distribution point when one fails', async () => {
    const mirrored = await issueECnpj(ca, { cnpj: '11222333000181', razaoSocial: 'EMPRESA', crlUrl: [CA_CRL, CA_CRL_MIRROR] });
    const net = network({ [CA_CRL]: 'down', [CA_CRL_MIRROR]: caCrl, [ROOT_CRL]: rootCrl });
    expect(await revocationStatus(chainOf(mirrored), options(net.baixar))).toBe('good');
    expect(net.calls).toContain(CA_CRL);
    expect(net.calls).toContain(CA_CRL_MIRROR);
  });

  it('refuses a CRL larger than maxBytes, and one that does not answer in time', async () => {
    const big = network({ [CA_CRL]: caCrl, [ROOT_CRL]: rootCrl });
    expect(await revocationStatus(chainOf(good), options(big.baixar, new Date(), { maxBytes: 100 }))).toBe('unavailable');
    forgetCrls();
    // The downloader gives up at timeoutMs (baixar-crl.test.ts): here, one that honours it.
    const hanging: Baixar = (_url, { timeoutMs }) => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('timed out')), timeoutMs));
    const started = Date.now();
    expect(await revocationStatus(chainOf(good), options(hanging, new Date(), { timeoutMs: 200 }))).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('has nothing to look up for a certificate without distribution points', async () => {
    const plainCa = await createTestCa({ name: 'AC Sem LCR', issuer: root, pathLength: 0 });
    const plain = await issueECnpj(plainCa, { cnpj: '11222333000181', razaoSocial: 'EMPRESA' });
    const net = network({});
    expect(await revocationStatus(chainOf(plain, plainCa), options(net.baixar))).toBe('good');
    expect(net.calls).toEqual([]);
  });
});
