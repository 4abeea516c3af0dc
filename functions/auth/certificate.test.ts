import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestCa,
  issueECnpj,
  otherNameValue,
  type CertificatePair,
  type ECnpjOptions,
} from '../../infra/local/emulators/test-pki';
import { ICP_OID, MAX_CA_DEPTH, verifyClientCertificate } from './certificate';
import { buildTrustStore, loadTrustStore, LOCAL_TRUST_FILES, type TrustStore } from './trust';
import { renderModule, OUTPUT as GENERATED_MODULE } from './trust/generate';

const DAY = 86_400_000;
const CNPJ = '11222333000181';
const RAZAO = 'EMPRESA EXEMPLO LTDA';
/** An alphanumeric CNPJ (IN RFB 2.229/2024) with its computed check digits. */
const CNPJ_ALFA = `12ABC34501DE${cnpjCheckDigits('12ABC34501DE')}`;
const OTHER_CNPJ = '45997418000153';

let root: CertificatePair;
let ca: CertificatePair;
let trust: TrustStore;

const store = (roots: CertificatePair[], intermediates: CertificatePair[]): TrustStore => ({
  roots: roots.map((p) => new X509Certificate(p.certPem)),
  intermediates: intermediates.map((p) => new X509Certificate(p.certPem)),
});

const leaf = (options: Partial<ECnpjOptions> = {}, issuer: CertificatePair = ca) =>
  issueECnpj(issuer, { cnpj: CNPJ, razaoSocial: RAZAO, ...options });

beforeAll(async () => {
  root = await createTestCa({ name: 'Raiz de Teste Unitário', pathLength: 1 });
  ca = await createTestCa({ name: 'AC de Teste Unitário', issuer: root, pathLength: 0 });
  trust = store([root], [ca]);
});

describe('verifyClientCertificate: a valid e-CNPJ', () => {
  it('returns the CNPJ, the razão social without the ":CNPJ" suffix and the responsible person', async () => {
    const { certPem } = await leaf({ responsavel: { nome: 'Maria de Souza', cpf: '529.982.247-25', nascimento: '1975-12-31' } });
    const result = verifyClientCertificate(certPem, trust);
    const cert = new X509Certificate(certPem);
    expect(result).toEqual({
      ok: true,
      cnpj: CNPJ,
      razaoSocial: RAZAO,
      responsavel: { nome: 'MARIA DE SOUZA', cpf: '52998224725', nascimento: '1975-12-31' },
      serialNumber: cert.serialNumber.toUpperCase(),
      notAfter: cert.validToDate.toISOString(),
      // The path the revocation check walks: the leaf, its CA, the root.
      chain: [expect.objectContaining({ fingerprint256: cert.fingerprint256 }), trust.intermediates[0], trust.roots[0]],
    });
  });

  it('accepts the CNPJ as PrintableString, OCTET STRING (older profile) and UTF8String', async () => {
    for (const cnpjEncoding of ['printable', 'octet', 'utf8'] as const) {
      const result = verifyClientCertificate((await leaf({ cnpjEncoding })).certPem, trust);
      expect(result, cnpjEncoding).toMatchObject({ ok: true, cnpj: CNPJ });
    }
  });

  it('accepts an alphanumeric CNPJ and keeps it upper-case', async () => {
    const result = verifyClientCertificate((await leaf({ cnpj: CNPJ_ALFA.toLowerCase() })).certPem, trust);
    expect(result).toMatchObject({ ok: true, cnpj: CNPJ_ALFA });
  });

  it('leaves out what the responsible person data does not inform (zeros) and omits responsavel when empty', async () => {
    const zeros = verifyClientCertificate((await leaf({ responsavel: { nome: 'Ana', cpf: '00000000000' } })).certPem, trust);
    expect(zeros).toMatchObject({ ok: true, responsavel: { nome: 'ANA' } });
    if (zeros.ok) expect(zeros.responsavel).toEqual({ nome: 'ANA' });
    const none = verifyClientCertificate((await leaf()).certPem, trust);
    expect(none.ok && 'responsavel' in none).toBe(false);
  });

  it('accepts a certificate without extendedKeyUsage (keyUsage still checked)', async () => {
    expect(verifyClientCertificate((await leaf({ extendedKeyUsage: null })).certPem, trust)).toMatchObject({ ok: true });
  });

  it('checks the dates at the given instant', async () => {
    const { certPem } = await leaf();
    const cert = new X509Certificate(certPem);
    expect(verifyClientCertificate(certPem, trust, new Date(cert.validToDate.getTime() - 1000)).ok).toBe(true);
    expect(verifyClientCertificate(certPem, trust, new Date(cert.validToDate.getTime() + 1000))).toEqual({ ok: false, key: 'certificadoInvalido' });
  });
});

