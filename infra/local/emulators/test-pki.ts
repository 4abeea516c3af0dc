/**
 * A test copy of ICP-Brasil for the local twin: e-CNPJ certificates that the certificate logins accept
 * locally, and nowhere else.
 *
 * Same shape as the real hierarchy, with its own names so it can never be mistaken for it:
 *   "PLAC Local Teste Raiz (NÃO CONFIÁVEL FORA DO AMBIENTE LOCAL)"  (root, like Raiz Brasileira v5/v10/v12)
 *     └─ "AC PLAC Local Teste"                                        (issuing CA, like AC SAFETECH RFB v5)
 *          └─ "RAZAO SOCIAL:CNPJ"                                     (e-CNPJ A1 leaves)
 * plus an unrelated "PLAC Local Raiz Desconhecida" that issues the `wrongRoot` certificate.
 *
 * Files, under `<dataDir>/pki/test-icp/` (see TEST_ICP_LAYOUT):
 *   trust/                      the two certificates the twin trusts: PLAC_LOCAL_TRUST_DIR points here
 *   ca/                         the CA keys and the untrusted root
 *   ecnpj/<CNPJ>.*              one e-CNPJ per company: .cert.pem, .key.pem (PKCS#8), .p12, .json
 *   ecnpj/revogado.*            an e-CNPJ of REVOKED_COMPANY that the test CA has revoked
 *   especiais/<name>.*          expired, wrong-root, no-cnpj, octet-string-cnpj
 *   crl/                        the CRLs (DER) of the root (empty) and of the test CA (lists `revogado`)
 * Everything is reused across starts and regenerated when missing, unreadable, expired (or expiring
 * within a day), no longer signed by the current CA, or issued for different company data. Private
 * keys and .p12 files are written 0600.
 *
 * Revocation: given `crlBaseUrl` (the twin serves crl/ at `<portal>/_pki`), the test CA and every leaf
 * carry a cRLDistributionPoints URL `<crlBaseUrl>/<file>` for their issuer's CRL, as ICP-Brasil's do;
 * the base URL is kept in crl/base-url so that later calls without it (tests reading the files back)
 * issue the same. A changed base URL reissues the CA and the leaves. Each CRL is valid CRL_VALIDITY_DAYS
 * and reissued when it has less than a day left, or no longer matches its CA or revoked serials. The .p12 (PKCS#12: PBES2/AES-256-CBC key, HMAC-SHA-256 MAC,
 * password TEST_P12_PASSWORD) carries the leaf, the issuing CA and the root, for importing in a browser.
 *
 * The leaves follow the e-CNPJ profile (DOC-ICP-04): subject C=BR, O=ICP-Brasil, OUs, CN
 * "RAZAO SOCIAL:CNPJ"; subjectAltName otherNames 2.16.76.1.3.4 (responsible person's data),
 * 2.16.76.1.3.2 (their name), 2.16.76.1.3.3 (CNPJ), 2.16.76.1.3.7 (INSS CEI, zeros) as PrintableString,
 * and an rfc822Name; keyUsage digitalSignature|nonRepudiation|keyEncipherment (critical); extendedKeyUsage
 * clientAuth + emailProtection; RSA 2048, SHA-256; one year.
 */
import { createCipheriv, createHash, createHmac, createPrivateKey, pbkdf2Sync, randomBytes, webcrypto, X509Certificate as NodeX509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isValidCnpj, normalizeCnpj } from '@plac/shared/domain';
import { ICP_OID } from '../../../functions/auth/certificate';
import { LOCAL_TRUST_FILES } from '../../../functions/auth/trust';
import { RSA_SHA256 as algorithm, x509 } from './x509';

export const TEST_ROOT_NAME = 'PLAC Local Teste Raiz (NÃO CONFIÁVEL FORA DO AMBIENTE LOCAL)';
export const TEST_CA_NAME = 'AC PLAC Local Teste';
export const UNTRUSTED_ROOT_NAME = 'PLAC Local Raiz Desconhecida (NÃO CONFIÁVEL)';
export const TEST_P12_PASSWORD = 'plac';

