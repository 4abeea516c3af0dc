/**
 * Checks the client certificate of a certificate login (an ICP-Brasil e-CNPJ) and reads the company.
 *
 * API Gateway's mutual-TLS domain has already checked that the client holds the private key and that
 * some chain reaches its truststore, but it passes the Lambda only the leaf PEM, and its truststore is
 * not the only way a request can reach us (the local twin, misconfiguration). So everything that
 * decides who logs in is checked again here, with no network access (revocation, which needs the
 * CAs' CRLs, is checked after this, on the chain found here: revocation.ts):
 * - the leaf: parsable, not a CA, valid at `now`, an accepted signature algorithm, no unknown critical
 *   extension, keyUsage (if present) with digitalSignature, extendedKeyUsage (if present) with
 *   clientAuth, RSA keys of at least 2048 bits, and a valid CNPJ in subjectAltName otherName 2.16.76.1.3.3;
 * - the chain: from the leaf through the known intermediates (at most MAX_CA_DEPTH CA certificates) to
 *   one of the trusted roots, each signature checked with the issuer's key, each CA valid at `now`,
 *   with basicConstraints cA, keyCertSign and any pathLenConstraint respected.
 *
 * Results carry message keys of the certificate login contract; the reason is logged by the caller
 * only as the key (the PEM is not secret, but there is nothing to gain from logging it).
 */
import { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  KeyUsage,
  KeyUsageFlags,
  SubjectAlternativeName,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectAltName,
  id_kp_clientAuth,
  type Extension,
} from '@peculiar/asn1-x509';
import { isValidCnpj, normalizeCnpj } from '@plac/shared/domain';
import type { TrustStore } from './trust';

export type CertificateCheck =
  | {
      ok: true;
      /** 14 characters, upper-case (alphanumeric CNPJs included). */
      cnpj: string;
      /** The subject CN without the ":<CNPJ>" suffix of the e-CNPJ profile. */
      razaoSocial: string;
      /** The person responsible for the company in the certificate, when present and readable. */
      responsavel?: { nome?: string; cpf?: string; /** ISO date (yyyy-mm-dd). */ nascimento?: string };
      /** Upper-case hex, as OpenSSL prints it. */
      serialNumber: string;
      /** ISO instant. */
      notAfter: string;
      /** The leaf, then each issuer up to the trusted root: what the revocation check walks (revocation.ts). */
      chain: X509Certificate[];
    }
  | { ok: false; key: CertificateErrorKey };

export type CertificateErrorKey = 'certificadoAusente' | 'certificadoInvalido' | 'raizNaoIcpBrasil';

/** ICP-Brasil otherName OIDs (DOC-ICP-04, e-CNPJ). */
export const ICP_OID = {
  /** Name of the person responsible for the company. */
  responsavelNome: '2.16.76.1.3.2',
  /** Company CNPJ. */
  cnpj: '2.16.76.1.3.3',
  /** Responsible person's data: birth date ddmmaaaa, CPF, NIS, RG, RG issuer and UF. */
  responsavelDados: '2.16.76.1.3.4',
  /** INSS CEI of the company. */
  cei: '2.16.76.1.3.7',
} as const;

/** CA certificates allowed between the leaf and the root, root included. */
export const MAX_CA_DEPTH = 5;

/** RSA PKCS#1 v1.5 and PSS with SHA-2, ECDSA with SHA-2. SHA-1 and MD5 are refused everywhere. */
const SIGNATURE_ALGORITHMS = new Set([
  '1.2.840.113549.1.1.10', // RSASSA-PSS
  '1.2.840.113549.1.1.11', // sha256WithRSAEncryption
  '1.2.840.113549.1.1.12', // sha384WithRSAEncryption
  '1.2.840.113549.1.1.13', // sha512WithRSAEncryption
  '1.2.840.10045.4.3.2', // ecdsa-with-SHA256
  '1.2.840.10045.4.3.3', // ecdsa-with-SHA384
  '1.2.840.10045.4.3.4', // ecdsa-with-SHA512
]);