describe('verifyClientCertificate: rejected leaves', () => {
  it.each([undefined, '', '   \n'])('no certificate (%j) → certificadoAusente', (pem) => {
    expect(verifyClientCertificate(pem, trust)).toEqual({ ok: false, key: 'certificadoAusente' });
  });

  it.each([
    'garbage',
    '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
    '-----BEGIN CERTIFICATE-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END CERTIFICATE-----\n',
  ])('unparsable PEM → certificadoInvalido', (pem) => {
    expect(verifyClientCertificate(pem, trust)).toEqual({ ok: false, key: 'certificadoInvalido' });
  });

  const invalid = { ok: false, key: 'certificadoInvalido' };

  it('expired → certificadoInvalido', async () => {
    const { certPem } = await leaf({ notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) });
    expect(verifyClientCertificate(certPem, trust)).toEqual(invalid);
  });

  it('not yet valid → certificadoInvalido', async () => {
    const { certPem } = await leaf({ notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 300 * DAY) });
    expect(verifyClientCertificate(certPem, trust)).toEqual(invalid);
    expect(verifyClientCertificate(certPem, trust, new Date(Date.now() + 2 * DAY)).ok).toBe(true);
  });

  it('no CNPJ otherName → certificadoInvalido, even with the CNPJ in the CN', async () => {
    const { certPem } = await leaf({ cnpjEncoding: 'none' });
    expect(new X509Certificate(certPem).subject).toContain(`CN=${RAZAO}:${CNPJ}`);
    expect(verifyClientCertificate(certPem, trust)).toEqual(invalid);
  });

  it('a CNPJ with wrong check digits, of zeros, or of the wrong length → certificadoInvalido', async () => {
    for (const cnpj of ['11222333000182', '00000000000000', '1122233300018', 'not-a-cnpj']) {
      expect(verifyClientCertificate((await leaf({ cnpj })).certPem, trust), cnpj).toEqual(invalid);
    }
  });

  it('two different CNPJs → certificadoInvalido', async () => {
    const { certPem } = await leaf({ extraOtherNames: [{ typeId: ICP_OID.cnpj, value: otherNameValue.printable(OTHER_CNPJ) }] });
    expect(verifyClientCertificate(certPem, trust)).toEqual(invalid);
  });

  it('a CA certificate presented as the leaf → certificadoInvalido', async () => {
    expect(verifyClientCertificate(ca.certPem, trust)).toEqual(invalid);
    expect(verifyClientCertificate((await leaf({ ca: true })).certPem, trust)).toEqual(invalid);
  });

  it('keyUsage without digitalSignature → certificadoInvalido', async () => {
    const { certPem } = await leaf({ keyUsage: 4 /* keyEncipherment only */ });
    expect(verifyClientCertificate(certPem, trust)).toEqual(invalid);
  });

  it('extendedKeyUsage without clientAuth → certificadoInvalido', async () => {
    const { certPem } = await leaf({ extendedKeyUsage: ['1.3.6.1.5.5.7.3.4' /* emailProtection */] });
    expect(verifyClientCertificate(certPem, trust)).toEqual(invalid);
  });

  it('an RSA key under 2048 bits → certificadoInvalido', async () => {
    expect(verifyClientCertificate((await leaf({ modulusLength: 1024 })).certPem, trust)).toEqual(invalid);
  });

  it('a tampered signed part (another CNPJ written over) → certificadoInvalido', async () => {
    const { certPem } = await leaf();
    const der = Buffer.from(new X509Certificate(certPem).raw);
    const at = der.indexOf(Buffer.from(CNPJ, 'latin1'));
    expect(at).toBeGreaterThan(0);
    Buffer.from(OTHER_CNPJ, 'latin1').copy(der, at);
    const tampered = toPem(der);
    expect(new X509Certificate(tampered).subjectAltName).toBeDefined(); // still parses
    expect(verifyClientCertificate(tampered, trust)).toEqual(invalid);
  });

  it('a tampered signature value → certificadoInvalido', async () => {
    const der = Buffer.from(new X509Certificate((await leaf()).certPem).raw);
    der[der.length - 10] = (der[der.length - 10] ?? 0) ^ 0xff;
    expect(verifyClientCertificate(toPem(der), trust)).toEqual(invalid);
  });
});