/** Sub-folders of `<dataDir>/pki/test-icp/`. */
export const TEST_ICP_LAYOUT = { trust: 'trust', ca: 'ca', companies: 'ecnpj', special: 'especiais', crl: 'crl' } as const;
/** The CRLs in crl/, by issuer: the only files the twin serves from there. */
export const TEST_CRL_FILES = { root: 'raiz-teste.crl', intermediate: 'ac-teste.crl' } as const;
/**
 * The company of the revoked certificate: the demo ESF bank's CNPJ, so that the certificate would
 * log in as its users if it were not revoked.
 */
export const REVOKED_COMPANY = { cnpj: '11222333000181', razaoSocial: 'BANCO DEMONSTRACAO ESF S.A. (CERTIFICADO REVOGADO)' } as const;
export const REVOKED_FILE_NAME = 'revogado';

export interface TestCompany {
  /** Masked or not; must be a valid CNPJ (numeric or alphanumeric). */
  cnpj: string;
  razaoSocial: string;
  responsavel?: { nome: string; cpf: string; /** ISO yyyy-mm-dd; zeros ("not informed") when absent. */ nascimento?: string };
}

export interface TestCertificateFiles {
  certPath: string;
  keyPath: string;
  /** PKCS#12 with leaf, issuing CA and root; password TEST_P12_PASSWORD. */
  p12Path: string;
  certPem: string;
  /** PKCS#8 PEM. */
  keyPem: string;
}

export interface TestIcp {
  /** The folder to put in PLAC_LOCAL_TRUST_DIR (holds only the test root and the test CA). */
  trustDir: string;
  rootPem: string;
  intermediatePem: string;
  /** By normalized CNPJ (upper-case, unmasked). */
  certificates: Record<string, TestCertificateFiles>;
  /** Trusted and current, but on the test CA's CRL (ecnpj/revogado.*): refused as certificadoRevogado when the CRL is published. */
  revoked: TestCertificateFiles;
  /** The CRLs, DER: the root's (lists nothing) and the test CA's (lists `revoked`). */
  crl: { dir: string; rootPath: string; intermediatePath: string; baseUrl: string | undefined };
  special: {
    /** Valid CNPJ, trusted chain, validity entirely in the past. */
    expired: TestCertificateFiles;
    /** Valid CNPJ, current, issued by UNTRUSTED_ROOT_NAME (a root the twin does not trust). */
    wrongRoot: TestCertificateFiles;
    /** Trusted and current, without the 2.16.76.1.3.3 otherName. */
    noCnpj: TestCertificateFiles;
    /** Trusted and current, the CNPJ as OCTET STRING (the older ICP-Brasil profile). */
    octetStringCnpj: TestCertificateFiles;
  };
}

/** A certificate and its PKCS#8 private key, both PEM. */
export interface CertificatePair {
  certPem: string;
  keyPem: string;
}

const DAY_MS = 86_400_000;
const ROOT_VALIDITY_DAYS = 3650;
const CA_VALIDITY_DAYS = 1825;
const LEAF_VALIDITY_DAYS = 365;
const CRL_VALIDITY_DAYS = 7;
const CRL_BASE_URL_FILE = 'base-url';
/** CNPJ of the special certificates when no company is given (valid check digits). */
const FALLBACK_SPECIAL = { cnpj: '11222333000181', razaoSocial: 'PLAC TESTE CERTIFICADOS ESPECIAIS LTDA' } as const;

export interface TestIcpOptions {
  /** Where the CRLs are served (e.g. `http://localhost:3000/_pki`); the one kept from an earlier call when absent. */
  crlBaseUrl?: string;
}

/**
 * Loads the test hierarchy and one e-CNPJ per company from `<dataDir>/pki/test-icp/`, creating or
 * renewing whatever is missing or no longer valid. Throws on an invalid or repeated CNPJ.
 */
