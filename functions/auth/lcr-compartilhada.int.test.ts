import { randomUUID, X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCa, issueECnpj, issueTestCrl, type CertificatePair } from '../../infra/local/emulators/test-pki';
import { ler } from '../platform/tabela-direta';
import { atualizarLcr, listarLcrs } from './lcr-atualizacao';
import { revogacaoCompartilhada } from './lcr-compartilhada';
import { MODELO_LCR, type LcrRecord } from './modelos';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The CRLs kept for every container, on DynamoDB Local: a request registers what it has never seen and
 * checks the old way; the job fetches, checks and applies; then a request answers from the table by key
 * without downloading anything. The CAs' server is a local HTTP server whose answers each test sets, and
 * which counts the downloads.
 */
let server: Server;
let base: string;
const respostas = new Map<string, Uint8Array | number>();
const downloads: string[] = [];
let root: CertificatePair;
let ca: CertificatePair;
let outraCa: CertificatePair;
let good: CertificatePair;
let revoked: CertificatePair;
let caCrlUrl: string;
let rootCrlUrl: string;

const cert = (p: CertificatePair) => new X509Certificate(p.certPem);
const chainOf = (leaf: CertificatePair) => [cert(leaf), cert(ca), cert(root)];
const status = (leaf: CertificatePair, now = new Date()) => revogacaoCompartilhada(chainOf(leaf), now, HOUR);

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = `${base}${req.url}`;
    downloads.push(url);
    const resposta = respostas.get(url);
    if (resposta === undefined) return void res.writeHead(404).end();
    if (typeof resposta === 'number') return void res.writeHead(resposta).end();
    res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(resposta);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Each run its own URLs: the table outlives the run.
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const run = randomUUID().slice(0, 8);
  caCrlUrl = `${base}/${run}/ac.crl`;
  rootCrlUrl = `${base}/${run}/raiz.crl`;
  root = await createTestCa({ name: `Raiz LCR ${run}`, pathLength: 1 });
  ca = await createTestCa({ name: `AC LCR ${run}`, issuer: root, pathLength: 0, crlUrl: rootCrlUrl });
  outraCa = await createTestCa({ name: `Outra AC ${run}`, issuer: root, pathLength: 0 });
  good = await issueECnpj(ca, { cnpj: '11222333000181', razaoSocial: 'BOA', crlUrl: [caCrlUrl, `${base}/${run}/espelho.crl`] });
  revoked = await issueECnpj(ca, { cnpj: '45997418000153', razaoSocial: 'REVOGADA', crlUrl: caCrlUrl });
  respostas.set(rootCrlUrl, await issueTestCrl(root));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the CRLs kept for every container', () => {
  it('a CRL never seen: no answer (the caller downloads it, as before), and it is registered for the job with its issuer', async () => {
    expect(await status(good)).toBeUndefined();
    const lcr = await ler<LcrRecord>(MODELO_LCR, { url: caCrlUrl });
    expect(lcr).toMatchObject({ url: caCrlUrl, urls: [caCrlUrl, expect.stringContaining('espelho.crl')], emissorDigital: cert(ca).fingerprint256 });
    expect(lcr?.aplicadaEm).toBeUndefined();
    expect(await ler<LcrRecord>(MODELO_LCR, { url: rootCrlUrl })).toMatchObject({ emissorDigital: cert(root).fingerprint256 });
    expect(await listarLcrs()).toEqual(expect.arrayContaining([caCrlUrl, rootCrlUrl]));
    expect(downloads).toEqual([]);
  });

  it('applied by the job, it answers by key: the revoked certificate is revoked, the other good, and nothing is downloaded', async () => {
    respostas.set(caCrlUrl, await issueTestCrl(ca, { revoked: [revoked.certPem] }));
    expect(await atualizarLcr(caCrlUrl)).toEqual({ url: caCrlUrl, aplicada: true, revogados: 1, inseridos: 1, removidos: 0 });
    expect(await atualizarLcr(rootCrlUrl)).toEqual({ url: rootCrlUrl, aplicada: true, revogados: 0, inseridos: 0, removidos: 0 });
    const antes = downloads.length;
    expect(await status(revoked)).toBe('revoked');
    expect(await status(good)).toBe('good');
    expect(downloads.length).toBe(antes);
  });

  it('the same CRL again writes nothing; a new one writes only what changed (an entry added, then one taken off)', async () => {
    expect(await atualizarLcr(caCrlUrl)).toMatchObject({ aplicada: true, inseridos: 0, removidos: 0 });
    respostas.set(caCrlUrl, await issueTestCrl(ca, { revoked: [revoked.certPem, good.certPem] }));
    expect(await atualizarLcr(caCrlUrl)).toMatchObject({ aplicada: true, revogados: 2, inseridos: 1, removidos: 0 });
    expect(await status(good)).toBe('revoked');
    respostas.set(caCrlUrl, await issueTestCrl(ca, { revoked: [good.certPem], thisUpdate: new Date(Date.now() + 1000) }));
    expect(await atualizarLcr(caCrlUrl)).toMatchObject({ aplicada: true, revogados: 1, inseridos: 0, removidos: 1 });
    expect(await status(revoked)).toBe('good');
    expect(await status(good)).toBe('revoked');
  });

  it('refuses a CRL older than the one applied, or signed by another CA; the one applied stays in force', async () => {
    respostas.set(caCrlUrl, await issueTestCrl(ca, { revoked: [], thisUpdate: new Date(Date.now() - DAY) }));
    expect(await atualizarLcr(caCrlUrl)).toMatchObject({ aplicada: false, falha: expect.stringContaining('older than the one applied') });
    respostas.set(caCrlUrl, await issueTestCrl(outraCa, { revoked: [] }));
    expect(await atualizarLcr(caCrlUrl)).toMatchObject({ aplicada: false, falha: expect.stringContaining('not signed by the registered issuer') });
    expect(await status(good)).toBe('revoked');
  });

  it('the CA’s server down: tried from the mirror too, noted, and the CRL applied answers until its nextUpdate; an hour without the job trying, no answer', async () => {
    respostas.set(caCrlUrl, 503);
    const falha = await atualizarLcr(caCrlUrl);
    expect(falha).toMatchObject({ aplicada: false, falha: expect.stringMatching(/ac\.crl: .*503.*espelho\.crl: .*404/s) });
    expect(await ler<LcrRecord>(MODELO_LCR, { url: caCrlUrl })).toMatchObject({ ultimaFalha: falha.falha });
    expect(await status(good)).toBe('revoked');
    expect(await status(good, new Date(Date.now() + HOUR + 60_000))).toBeUndefined();
    expect(await status(good, new Date(Date.now() + 8 * DAY))).toBeUndefined();
  });

  it('a CA’s certificate of another key under the same URL is not answered for from the kept CRL', async () => {
    const impostora = await createTestCa({ name: 'Impostora', issuer: root, pathLength: 0 });
    const outra = await issueECnpj(impostora, { cnpj: '11222333000181', razaoSocial: 'OUTRA', crlUrl: caCrlUrl });
    expect(await revogacaoCompartilhada([cert(outra), cert(impostora), cert(root)], new Date(), HOUR)).toBeUndefined();
  });
});