describe('verifyClientCertificate: the chain', () => {
  const untrusted = { ok: false, key: 'raizNaoIcpBrasil' };

  it('issued under a root that is not in the store → raizNaoIcpBrasil', async () => {
    const otherRoot = await createTestCa({ name: 'Raiz Desconhecida' });
    expect(verifyClientCertificate((await leaf({}, otherRoot)).certPem, trust)).toEqual(untrusted);
  });

  it('the issuing CA missing from the store → raizNaoIcpBrasil', async () => {
    expect(verifyClientCertificate((await leaf()).certPem, store([root], []))).toEqual(untrusted);
  });

  it('a known CA that is not a trusted root is not enough → raizNaoIcpBrasil', async () => {
    expect(verifyClientCertificate((await leaf()).certPem, store([], [root, ca]))).toEqual(untrusted);
  });

  it('issued directly by a trusted root → ok', async () => {
    expect(verifyClientCertificate((await leaf({}, root)).certPem, store([root], [])).ok).toBe(true);
  });

  it('an expired intermediate → raizNaoIcpBrasil', async () => {
    const old = await createTestCa({ name: 'AC Vencida', issuer: root, notBefore: new Date(Date.now() - 800 * DAY), notAfter: new Date(Date.now() - DAY) });
    expect(verifyClientCertificate((await leaf({}, old)).certPem, store([root], [old]))).toEqual(untrusted);
  });

  it('an intermediate without keyCertSign → raizNaoIcpBrasil', async () => {
    const weak = await createTestCa({ name: 'AC Sem KeyCertSign', issuer: root, keyUsage: 64 /* cRLSign */ });
    expect(verifyClientCertificate((await leaf({}, weak)).certPem, store([root], [weak]))).toEqual(untrusted);
  });

  it('an intermediate signed by another key under the same name → raizNaoIcpBrasil', async () => {
    const impostor = await createTestCa({ name: 'Raiz de Teste Unitário' }); // same subject as the root, own key
    const fakeCa = await createTestCa({ name: 'AC Falsa', issuer: impostor });
    expect(verifyClientCertificate((await leaf({}, fakeCa)).certPem, store([root], [fakeCa]))).toEqual(untrusted);
  });

  it('respects pathLenConstraint (the root allows one CA below it)', async () => {
    const sub = await createTestCa({ name: 'Sub AC', issuer: ca }); // ca has pathLength 0
    expect(verifyClientCertificate((await leaf({}, sub)).certPem, store([root], [ca, sub]))).toEqual(untrusted);
  });

  it(`accepts at most ${MAX_CA_DEPTH} CA certificates, root included`, async () => {
    const deepRoot = await createTestCa({ name: 'Raiz Profunda' });
    const chain: CertificatePair[] = [deepRoot];
    for (let i = 1; i <= MAX_CA_DEPTH; i++) chain.push(await createTestCa({ name: `AC Nível ${i}`, issuer: chain[i - 1]! }));
    const deep = store([deepRoot], chain.slice(1));
    // MAX_CA_DEPTH certificates: root + (MAX_CA_DEPTH - 1) intermediates.
    expect(verifyClientCertificate((await leaf({}, chain[MAX_CA_DEPTH - 1]!)).certPem, deep).ok).toBe(true);
    expect(verifyClientCertificate((await leaf({}, chain[MAX_CA_DEPTH]!)).certPem, deep)).toEqual(untrusted);
  });
});

