import { X509Certificate } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, type TLSSocket } from 'node:tls';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, SubjectAlternativeName } from '@peculiar/asn1-x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { verifyClientCertificate } from '../../../functions/auth/certificate';
import { isCrlSignedBy, parseCrl } from '../../../functions/auth/crl';
import { forgetCrls, revocationStatus } from '../../../functions/auth/revocation';
import { buildTrustStore, LOCAL_TRUST_FILES, type TrustStore } from '../../../functions/auth/trust';
import { ensureLocalPki } from './tls';
import {
  createTestCa,
  ensureTestIcp,
  issueECnpj,
  REVOKED_COMPANY,
  TEST_CA_NAME,
  TEST_CRL_FILES,
  TEST_P12_PASSWORD,
  TEST_ROOT_NAME,
  type TestCompany,
  type TestIcp,
} from './test-pki';

const companies: TestCompany[] = [
  { cnpj: '11.222.333/0001-81', razaoSocial: 'PADARIA PÃO QUENTE LTDA', responsavel: { nome: 'João da Silva', cpf: '529.982.247-25', nascimento: '1980-05-17' } },
  { cnpj: '45997418000153', razaoSocial: 'TRANSPORTES EXEMPLO S.A.' },
];

describe('test ICP-Brasil hierarchy for the local twin', () => {
  let dataDir: string;
  let icp: TestIcp;
  let local: TrustStore;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-test-icp-'));
    icp = await ensureTestIcp(dataDir, companies);
    local = buildTrustStore({ stage: 'local', localTrustDir: icp.trustDir, warn: () => {} });
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes root and issuing CA into trustDir, and nothing else', async () => {
    expect(icp.trustDir).toBe(join(dataDir, 'pki', 'test-icp', 'trust'));
    expect((await readdir(icp.trustDir)).sort()).toEqual([LOCAL_TRUST_FILES.intermediate, LOCAL_TRUST_FILES.root].sort());
    const root = new X509Certificate(icp.rootPem);
    const ca = new X509Certificate(icp.intermediatePem);
    expect(root.subject).toContain(`CN=${TEST_ROOT_NAME}`);
    expect(ca.subject).toContain(`CN=${TEST_CA_NAME}`);
    expect(root.ca && ca.ca).toBe(true);
    expect(ca.checkIssued(root) && ca.verify(root.publicKey)).toBe(true);
    expect(await readFile(join(icp.trustDir, LOCAL_TRUST_FILES.root), 'utf8')).toBe(icp.rootPem);
  });

  it('issues one e-CNPJ per company, keyed by the normalized CNPJ, that the local store accepts', () => {
    expect(Object.keys(icp.certificates).sort()).toEqual(['11222333000181', '45997418000153']);
    expect(verifyClientCertificate(icp.certificates['11222333000181']?.certPem, local)).toMatchObject({
      ok: true,
      cnpj: '11222333000181',
      razaoSocial: 'PADARIA PÃO QUENTE LTDA',
      responsavel: { nome: 'JOAO DA SILVA', cpf: '52998224725', nascimento: '1980-05-17' },
    });
    const second = verifyClientCertificate(icp.certificates['45997418000153']?.certPem, local);
    expect(second).toMatchObject({ ok: true, cnpj: '45997418000153', razaoSocial: 'TRANSPORTES EXEMPLO S.A.' });
    expect(second.ok && 'responsavel' in second).toBe(false);
  });

  it('follows the e-CNPJ profile', () => {
    const files = icp.certificates['11222333000181']!;
    const cert = new X509Certificate(files.certPem);
    expect(cert.subject.split('\n')).toEqual([
      'C=BR',
      'O=ICP-Brasil',
      'OU=Secretaria da Receita Federal do Brasil - RFB',
      'OU=RFB e-CNPJ A1',
      `OU=${TEST_CA_NAME}`,
      'CN=PADARIA PÃO QUENTE LTDA:11222333000181',
    ]);
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage?.sort()).toEqual(['1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.4']); // Node: extended key usage
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(cert.signatureAlgorithm).toBe('sha256WithRSAEncryption');
    const days = (cert.validToDate.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(363);
    expect(days).toBeLessThanOrEqual(366);
    expect(cert.subjectAltName).toContain('email:ecnpj-11222333000181@exemplo.test');
    const names = sanOtherNames(cert);
    expect(names.map((n) => n.typeId)).toEqual(['2.16.76.1.3.4', '2.16.76.1.3.2', '2.16.76.1.3.3', '2.16.76.1.3.7']);
    expect(names.map((n) => n.tag)).toEqual([0x13, 0x13, 0x13, 0x13]); // PrintableString
    expect(names.find((n) => n.typeId === '2.16.76.1.3.4')?.text).toBe(`17051980${'52998224725'}${'0'.repeat(32)}`);
    expect(names.find((n) => n.typeId === '2.16.76.1.3.7')?.text).toBe('0'.repeat(12));
    expect(files.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('makes the special certificates fail (or pass) for the right reason', async () => {
    expect(verifyClientCertificate(icp.special.expired.certPem, local)).toEqual({ ok: false, key: 'certificadoInvalido' });
    expect(new X509Certificate(icp.special.expired.certPem).validToDate.getTime()).toBeLessThan(Date.now());
    expect(verifyClientCertificate(icp.special.wrongRoot.certPem, local)).toEqual({ ok: false, key: 'raizNaoIcpBrasil' });
    expect(verifyClientCertificate(icp.special.noCnpj.certPem, local)).toEqual({ ok: false, key: 'certificadoInvalido' });
    expect(sanOtherNames(new X509Certificate(icp.special.noCnpj.certPem)).map((n) => n.typeId)).not.toContain('2.16.76.1.3.3');
    expect(verifyClientCertificate(icp.special.octetStringCnpj.certPem, local)).toMatchObject({ ok: true, cnpj: '11222333000181' });
    const octet = sanOtherNames(new X509Certificate(icp.special.octetStringCnpj.certPem)).find((n) => n.typeId === '2.16.76.1.3.3');
    expect(octet).toMatchObject({ tag: 0x04, text: '11222333000181' });
    // The wrong-root certificate is otherwise fine: trusting its root makes it pass.
    const otherRoot = new X509Certificate(await readFile(join(dataDir, 'pki', 'test-icp', 'ca', 'raiz-desconhecida.cert.pem')));
    expect(otherRoot.subject).not.toContain(TEST_ROOT_NAME);
    expect(verifyClientCertificate(icp.special.wrongRoot.certPem, { roots: [otherRoot], intermediates: [] })).toMatchObject({ ok: true, cnpj: '11222333000181' });
  });

  it('is never trusted outside APP_STAGE=local', () => {
    const prod = buildTrustStore({ stage: 'prod', localTrustDir: icp.trustDir });
    for (const files of [...Object.values(icp.certificates), icp.special.octetStringCnpj]) {
      expect(verifyClientCertificate(files.certPem, prod)).toEqual({ ok: false, key: 'raizNaoIcpBrasil' });
    }
  });

  it('keeps private keys and .p12 files readable by the owner only', async () => {
    const secrets = [
      ...Object.values(icp.certificates).flatMap((f) => [f.keyPath, f.p12Path]),
      ...Object.values(icp.special).flatMap((f) => [f.keyPath, f.p12Path]),
      icp.revoked.keyPath,
      icp.revoked.p12Path,
      join(dataDir, 'pki', 'test-icp', 'ca', 'raiz-teste.key.pem'),
      join(dataDir, 'pki', 'test-icp', 'ca', 'ac-teste.key.pem'),
    ];
    for (const path of secrets) expect(((await stat(path)).mode & 0o777).toString(8), path).toBe('600');
  });

  it('writes a PKCS#12 that OpenSSL opens with the password (and only with it), holding key and chain', async () => {
    const files = icp.certificates['11222333000181']!;
    const pfx = await readFile(files.p12Path);
    expect(() => createSecureContext({ pfx, passphrase: TEST_P12_PASSWORD })).not.toThrow();
    expect(() => createSecureContext({ pfx, passphrase: 'errada' })).toThrow(/mac verify failure/i);
  });

  it('reuses everything on a later start', async () => {
    expect(await ensureTestIcp(dataDir, companies)).toEqual(icp);
  });

  it('issues for a new company or changed data, keeping the rest', async () => {
    const changed = [
      { ...companies[0]!, razaoSocial: 'PADARIA PÃO QUENTE EIRELI' },
      companies[1]!,
      { cnpj: '12ABC34501DE35', razaoSocial: 'EMPRESA ALFANUMÉRICA LTDA' },
    ];
    const next = await ensureTestIcp(dataDir, changed);
    expect(next.rootPem).toBe(icp.rootPem);
    expect(next.certificates['45997418000153']).toEqual(icp.certificates['45997418000153']);
    expect(next.certificates['11222333000181']?.certPem).not.toBe(icp.certificates['11222333000181']?.certPem);
    expect(verifyClientCertificate(next.certificates['11222333000181']?.certPem, local)).toMatchObject({ razaoSocial: 'PADARIA PÃO QUENTE EIRELI' });
    expect(verifyClientCertificate(next.certificates['12ABC34501DE35']?.certPem, local)).toMatchObject({ ok: true, cnpj: '12ABC34501DE35' });
    icp = await ensureTestIcp(dataDir, companies);
  });

  it('renews an expired company certificate from the same CA', async () => {
    const files = icp.certificates['45997418000153']!;
    const expired = await issueECnpj(
      { certPem: icp.intermediatePem, keyPem: await readFile(join(dataDir, 'pki', 'test-icp', 'ca', 'ac-teste.key.pem'), 'utf8') },
      { cnpj: '45997418000153', razaoSocial: 'TRANSPORTES EXEMPLO S.A.', notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) },
    );
    await writeFile(files.certPath, expired.certPem);
    await writeFile(files.keyPath, expired.keyPem);
    const renewed = await ensureTestIcp(dataDir, companies);
    expect(renewed.rootPem).toBe(icp.rootPem);
    expect(renewed.certificates['45997418000153']?.certPem).not.toBe(expired.certPem);
    expect(verifyClientCertificate(renewed.certificates['45997418000153']?.certPem, local).ok).toBe(true);
    icp = renewed;
  });

  it('rejects an invalid CNPJ', async () => {
    await expect(ensureTestIcp(dataDir, [{ cnpj: '11222333000182', razaoSocial: 'X' }])).rejects.toThrow(/not a valid CNPJ/);
  });

  describe('over real mutual TLS (what the twin gateway does)', () => {
    let server: Server;
    let port: number;
    let caPem: string;

    beforeAll(async () => {
      const serverPki = await ensureLocalPki(dataDir);
      caPem = serverPki.caCertPem;
      server = createServer(
        // `ca` also tells clients which roots the server asks for; acceptance is decided in code.
        { key: serverPki.serverKeyPem, cert: serverPki.serverCertPem, ca: [icp.rootPem], requestCert: true, rejectUnauthorized: false },
        (req, res) => {
          const socket = req.socket as TLSSocket;
          const pem = socket.getPeerX509Certificate()?.toString();
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(verifyClientCertificate(pem, local)));
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const call = (client: { cert?: string; key?: string; pfx?: Buffer; passphrase?: string }) =>
      new Promise<unknown>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', servername: 'localhost', ca: caPem, agent: false, ...client }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve(JSON.parse(body)));
        });
        req.on('error', reject);
        req.end();
      });

    it('receives the leaf from the client and accepts it', async () => {
      const files = icp.certificates['11222333000181']!;
      expect(await call({ cert: files.certPem, key: files.keyPem })).toMatchObject({ ok: true, cnpj: '11222333000181', razaoSocial: 'PADARIA PÃO QUENTE LTDA' });
    });

    it('works with the .p12 as the client credential', async () => {
      const files = icp.certificates['45997418000153']!;
      expect(await call({ pfx: await readFile(files.p12Path), passphrase: TEST_P12_PASSWORD })).toMatchObject({ ok: true, cnpj: '45997418000153' });
    });

    it('rejects the wrong-root and the expired certificate, and a request without certificate', async () => {
      expect(await call({ cert: icp.special.wrongRoot.certPem, key: icp.special.wrongRoot.keyPem })).toEqual({ ok: false, key: 'raizNaoIcpBrasil' });
      expect(await call({ cert: icp.special.expired.certPem, key: icp.special.expired.keyPem })).toEqual({ ok: false, key: 'certificadoInvalido' });
      expect(await call({})).toEqual({ ok: false, key: 'certificadoAusente' });
    });

    it('a self-made certificate copying the company data is not accepted', async () => {
      const fakeRoot = await createTestCa({ name: TEST_ROOT_NAME }); // same name, different key
      const fakeCa = await createTestCa({ name: TEST_CA_NAME, issuer: fakeRoot });
      const forged = await issueECnpj(fakeCa, { cnpj: '11222333000181', razaoSocial: 'PADARIA PÃO QUENTE LTDA' });
      const result = (await call({ cert: forged.certPem, key: forged.keyPem })) as { ok: boolean };
      expect(result.ok).toBe(false);
    });
  });
});

