/**
 * Reads a certificate revocation list (RFC 5280 §5, DER or PEM) and checks its signature.
 *
 * The small parts (algorithm, times, extensions) are decoded with @peculiar/asn1-x509, as the
 * certificates are (certificate.ts). The list of revoked serial numbers is walked with the few DER
 * rules below instead: an ICP-Brasil CA's CRL holds hundreds of thousands of entries, and decoding
 * them all into objects takes seconds and more than a gigabyte (10 MB, 200,000 entries: 10 s, 1.6 GB),
 * where the walk keeps one string per serial.
 *
 * A CRL is usable only as a complete, direct, base CRL: a delta CRL, an indirect CRL (entries about
 * another CA's certificates), one limited to some revocation reasons or to attribute certificates,
 * or one with any other critical extension we do not know, is refused (parseCrl throws).
 */
import { verify, type X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  Extensions,
  IssuingDistributionPoint,
  Time,
  id_ce_authorityKeyIdentifier,
  id_ce_issuingDistributionPoint,
  type Extension,
} from '@peculiar/asn1-x509';

export interface Crl {
  /** DER of the issuer's Name, compared byte for byte with the issuing CA's subject. */
  issuer: Uint8Array;
  thisUpdate: Date;
  /** RFC 5280 §5.1.2.5: conforming CAs always set it; a CRL without it is refused. */
  nextUpdate: Date;
  /** Serial numbers of the revoked certificates, upper-case hex without leading zero bytes. */
  revoked: Set<string>;
  /** Which certificates the list covers (issuingDistributionPoint); 'all' without the extension. */
  scope: 'all' | 'ca' | 'user';
  /** The signed bytes (tbsCertList), the algorithm OID and the signature value. */
  tbs: Uint8Array;
  signatureAlgorithm: string;
  signature: Uint8Array;
}

const OID_CRL_NUMBER = '2.5.29.20';
/** CRL extensions we understand; any other one marked critical makes the CRL unusable. */
const KNOWN_CRL_EXTENSIONS = new Set([OID_CRL_NUMBER, id_ce_authorityKeyIdentifier, id_ce_issuingDistributionPoint]);