describe('trust store', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('bundles the ICP-Brasil roots (at least the RSA v5, v10 and v12) and the known intermediates', () => {
    const production = buildTrustStore({ stage: 'prod', localTrustDir: undefined, warn: () => {} });
    const rootNames = production.roots.map((c) => /CN=(.*)/.exec(c.subject)?.[1]);
    for (const v of ['v5', 'v10', 'v12']) expect(rootNames).toContain(`Autoridade Certificadora Raiz Brasileira ${v}`);
    expect(production.roots.filter((c) => c.publicKey.asymmetricKeyType === 'rsa').length).toBeGreaterThanOrEqual(3);
    const rfb = production.intermediates.find((c) => c.subject.includes('CN=AC Secretaria da Receita Federal do Brasil v5'));
    const v12 = production.roots.find((c) => c.subject.includes('Raiz Brasileira v12'));
    expect(rfb && v12 && rfb.checkIssued(v12) && rfb.verify(v12.publicKey)).toBe(true);
  });

  it('the generated module matches the PEM folders (regenerate with npx tsx functions/auth/trust/generate.ts)', async () => {
    expect(await readFile(GENERATED_MODULE, 'utf8')).toBe(renderModule());
  });

  it('does not trust a test leaf in the production store', async () => {
    vi.stubEnv('APP_STAGE', 'prod');
    vi.stubEnv('PLAC_LOCAL_TRUST_DIR', '');
    expect(verifyClientCertificate((await leaf()).certPem, loadTrustStore())).toEqual({ ok: false, key: 'raizNaoIcpBrasil' });
  });

  describe('the local twin folder', () => {
    let dir: string;
    let certPem: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'plac-trust-'));
      await writeFile(join(dir, LOCAL_TRUST_FILES.root), root.certPem);
      await writeFile(join(dir, LOCAL_TRUST_FILES.intermediate), ca.certPem);
      certPem = (await leaf()).certPem;
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('is trusted when APP_STAGE=local', () => {
      vi.stubEnv('APP_STAGE', 'local');
      vi.stubEnv('PLAC_LOCAL_TRUST_DIR', dir);
      const local = loadTrustStore();
      expect(verifyClientCertificate(certPem, local)).toMatchObject({ ok: true, cnpj: CNPJ });
      expect(loadTrustStore()).toBe(local); // cached
    });

    it.each(['prod', 'dev', 'staging', 'LOCAL', ''])('is ignored when APP_STAGE=%j', (stage) => {
      vi.stubEnv('APP_STAGE', stage);
      vi.stubEnv('PLAC_LOCAL_TRUST_DIR', dir);
      expect(verifyClientCertificate(certPem, loadTrustStore())).toEqual({ ok: false, key: 'raizNaoIcpBrasil' });
    });

    it('skips, with a warning, files that are missing or do not parse', async () => {
      const broken = await mkdtemp(join(tmpdir(), 'plac-trust-broken-'));
      try {
        await writeFile(join(broken, LOCAL_TRUST_FILES.root), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
        const warnings: string[] = [];
        const result = buildTrustStore({ stage: 'local', localTrustDir: broken, warn: (m, d) => warnings.push(`${m} ${String(d.kind)}`) });
        expect(warnings).toEqual([
          'Trust store certificate could not be parsed; skipped root',
          'Local test certificate not loaded intermediate',
        ]);
        expect(result.roots.length).toBe(buildTrustStore({ stage: 'prod', localTrustDir: undefined }).roots.length);
      } finally {
        await rm(broken, { recursive: true, force: true });
      }
    });
  });
});

function toPem(der: Buffer): string {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`;
}