describe('the test ICP-Brasil publishes CRLs and revokes one certificate', () => {
  let dataDir: string;
  let server: HttpServer;
  let baseUrl: string;
  let icp: TestIcp;
  let local: TrustStore;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-test-icp-crl-'));
    // What the twin's gateway does at /_pki: the CRL files, nothing else.
    server = createHttpServer((req, res) => {
      const name = (req.url ?? '').replace(/^\/_pki\//, '');
      if (!(Object.values(TEST_CRL_FILES) as string[]).includes(name)) return void res.writeHead(404).end();
      void readFile(join(dataDir, 'pki', 'test-icp', 'crl', name)).then((bytes) => res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(bytes));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/_pki`;
    icp = await ensureTestIcp(dataDir, companies, { crlBaseUrl: baseUrl });
    local = buildTrustStore({ stage: 'local', localTrustDir: icp.trustDir, warn: () => {} });
    forgetCrls();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes ecnpj/revogado.* for REVOKED_COMPANY, a certificate that is otherwise valid', () => {
    expect(icp.revoked.certPath).toBe(join(dataDir, 'pki', 'test-icp', 'ecnpj', 'revogado.cert.pem'));
    expect(icp.revoked.keyPath).toBe(join(dataDir, 'pki', 'test-icp', 'ecnpj', 'revogado.key.pem'));
    expect(verifyClientCertificate(icp.revoked.certPem, local)).toMatchObject({ ok: true, cnpj: REVOKED_COMPANY.cnpj });
  });

  it('signs a CRL per CA: the test CA’s lists the revoked certificate only, the root’s nothing', async () => {
    const caCrl = parseCrl(await readFile(icp.crl.intermediatePath));
    const rootCrl = parseCrl(await readFile(icp.crl.rootPath));
    expect(isCrlSignedBy(caCrl, new X509Certificate(icp.intermediatePem))).toBe(true);
    expect(isCrlSignedBy(rootCrl, new X509Certificate(icp.rootPem))).toBe(true);
    expect([...caCrl.revoked]).toEqual([new X509Certificate(icp.revoked.certPem).serialNumber.replace(/^(00)+/, '')]);
    expect(rootCrl.revoked.size).toBe(0);
    expect(caCrl.nextUpdate.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  it('names the CRLs in the certificates, so that the revoked one is refused and the others are not', async () => {
    const chainOf = (pem: string) => {
      const check = verifyClientCertificate(pem, local);
      if (!check.ok) throw new Error(check.key);
      return check.chain;
    };
    expect(await revocationStatus(chainOf(icp.revoked.certPem))).toBe('revoked');
    expect(await revocationStatus(chainOf(icp.certificates['11222333000181']!.certPem))).toBe('good');
    expect(await revocationStatus(chainOf(icp.special.octetStringCnpj.certPem))).toBe('good');
  });

  it('keeps the CRL URL for later calls without it, and reissues the CA and the leaves when it changes', async () => {
    expect(await ensureTestIcp(dataDir, companies)).toEqual(icp);
    const moved = await ensureTestIcp(dataDir, companies, { crlBaseUrl: 'http://localhost:1/_pki' });
    expect(moved.rootPem).toBe(icp.rootPem);
    expect(moved.intermediatePem).not.toBe(icp.intermediatePem);
    expect(moved.revoked.certPem).not.toBe(icp.revoked.certPem);
    const caCrl = parseCrl(await readFile(moved.crl.intermediatePath));
    expect([...caCrl.revoked]).toEqual([new X509Certificate(moved.revoked.certPem).serialNumber.replace(/^(00)+/, '')]);
    icp = await ensureTestIcp(dataDir, companies, { crlBaseUrl: baseUrl });
  });
});

/** The otherNames of the SAN with the DER tag of their value and its text. */
function sanOtherNames(cert: X509Certificate): { typeId: string; tag: number; text: string }[] {
  const asn = AsnConvert.parse(cert.raw, Certificate);
  const san = asn.tbsCertificate.extensions?.find((e) => e.extnID === '2.5.29.17');
  if (!san) return [];
  return AsnConvert.parse(san.extnValue, SubjectAlternativeName).flatMap((name) => {
    if (!name.otherName) return [];
    const value = Buffer.from(name.otherName.value);
    return [{ typeId: name.otherName.typeId, tag: value[0] ?? 0, text: value.subarray(2).toString('latin1') }];
  });
}