/** Extensions we understand; a critical extension outside this list makes a certificate unusable (RFC 5280 4.2). */
const KNOWN_EXTENSIONS = new Set([
  id_ce_basicConstraints,
  id_ce_keyUsage,
  id_ce_extKeyUsage,
  id_ce_subjectAltName,
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.32', // certificatePolicies (not enforced: any ICP-Brasil policy is accepted)
  '2.5.29.31', // cRLDistributionPoints
  '1.3.6.1.5.5.7.1.1', // authorityInfoAccess
]);

const MIN_RSA_BITS = 2048;
const CN = '2.5.4.3';

export function verifyClientCertificate(leafPem: string | undefined, trust: TrustStore, now = new Date()): CertificateCheck {
  if (leafPem == null || leafPem.trim() === '') return { ok: false, key: 'certificadoAusente' };

  let leaf: Parsed;
  try {
    leaf = parse(new X509Certificate(leafPem));
  } catch {
    return { ok: false, key: 'certificadoInvalido' };
  }

  if (!isUsableLeaf(leaf, now)) return { ok: false, key: 'certificadoInvalido' };
  const names = readOtherNames(leaf);
  if (!names) return { ok: false, key: 'certificadoInvalido' };
  const cnpj = readCnpj(names.get(ICP_OID.cnpj));
  if (!cnpj) return { ok: false, key: 'certificadoInvalido' };

  const chain = chainToRoot(leaf, trust, now);
  if (chain === 'badSignature') return { ok: false, key: 'certificadoInvalido' };
  if (chain === 'untrusted') return { ok: false, key: 'raizNaoIcpBrasil' };

  const responsavel = readResponsavel(names);
  return {
    ok: true,
    cnpj,
    razaoSocial: razaoSocial(commonName(leaf), cnpj),
    ...(responsavel ? { responsavel } : {}),
    serialNumber: leaf.node.serialNumber.toUpperCase(),
    notAfter: leaf.node.validToDate.toISOString(),
    chain,
  };
}

// ---------------------------------------------------------------------------------------------------
// Parsing

interface Parsed {
  node: X509Certificate;
  asn: Certificate;
  extensions: Map<string, Extension>;
}

/** Throws on anything that is not a well-formed X.509 certificate (duplicate extensions included). */
function parse(node: X509Certificate): Parsed {
  const asn = AsnConvert.parse(node.raw, Certificate);
  const extensions = new Map<string, Extension>();
  for (const ext of asn.tbsCertificate.extensions ?? []) {
    if (extensions.has(ext.extnID)) throw new Error(`duplicate extension ${ext.extnID}`);
    extensions.set(ext.extnID, ext);
  }
  return { node, asn, extensions };
}

/** Store certificates are parsed once per X509Certificate object (the store is cached per process). */
const parsedStore = new WeakMap<X509Certificate, Parsed | null>();

function parseStored(cert: X509Certificate): Parsed | undefined {
  let parsed = parsedStore.get(cert);
  if (parsed === undefined) {
    try {
      parsed = parse(cert);
    } catch {
      parsed = null;
    }
    parsedStore.set(cert, parsed);
  }
  return parsed ?? undefined;
}

function extensionValue<T>(cert: Parsed, oid: string, type: new () => T): T | undefined {
  const ext = cert.extensions.get(oid);
  return ext ? AsnConvert.parse(ext.extnValue, type) : undefined;
}

function isCa(cert: Parsed): boolean {
  return extensionValue(cert, id_ce_basicConstraints, BasicConstraints)?.cA === true;
}

function keyUsage(cert: Parsed): number | undefined {
  return extensionValue(cert, id_ce_keyUsage, KeyUsage)?.toNumber();
}

function isValidAt(cert: Parsed, now: Date): boolean {
  const t = now.getTime();
  return cert.node.validFromDate.getTime() <= t && t <= cert.node.validToDate.getTime();
}

/** Same algorithm inside and outside the signed part, and one we accept. */
function hasAcceptedSignatureAlgorithm(cert: Parsed): boolean {
  const outer = cert.asn.signatureAlgorithm.algorithm;
  return outer === cert.asn.tbsCertificate.signature.algorithm && SIGNATURE_ALGORITHMS.has(outer);
}