export async function ensureTestIcp(dataDir: string, companies: TestCompany[], options: TestIcpOptions = {}): Promise<TestIcp> {
  const base = join(dataDir, 'pki', 'test-icp');
  const dirs = {
    trust: join(base, TEST_ICP_LAYOUT.trust),
    ca: join(base, TEST_ICP_LAYOUT.ca),
    companies: join(base, TEST_ICP_LAYOUT.companies),
    special: join(base, TEST_ICP_LAYOUT.special),
    crl: join(base, TEST_ICP_LAYOUT.crl),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true, mode: 0o700 });

  const wanted = companies.map(normalizeCompany);
  const seen = new Set<string>();
  for (const c of wanted) {
    if (seen.has(c.cnpj)) throw new Error(`ensureTestIcp: CNPJ ${c.cnpj} given twice`);
    seen.add(c.cnpj);
  }

  const baseUrlFile = join(dirs.crl, CRL_BASE_URL_FILE);
  if (options.crlBaseUrl !== undefined && options.crlBaseUrl !== readText(baseUrlFile)) writeFileSync(baseUrlFile, options.crlBaseUrl);
  const crlBaseUrl = options.crlBaseUrl ?? readText(baseUrlFile);
  const crlUrl = (file: string) => (crlBaseUrl ? `${crlBaseUrl}/${file}` : undefined);

  // The hierarchy: a CA is kept while current and (for the issuing CA) still signed by the root and
  // pointing at the root's CRL.
  const rootFiles = { cert: join(dirs.trust, LOCAL_TRUST_FILES.root), key: join(dirs.ca, 'raiz-teste.key.pem') };
  const caFiles = { cert: join(dirs.trust, LOCAL_TRUST_FILES.intermediate), key: join(dirs.ca, 'ac-teste.key.pem') };
  const otherFiles = { cert: join(dirs.ca, 'raiz-desconhecida.cert.pem'), key: join(dirs.ca, 'raiz-desconhecida.key.pem') };

  let root = readPair(rootFiles.cert, rootFiles.key);
  if (!root || !isCurrent(root.certPem)) {
    root = await createTestCa({ name: TEST_ROOT_NAME, pathLength: 1, validityDays: ROOT_VALIDITY_DAYS });
    writePair(rootFiles.cert, rootFiles.key, root);
  }
  let ca = readPair(caFiles.cert, caFiles.key);
  const caCrlUrl = crlUrl(TEST_CRL_FILES.root);
  if (!ca || !isCurrent(ca.certPem) || !isSignedBy(ca.certPem, root.certPem) || distributionPointOf(ca.certPem) !== caCrlUrl) {
    ca = await createTestCa({ name: TEST_CA_NAME, issuer: root, pathLength: 0, validityDays: CA_VALIDITY_DAYS, ...(caCrlUrl ? { crlUrl: caCrlUrl } : {}) });
    writePair(caFiles.cert, caFiles.key, ca);
  }
  let other = readPair(otherFiles.cert, otherFiles.key);
  if (!other || !isCurrent(other.certPem)) {
    other = await createTestCa({ name: UNTRUSTED_ROOT_NAME, pathLength: 0, validityDays: ROOT_VALIDITY_DAYS });
    writePair(otherFiles.cert, otherFiles.key, other);
  }

  const trusted: Issuer = { pair: ca, chain: [ca.certPem, root.certPem] };
  const untrusted: Issuer = { pair: other, chain: [other.certPem] };
  const leafCrl = crlUrl(TEST_CRL_FILES.intermediate);
  const published = leafCrl ? { crlUrl: leafCrl } : {};
  const certificates: Record<string, TestCertificateFiles> = {};
  for (const company of wanted) {
    certificates[company.cnpj] = await ensureLeaf(dirs.companies, company.cnpj, trusted, { ...company, cnpjEncoding: 'printable', ...published });
  }
  const revoked = await ensureLeaf(dirs.companies, REVOKED_FILE_NAME, trusted, { ...REVOKED_COMPANY, cnpjEncoding: 'printable', ...published });

  const first = wanted[0] ?? FALLBACK_SPECIAL;
  const expiredValidity = { notBefore: new Date(Date.now() - 400 * DAY_MS), notAfter: new Date(Date.now() - 35 * DAY_MS) };
  const special: TestIcp['special'] = {
    expired: await ensureLeaf(dirs.special, 'expired', trusted, { ...first, cnpjEncoding: 'printable', ...expiredValidity, ...published }),
    wrongRoot: await ensureLeaf(dirs.special, 'wrong-root', untrusted, { ...first, cnpjEncoding: 'printable' }),
    noCnpj: await ensureLeaf(dirs.special, 'no-cnpj', trusted, { ...first, cnpjEncoding: 'none', ...published }),
    octetStringCnpj: await ensureLeaf(dirs.special, 'octet-string-cnpj', trusted, { ...first, cnpjEncoding: 'octet', ...published }),
  };

  const crl = {
    dir: dirs.crl,
    rootPath: join(dirs.crl, TEST_CRL_FILES.root),
    intermediatePath: join(dirs.crl, TEST_CRL_FILES.intermediate),
    baseUrl: crlBaseUrl,
  };
  await ensureCrl(crl.rootPath, root, []);
  await ensureCrl(crl.intermediatePath, ca, [revoked.certPem]);

  return { trustDir: dirs.trust, rootPem: root.certPem, intermediatePem: ca.certPem, certificates, revoked, crl, special };
}