/** The hash of each accepted signature algorithm: RSA PKCS#1 v1.5 and ECDSA with SHA-2 (as certificate.ts, less PSS). */
const SIGNATURE_HASHES: Record<string, string> = {
  '1.2.840.113549.1.1.11': 'sha256', // sha256WithRSAEncryption
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256', // ecdsa-with-SHA256
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

const TAG = { integer: 0x02, bitString: 0x03, sequence: 0x30, utcTime: 0x17, generalizedTime: 0x18, extensions: 0xa0 } as const;

/** Throws on anything that is not a well-formed, usable CRL (see the module comment). */
export function parseCrl(input: Uint8Array): Crl {
  const der = fromPem(input);
  const outer = readTlv(der, 0);
  if (outer.tag !== TAG.sequence || outer.end !== der.length) throw new Error('not a DER CRL');
  const [tbsTlv, algorithmTlv, signatureTlv, ...extra] = children(der, outer);
  if (!tbsTlv || !algorithmTlv || signatureTlv?.tag !== TAG.bitString || extra.length > 0) throw new Error('not a CRL');

  const fields = children(der, tbsTlv);
  let i = 0;
  if (fields[i]?.tag === TAG.integer) {
    if (!bytesOf(der, fields[i]!).equals(Buffer.from([1]))) throw new Error('CRL version is not v2');
    i++;
  }
  const innerAlgorithm = fields[i++];
  const issuer = fields[i++];
  const thisUpdate = fields[i++];
  if (!innerAlgorithm || issuer?.tag !== TAG.sequence || !isTime(thisUpdate)) throw new Error('malformed tbsCertList');
  if (!bytesOf(der, innerAlgorithm).equals(bytesOf(der, algorithmTlv))) throw new Error('signature algorithms differ');
  const nextUpdate = isTime(fields[i]) ? fields[i++] : undefined;
  if (!nextUpdate) throw new Error('CRL without nextUpdate');
  const revokedList = fields[i]?.tag === TAG.sequence ? fields[i++] : undefined;
  const extensionsTlv = fields[i]?.tag === TAG.extensions ? fields[i++] : undefined;
  if (i !== fields.length) throw new Error('malformed tbsCertList');

  const revoked = new Set<string>();
  if (revokedList) {
    for (const entry of children(der, revokedList)) {
      const serial = readTlv(der, entry.contentStart, entry.end);
      if (entry.tag !== TAG.sequence || serial.tag !== TAG.integer) throw new Error('malformed revoked entry');
      revoked.add(serialHex(der.subarray(serial.contentStart, serial.end)));
    }
  }

  const signatureBits = bytesOf(der, signatureTlv);
  if (signatureBits[0] !== 0) throw new Error('signature with unused bits');
  return {
    issuer: bytesOf(der, issuer, true),
    thisUpdate: timeOf(der, thisUpdate),
    nextUpdate: timeOf(der, nextUpdate),
    revoked,
    scope: extensionsTlv ? scopeOf(AsnConvert.parse(bytesOf(der, extensionsTlv), Extensions)) : 'all',
    tbs: bytesOf(der, tbsTlv, true),
    signatureAlgorithm: AsnConvert.parse(bytesOf(der, algorithmTlv, true), AlgorithmIdentifier).algorithm,
    signature: signatureBits.subarray(1),
  };
}

/** True when `issuer`'s key signed the CRL with an accepted algorithm and the CRL names it as issuer. */
export function isCrlSignedBy(crl: Crl, issuer: X509Certificate): boolean {
  const hash = SIGNATURE_HASHES[crl.signatureAlgorithm];
  if (!hash || !Buffer.from(crl.issuer).equals(subjectOf(issuer))) return false;
  try {
    return verify(hash, crl.tbs, issuer.publicKey, crl.signature);
  } catch {
    return false;
  }
}

/** The same hex form as Crl.revoked, for a certificate's serial number. */
export function serialHex(bytes: Uint8Array): string {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return Buffer.from(bytes.subarray(start)).toString('hex').toUpperCase();
}

/** DER of a certificate's subject Name (tbsCertificate: [0] version?, serial, signature, issuer, validity, subject). */
export function subjectOf(cert: X509Certificate): Buffer {
  const der = new Uint8Array(cert.raw);
  const tbs = children(der, readTlv(der, 0))[0];
  if (!tbs) throw new Error('malformed certificate');
  const fields = children(der, tbs);
  const subject = fields[fields[0]?.tag === 0xa0 ? 5 : 4];
  if (!subject) throw new Error('malformed certificate');
  return bytesOf(der, subject, true);
}

function scopeOf(extensions: Extension[]): Crl['scope'] {
  let scope: Crl['scope'] = 'all';
  for (const ext of extensions) {
    if (ext.extnID === id_ce_issuingDistributionPoint) {
      const idp = AsnConvert.parse(ext.extnValue, IssuingDistributionPoint);
      if (idp.indirectCRL || idp.onlyContainsAttributeCerts || idp.onlySomeReasons) throw new Error('partial or indirect CRL');
      if (idp.onlyContainsCACerts) scope = 'ca';
      if (idp.onlyContainsUserCerts) scope = 'user';
    } else if (ext.critical && !KNOWN_CRL_EXTENSIONS.has(ext.extnID)) {
      // deltaCRLIndicator (2.5.29.27) among them: a delta CRL alone says nothing of older revocations.
      throw new Error(`unknown critical CRL extension ${ext.extnID}`);
    }
  }
  return scope;
}

// ---------------------------------------------------------------------------------------------------
// Just enough DER: definite lengths up to 4 bytes, low tag numbers.

interface Tlv {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

function readTlv(der: Uint8Array, offset: number, limit = der.length): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  if (tag === undefined || length === undefined || (tag & 0x1f) === 0x1f) throw new Error('malformed DER');
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count < 1 || count > 4) throw new Error('unsupported DER length');
    length = 0;
    for (let k = 0; k < count; k++) length = length * 256 + (der[contentStart + k] ?? NaN);
    contentStart += count;
  }
  const end = contentStart + length;
  if (!Number.isFinite(end) || end > limit) throw new Error('DER element past its container');
  return { tag, start: offset, contentStart, end };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = parent.contentStart; offset < parent.end; ) {
    const child = readTlv(der, offset, parent.end);
    out.push(child);
    offset = child.end;
  }
  return out;
}

/** The content of an element, or the whole element (tag and length included) when `whole`. */
function bytesOf(der: Uint8Array, tlv: Tlv, whole = false): Buffer {
  return Buffer.from(der.buffer, der.byteOffset + (whole ? tlv.start : tlv.contentStart), tlv.end - (whole ? tlv.start : tlv.contentStart));
}

function isTime(tlv: Tlv | undefined): tlv is Tlv {
  return tlv?.tag === TAG.utcTime || tlv?.tag === TAG.generalizedTime;
}

function timeOf(der: Uint8Array, tlv: Tlv): Date {
  return AsnConvert.parse(bytesOf(der, tlv, true), Time).getTime();
}

function fromPem(input: Uint8Array): Uint8Array {
  const head = Buffer.from(input.subarray(0, 32)).toString('latin1');
  if (!head.startsWith('-----BEGIN')) return input;
  const text = Buffer.from(input).toString('latin1');
  const body = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/.exec(text)?.[1];
  if (!body) throw new Error('PEM without an X509 CRL');
  return new Uint8Array(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
}