function hasUnknownCriticalExtension(cert: Parsed): boolean {
  for (const ext of cert.extensions.values()) if (ext.critical && !KNOWN_EXTENSIONS.has(ext.extnID)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Leaf rules

function isUsableLeaf(leaf: Parsed, now: Date): boolean {
  try {
    if (leaf.node.ca || isCa(leaf)) return false;
    if (!isValidAt(leaf, now)) return false;
    if (!hasAcceptedSignatureAlgorithm(leaf) || hasUnknownCriticalExtension(leaf)) return false;
    const usage = keyUsage(leaf);
    if (usage !== undefined && (usage & KeyUsageFlags.digitalSignature) === 0) return false;
    const eku = extensionValue(leaf, id_ce_extKeyUsage, ExtendedKeyUsage);
    if (eku && !eku.includes(id_kp_clientAuth)) return false;
    const key = leaf.node.publicKey;
    if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') {
      if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return false;
    }
    return true;
  } catch {
    return false; // an extension that does not decode
  }
}

// ---------------------------------------------------------------------------------------------------
// Chain

/** The chain from the leaf to a trusted root, leaf first; or why there is none. */
type ChainResult = X509Certificate[] | 'untrusted' | 'badSignature';

/**
 * Depth-first search over the issuers the store offers (a name can have several certificates, e.g.
 * a renewed CA). 'badSignature' only when some store certificate is named as the leaf's issuer but
 * none of them signed it (a forged or tampered leaf); any other failure is 'untrusted'.
 */
function chainToRoot(leaf: Parsed, trust: TrustStore, now: Date): ChainResult {
  const roots = new Set(trust.roots);
  const candidates = [...trust.roots, ...trust.intermediates];

  /** The issuers of `cert` up to a root, or null. */
  const walk = (cert: Parsed, below: number, visited: Set<X509Certificate>): X509Certificate[] | null => {
    for (const issuer of candidates) {
      if (visited.has(issuer) || !safe(() => cert.node.checkIssued(issuer))) continue;
      if (!safe(() => cert.node.verify(issuer.publicKey))) continue;
      const parsed = parseStored(issuer);
      if (!parsed || !isUsableCa(parsed, below, now, roots.has(issuer))) continue;
      if (roots.has(issuer)) return [issuer];
      // `below + 2`: the leaf plus the CAs so far plus this one must leave room for a root.
      if (below + 2 > MAX_CA_DEPTH) continue;
      const above = walk(parsed, below + 1, new Set([...visited, issuer]));
      if (above) return [issuer, ...above];
    }
    return null;
  };

  const issuers = walk(leaf, 0, new Set());
  if (issuers) return [leaf.node, ...issuers];
  const named = candidates.filter((c) => safe(() => leaf.node.checkIssued(c)));
  return named.length > 0 && !named.some((c) => safe(() => leaf.node.verify(c.publicKey))) ? 'badSignature' : 'untrusted';
}

/**
 * A CA in the path: valid now, cA, keyCertSign (required for intermediates; for a root only if it has
 * keyUsage at all), an accepted algorithm (not for roots: their self-signature is not what we rely
 * on), no unknown critical extension, and a pathLenConstraint that allows `below` CAs under it.
 */
function isUsableCa(ca: Parsed, below: number, now: Date, isRoot: boolean): boolean {
  try {
    if (!isValidAt(ca, now) || hasUnknownCriticalExtension(ca)) return false;
    const constraints = extensionValue(ca, id_ce_basicConstraints, BasicConstraints);
    if (!constraints?.cA) return false;
    if (constraints.pathLenConstraint !== undefined && below > constraints.pathLenConstraint) return false;
    const usage = keyUsage(ca);
    if (usage === undefined ? !isRoot : (usage & KeyUsageFlags.keyCertSign) === 0) return false;
    return isRoot || hasAcceptedSignatureAlgorithm(ca);
  } catch {
    return false;
  }
}

function safe(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// ICP-Brasil subjectAltName fields

/**
 * The otherName values of the SAN decoded as text, by type-id (the first value of each; a second,
 * different CNPJ makes the certificate ambiguous and is rejected). Undefined when the SAN is malformed.
 */
function readOtherNames(cert: Parsed): Map<string, string> | undefined {
  const values = new Map<string, string>();
  let san: SubjectAlternativeName | undefined;
  try {
    san = extensionValue(cert, id_ce_subjectAltName, SubjectAlternativeName);
  } catch {
    return undefined;
  }
  for (const name of san ?? []) {
    if (!name.otherName) continue;
    const text = decodeText(new Uint8Array(name.otherName.value));
    if (text === undefined) continue;
    const previous = values.get(name.otherName.typeId);
    if (previous === undefined) values.set(name.otherName.typeId, text);
    else if (name.otherName.typeId === ICP_OID.cnpj && normalizeCnpj(previous) !== normalizeCnpj(text)) return undefined;
  }
  return values;
}

/**
 * A DER PrintableString (current profile), OCTET STRING (older certificates) or UTF8String as text;
 * undefined for any other type or a length that does not match.
 */
function decodeText(der: Uint8Array): string | undefined {
  const tag = der[0];
  let length = der[1];
  if (tag === undefined || length === undefined) return undefined;
  let offset = 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes < 1 || bytes > 3) return undefined;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + (der[offset + i] ?? 0);
    offset += bytes;
  }
  if (offset + length !== der.length) return undefined;
  const content = Buffer.from(der.subarray(offset));
  switch (tag) {
    case 0x13: // PrintableString
    case 0x04: // OCTET STRING: ASCII (Latin-1 at most) in the older ICP-Brasil profiles
      return content.toString('latin1');
    case 0x0c: // UTF8String
      return content.toString('utf8');
    default:
      return undefined;
  }
}