function normalizeCompany(company: TestCompany): TestCompany {
  const cnpj = normalizeCnpj(company.cnpj);
  if (!isValidCnpj(cnpj)) throw new Error(`ensureTestIcp: "${company.cnpj}" is not a valid CNPJ`);
  return { ...company, cnpj };
}

// ---------------------------------------------------------------------------------------------------
// Building blocks (exported for tests that need certificates outside the standard set)

export interface TestCaOptions {
  name: string;
  /** Signs the new CA; self-signed (a root) when absent. */
  issuer?: CertificatePair;
  /** basicConstraints pathLenConstraint. */
  pathLength?: number;
  validityDays?: number;
  notBefore?: Date;
  notAfter?: Date;
  /** Defaults to keyCertSign | cRLSign. */
  keyUsage?: number;
  /** cRLDistributionPoints: where the issuer's CRL is published, mirrors after the first (not for a root). */
  crlUrl?: string | string[];
}

/** A CA certificate (root when `issuer` is absent) in the ICP-Brasil style: O=ICP-Brasil is left to real ones. */
export async function createTestCa(options: TestCaOptions): Promise<CertificatePair> {
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const now = Date.now();
  const notBefore = options.notBefore ?? new Date(now - DAY_MS); // tolerate small clock differences
  const notAfter = options.notAfter ?? new Date(now + (options.validityDays ?? CA_VALIDITY_DAYS) * DAY_MS);
  const name: x509.JsonName = [{ C: ['BR'] }, { O: ['PLAC Fat-e (ambiente local)'] }, { CN: [options.name] }];
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(true, options.pathLength, true),
    new x509.KeyUsagesExtension(options.keyUsage ?? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  if (!options.issuer) {
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: randomSerial(), name, notBefore, notAfter, signingAlgorithm: algorithm, keys, extensions,
    });
    return { certPem: cert.toString('pem'), keyPem: await exportPkcs8(keys.privateKey) };
  }
  const issuerCert = new x509.X509Certificate(options.issuer.certPem);
  extensions.push(await x509.AuthorityKeyIdentifierExtension.create(issuerCert));
  if (options.crlUrl) extensions.push(new x509.CRLDistributionPointsExtension([options.crlUrl].flat()));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: name,
    issuer: issuerCert.subject,
    notBefore,
    notAfter,
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: await importPkcs8(options.issuer.keyPem),
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: await exportPkcs8(keys.privateKey) };
}

export interface ECnpjOptions {
  razaoSocial: string;
  /** Required unless cnpjEncoding is 'none'. Written as given (tests may pass invalid ones). */
  cnpj?: string;
  /** How otherName 2.16.76.1.3.3 is encoded; 'none' leaves it out. Default 'printable'. */
  cnpjEncoding?: 'printable' | 'octet' | 'utf8' | 'none';
  responsavel?: TestCompany['responsavel'];
  notBefore?: Date;
  notAfter?: Date;
  /** Defaults to digitalSignature | nonRepudiation | keyEncipherment. */
  keyUsage?: number;
  /** Defaults to clientAuth + emailProtection; null leaves the extension out. */
  extendedKeyUsage?: string[] | null;
  /** Issue it as a CA (basicConstraints cA=true): for tests of the "CA presented as leaf" rule. */
  ca?: boolean;
  /** Extra otherNames, DER of the value inside [0] EXPLICIT; for tests. */
  extraOtherNames?: { typeId: string; value: Uint8Array }[];
  /** RSA modulus of the leaf's key; default 2048. */
  modulusLength?: number;
  /** cRLDistributionPoints: where the issuer's CRL is published, mirrors after the first. */
  crlUrl?: string | string[];
}

export interface TestCrlOptions {
  /** The certificates on the list (PEM). */
  revoked?: string[];
  /** More serial numbers on the list (hex), of certificates not at hand: a CA's CRL of ICP-Brasil's size (the bench). */
  serials?: string[];
  thisUpdate?: Date;
  /** Defaults to CRL_VALIDITY_DAYS after thisUpdate. */
  nextUpdate?: Date;
}

/** A CRL (DER) signed by `issuer`, listing `revoked` as key compromises. */
export async function issueTestCrl(issuer: CertificatePair, options: TestCrlOptions = {}): Promise<Uint8Array> {
  const issuerCert = new x509.X509Certificate(issuer.certPem);
  const thisUpdate = options.thisUpdate ?? new Date(Date.now() - 60_000);
  const crl = await x509.X509CrlGenerator.create({
    // The issuer's subject as encoded in its certificate: CRL checks compare the names byte for byte.
    issuer: issuerCert.subjectName,
    thisUpdate,
    nextUpdate: options.nextUpdate ?? new Date(thisUpdate.getTime() + CRL_VALIDITY_DAYS * DAY_MS),
    entries: [...(options.revoked ?? []).map((pem) => new x509.X509Certificate(pem).serialNumber), ...(options.serials ?? [])].map((serialNumber) => ({
      serialNumber,
      revocationDate: thisUpdate,
      reason: x509.X509CrlReason.keyCompromise,
    })),
    extensions: [await x509.AuthorityKeyIdentifierExtension.create(issuerCert)],
    signingAlgorithm: algorithm,
    signingKey: await importPkcs8(issuer.keyPem),
  });
  return new Uint8Array(crl.rawData);
}

/** An e-CNPJ A1 leaf signed by `issuer`. */
export async function issueECnpj(issuer: CertificatePair, options: ECnpjOptions): Promise<CertificatePair> {
  const keyAlgorithm = { ...algorithm, modulusLength: options.modulusLength ?? algorithm.modulusLength };
  const keys = await webcrypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify']);
  const issuerCert = new x509.X509Certificate(issuer.certPem);
  const now = Date.now();
  const encoding = options.cnpjEncoding ?? 'printable';
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(options.ca ?? false, undefined, false),
    new x509.KeyUsagesExtension(
      options.keyUsage ??
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    new x509.Extension('2.5.29.17', false, ecnpjSubjectAltName(options, encoding)),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(issuerCert),
  ];
  if (options.crlUrl) extensions.push(new x509.CRLDistributionPointsExtension([options.crlUrl].flat()));
  if (options.extendedKeyUsage !== null) {
    extensions.push(
      new x509.ExtendedKeyUsageExtension(options.extendedKeyUsage ?? [x509.ExtendedKeyUsage.clientAuth, x509.ExtendedKeyUsage.emailProtection]),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: [
      { C: ['BR'] },
      { O: ['ICP-Brasil'] },
      { OU: ['Secretaria da Receita Federal do Brasil - RFB'] },
      { OU: ['RFB e-CNPJ A1'] },
      { OU: [TEST_CA_NAME] },
      { CN: [options.cnpj ? `${options.razaoSocial}:${options.cnpj}` : options.razaoSocial] },
    ],
    issuer: issuerCert.subject,
    notBefore: options.notBefore ?? new Date(now - DAY_MS),
    notAfter: options.notAfter ?? new Date(now + LEAF_VALIDITY_DAYS * DAY_MS),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: await importPkcs8(issuer.keyPem),
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: await exportPkcs8(keys.privateKey) };
}

/** GeneralNames with the ICP-Brasil otherNames, in the order real e-CNPJ certificates use. */
function ecnpjSubjectAltName(options: ECnpjOptions, encoding: NonNullable<ECnpjOptions['cnpjEncoding']>): Uint8Array {
  const other = (typeId: string, value: Uint8Array) => der.tlv(0xa0, der.oid(typeId), der.tlv(0xa0, value));
  const names: Uint8Array[] = [];
  if (options.responsavel) {
    const r = options.responsavel;
    const nascimento = r.nascimento ? r.nascimento.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$3$2$1') : '00000000';
    // birth date (8) + CPF (11) + NIS (11) + RG (15) + RG issuer and UF (6): zeros where not informed.
    const dados = nascimento + r.cpf.replace(/\D/g, '').padStart(11, '0') + '0'.repeat(11) + '0'.repeat(15) + '0'.repeat(6);
    names.push(other(ICP_OID.responsavelDados, der.printable(dados)));
    names.push(other(ICP_OID.responsavelNome, der.printable(printableName(r.nome))));
  }
  if (encoding !== 'none') {
    const value = options.cnpj ?? '';
    const encoded = encoding === 'octet' ? der.tlv(0x04, Buffer.from(value, 'latin1')) : encoding === 'utf8' ? der.utf8(value) : der.printable(value);
    names.push(other(ICP_OID.cnpj, encoded));
  }
  names.push(other(ICP_OID.cei, der.printable('0'.repeat(12))));
  for (const extra of options.extraOtherNames ?? []) names.push(other(extra.typeId, extra.value));
  const mailbox = `ecnpj-${(options.cnpj || 'sem-cnpj').toLowerCase()}@exemplo.test`;
  names.push(der.tlv(0x81, Buffer.from(mailbox, 'ascii')));
  return der.tlv(0x30, ...names);
}

/** PrintableString has no accents: "JOÃO DA SILVA" → "JOAO DA SILVA", as the ACs write it. */
function printableName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 '()+,\-./:=?]/g, ' ')
    .toUpperCase();
}