function readCnpj(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cnpj = normalizeCnpj(value.replace(/\0/g, ''));
  return isValidCnpj(cnpj) ? cnpj : undefined;
}

/** Lenient: whatever is readable is returned, fields of zeros (the profile's "not informed") are left out. */
function readResponsavel(names: Map<string, string>): { nome?: string; cpf?: string; nascimento?: string } | undefined {
  const result: { nome?: string; cpf?: string; nascimento?: string } = {};
  const nome = names.get(ICP_OID.responsavelNome)?.replace(/\0/g, '').trim();
  if (nome) result.nome = nome;
  const dados = names.get(ICP_OID.responsavelDados);
  if (dados) {
    const nascimento = isoDate(dados.slice(0, 8));
    if (nascimento) result.nascimento = nascimento;
    const cpf = dados.slice(8, 19);
    if (/^\d{11}$/.test(cpf) && !/^0+$/.test(cpf)) result.cpf = cpf;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** ddmmaaaa → aaaa-mm-dd when it is a real calendar date. */
function isoDate(ddmmaaaa: string): string | undefined {
  const m = /^(\d{2})(\d{2})(\d{4})$/.exec(ddmmaaaa);
  if (!m) return undefined;
  const [, dd, mm, yyyy] = m as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(dd) || date.getUTCMonth() !== Number(mm) - 1) return undefined;
  if (Number(yyyy) < 1900) return undefined;
  return `${yyyy}-${mm}-${dd}`;
}

function commonName(cert: Parsed): string {
  let cn = '';
  for (const rdn of cert.asn.tbsCertificate.subject) for (const atv of rdn) if (atv.type === CN) cn = atv.value.toString();
  return cn.trim();
}

/** "EMPRESA EXEMPLO LTDA:12345678000195" → "EMPRESA EXEMPLO LTDA" (only a trailing CNPJ is removed). */
function razaoSocial(cn: string, cnpj: string): string {
  const colon = cn.lastIndexOf(':');
  if (colon < 0) return cn;
  const suffix = normalizeCnpj(cn.slice(colon + 1));
  return suffix === cnpj || /^[0-9A-Z]{14}$/.test(suffix) ? cn.slice(0, colon).trim() : cn;
}