// ---------------------------------------------------------------------------------------------------
// Reuse

interface Issuer {
  pair: CertificatePair;
  /** Certificates to put in the .p12 after the leaf: the issuer and up to the root. */
  chain: string[];
}

type LeafSpec = Pick<ECnpjOptions, 'cnpj' | 'cnpjEncoding' | 'razaoSocial' | 'responsavel' | 'notBefore' | 'notAfter' | 'crlUrl'>;

/** Reuses `<dir>/<name>.*` when it was issued for the same data by the same CA and is still in its intended state. */
async function ensureLeaf(dir: string, name: string, issuer: Issuer, spec: LeafSpec): Promise<TestCertificateFiles> {
  const paths = {
    certPath: join(dir, `${name}.cert.pem`),
    keyPath: join(dir, `${name}.key.pem`),
    p12Path: join(dir, `${name}.p12`),
    specPath: join(dir, `${name}.json`),
  };
  const expired = spec.notAfter !== undefined && spec.notAfter.getTime() < Date.now();
  // The dates of the expired certificate move with each run; what must hold is "already expired".
  const { notBefore: _nb, notAfter: _na, ...stable } = spec;
  const fingerprint = JSON.stringify({ ...stable, expired, issuer: new NodeX509Certificate(issuer.pair.certPem).fingerprint256 });

  let pair = readPair(paths.certPath, paths.keyPath);
  const reusable =
    pair !== undefined &&
    existsSync(paths.p12Path) &&
    readText(paths.specPath) === fingerprint &&
    isSignedBy(pair.certPem, issuer.pair.certPem) &&
    (expired ? new NodeX509Certificate(pair.certPem).validToDate.getTime() < Date.now() : isCurrent(pair.certPem));
  if (!reusable || !pair) {
    pair = await issueECnpj(issuer.pair, spec);
    writePair(paths.certPath, paths.keyPath, pair);
    writeSecret(paths.p12Path, pkcs12(pair, issuer.chain, TEST_P12_PASSWORD, spec.razaoSocial));
    writeFileSync(paths.specPath, fingerprint);
  }
  return { certPath: paths.certPath, keyPath: paths.keyPath, p12Path: paths.p12Path, certPem: pair.certPem, keyPem: pair.keyPem };
}

/**
 * Writes the CRL `issuer` publishes (DER) unless the one at `path` is still signed by it, lists exactly
 * the serials of `revokedPems` and has more than a day left. Written whole (rename), as the twin may be
 * serving it.
 */
async function ensureCrl(path: string, issuer: CertificatePair, revokedPems: string[]): Promise<void> {
  const issuerCert = new x509.X509Certificate(issuer.certPem);
  const serials = revokedPems.map((pem) => new x509.X509Certificate(pem).serialNumber).sort();
  try {
    const existing = new x509.X509Crl(readFileSync(path));
    const current = (existing.nextUpdate?.getTime() ?? 0) > Date.now() + DAY_MS;
    const same = JSON.stringify(existing.entries.map((e) => e.serialNumber).sort()) === JSON.stringify(serials);
    if (current && same && (await existing.verify({ publicKey: issuerCert }))) return;
  } catch {
    // Missing or unreadable: issued anew below.
  }
  const crl = await issueTestCrl(issuer, { revoked: revokedPems });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, crl);
  renameSync(temporary, path);
}

/** The first URL of a certificate's cRLDistributionPoints, if any. */
function distributionPointOf(certPem: string): string | undefined {
  try {
    const ext = new x509.X509Certificate(certPem).getExtension(x509.CRLDistributionPointsExtension);
    return ext?.distributionPoints[0]?.distributionPoint?.fullName?.[0]?.uniformResourceIdentifier;
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readPair(certPath: string, keyPath: string): CertificatePair | undefined {
  if (!existsSync(certPath) || !existsSync(keyPath)) return undefined;
  try {
    const pair = { certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
    // A key that does not belong to the certificate (half-written files) counts as missing.
    return new NodeX509Certificate(pair.certPem).checkPrivateKey(createPrivateKey(pair.keyPem)) ? pair : undefined;
  } catch {
    return undefined;
  }
}

function writePair(certPath: string, keyPath: string, pair: CertificatePair): void {
  writeFileSync(certPath, pair.certPem);
  writeSecret(keyPath, pair.keyPem);
}

/** Readable by the owner only, also when the file already existed with a wider mode. */
function writeSecret(path: string, data: string | Uint8Array): void {
  writeFileSync(path, data, { mode: 0o600 });
  chmodSync(path, 0o600);
}

function isCurrent(certPem: string): boolean {
  try {
    const cert = new NodeX509Certificate(certPem);
    const now = Date.now();
    return cert.validFromDate.getTime() <= now && cert.validToDate.getTime() > now + DAY_MS;
  } catch {
    return false;
  }
}

function isSignedBy(certPem: string, caCertPem: string): boolean {
  try {
    const cert = new NodeX509Certificate(certPem);
    const ca = new NodeX509Certificate(caCertPem);
    return cert.checkIssued(ca) && cert.verify(ca.publicKey);
  } catch {
    return false;
  }
}

async function importPkcs8(pem: string): Promise<webcrypto.CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  return webcrypto.subtle.importKey('pkcs8', der, algorithm, true, ['sign']);
}

async function exportPkcs8(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** 16 random bytes with the top bit cleared: a positive DER integer, unique enough to never repeat. */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

// ---------------------------------------------------------------------------------------------------
// PKCS#12 (RFC 7292), written by hand: the key in a pkcs8ShroudedKeyBag with PBES2 (PBKDF2-HMAC-SHA256,
// AES-256-CBC), the certificates in plain certBags, the whole protected by an HMAC-SHA-256 MAC. The
// same choices as `openssl pkcs12 -export` of OpenSSL 3, so browsers, OpenSSL and Node read it.

const OID = {
  data: '1.2.840.113549.1.7.1',
  pkcs8ShroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  localKeyId: '1.2.840.113549.1.9.21',
  friendlyName: '1.2.840.113549.1.9.20',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
  hmacWithSha256: '1.2.840.113549.2.9',
  aes256Cbc: '2.16.840.1.101.3.4.1.42',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;

const P12_ITERATIONS = 2048;

/** DER of a PKCS#12 file with the leaf's key and certificate, then `chain` (issuer first). */
export function pkcs12(leaf: CertificatePair, chain: string[], password: string, friendlyName: string): Uint8Array {
  const keyId = createHash('sha1').update(new NodeX509Certificate(leaf.certPem).raw).digest();
  const bagAttributes = (withName: boolean) =>
    der.set(
      der.seq(der.oid(OID.localKeyId), der.set(der.octets(keyId))),
      ...(withName ? [der.seq(der.oid(OID.friendlyName), der.set(der.bmp(friendlyName)))] : []),
    );
  const certBag = (pem: string, attributes?: Uint8Array) =>
    der.seq(
      der.oid(OID.certBag),
      der.explicit(0, der.seq(der.oid(OID.x509Certificate), der.explicit(0, der.octets(new NodeX509Certificate(pem).raw)))),
      ...(attributes ? [attributes] : []),
    );
  const certificates = der.seq(certBag(leaf.certPem, bagAttributes(true)), ...chain.map((pem) => certBag(pem)));

  const salt = randomBytes(16);
  const iv = randomBytes(16);
  const key = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, P12_ITERATIONS, 32, 'sha256');
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const pkcs8 = createPrivateKey(leaf.keyPem).export({ type: 'pkcs8', format: 'der' });
  const encrypted = Buffer.concat([cipher.update(pkcs8), cipher.final()]);
  const encryptedKeyInfo = der.seq(
    der.seq(
      der.oid(OID.pbes2),
      der.seq(
        der.seq(der.oid(OID.pbkdf2), der.seq(der.octets(salt), der.int(P12_ITERATIONS), der.seq(der.oid(OID.hmacWithSha256), der.null()))),
        der.seq(der.oid(OID.aes256Cbc), der.octets(iv)),
      ),
    ),
    der.octets(encrypted),
  );
  const keyBag = der.seq(der.seq(der.oid(OID.pkcs8ShroudedKeyBag), der.explicit(0, encryptedKeyInfo), bagAttributes(true)));

  const data = (content: Uint8Array) => der.seq(der.oid(OID.data), der.explicit(0, der.octets(content)));
  const authenticatedSafe = der.seq(data(certificates), data(keyBag));

  const macSalt = randomBytes(16);
  const macKey = pkcs12Kdf(password, macSalt, 3, P12_ITERATIONS, 32);
  const mac = createHmac('sha256', macKey).update(authenticatedSafe).digest();
  return der.seq(
    der.int(3),
    data(authenticatedSafe),
    der.seq(der.seq(der.seq(der.oid(OID.sha256), der.null()), der.octets(mac)), der.octets(macSalt), der.int(P12_ITERATIONS)),
  );
}

/** RFC 7292 appendix B.2 with SHA-256 (u = 32, v = 64); the password as BMPString with its two zero bytes. */
function pkcs12Kdf(password: string, salt: Uint8Array, id: number, iterations: number, length: number): Buffer {
  const u = 32;
  const v = 64;
  const pass = Buffer.concat([Buffer.from(password, 'utf16le').swap16(), Buffer.alloc(2)]);
  const fill = (src: Uint8Array) => {
    const out = Buffer.alloc(v * Math.ceil(src.length / v));
    for (let i = 0; i < out.length; i++) out[i] = src[i % src.length] ?? 0;
    return out;
  };
  const D = Buffer.alloc(v, id);
  const I = Buffer.concat([fill(salt), fill(pass)]);
  const out: Buffer[] = [];
  for (let produced = 0; produced < length; produced += u) {
    let A = createHash('sha256').update(D).update(I).digest();
    for (let r = 1; r < iterations; r++) A = createHash('sha256').update(A).digest();
    out.push(A);
    const B = fill(A);
    for (let j = 0; j < I.length; j += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = (I[j + k] ?? 0) + (B[k] ?? 0) + carry;
        I[j + k] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return Buffer.concat(out).subarray(0, length);
}

/** Just enough DER to write SubjectAltName values and PKCS#12. */
const der = {
  tlv(tag: number, ...contents: Uint8Array[]): Uint8Array {
    const body = Buffer.concat(contents);
    const n = body.length;
    const length =
      n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
    return Buffer.concat([Buffer.from([tag, ...length]), body]);
  },
  seq: (...items: Uint8Array[]) => der.tlv(0x30, ...items),
  set: (...items: Uint8Array[]) => der.tlv(0x31, ...items),
  explicit: (n: number, inner: Uint8Array) => der.tlv(0xa0 + n, inner),
  octets: (bytes: Uint8Array) => der.tlv(0x04, bytes),
  null: () => Buffer.from([0x05, 0x00]),
  printable: (text: string) => der.tlv(0x13, Buffer.from(text, 'latin1')),
  utf8: (text: string) => der.tlv(0x0c, Buffer.from(text, 'utf8')),
  bmp: (text: string) => der.tlv(0x1e, Buffer.from(text, 'utf16le').swap16()),
  int(value: number): Uint8Array {
    const bytes: number[] = [];
    for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    if (bytes.length === 0 || (bytes[0] ?? 0) & 0x80) bytes.unshift(0);
    return der.tlv(0x02, Buffer.from(bytes));
  },
  oid(dotted: string): Uint8Array {
    const parts = dotted.split('.').map(Number);
    const [first = 0, second = 0, ...rest] = parts;
    const bytes: number[] = [first * 40 + second];
    for (const part of rest) {
      const chunk = [part & 0x7f];
      for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
      bytes.push(...chunk);
    }
    return der.tlv(0x06, Buffer.from(bytes));
  },
};

/** For tests: DER of a value to put in an otherName (PrintableString, OCTET STRING or UTF8String). */
export const otherNameValue = {
  printable: (text: string) => der.printable(text),
  octets: (text: string) => der.octets(Buffer.from(text, 'latin1')),
  utf8: (text: string) => der.utf8(text),
};
