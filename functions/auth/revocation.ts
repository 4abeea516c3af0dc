/**
 * Whether an e-CNPJ (or a CA above it) has been revoked, from the CRLs its issuers publish.
 *
 * Rules:
 * - Each certificate of the verified chain but the root is looked up in the CRL named by its own
 *   cRLDistributionPoints extension (2.5.29.31, the http/https URIs, tried in order), which must be
 *   signed by the certificate's issuer in that chain (same name, the issuer's key, cRLSign when the
 *   issuer has keyUsage). A certificate without distribution points has nothing to look up. Any
 *   revoked certificate in the chain (certificateHold included) revokes the leaf.
 * - A CRL is fetched at most once per `maxAgeMs` (CRL_MAX_AGE_SECONDS, default one hour) per Lambda
 *   container, and before that once its nextUpdate has passed. A fetched CRL counts only if it parses,
 *   is signed as above, and is current (thisUpdate not in the future, nextUpdate not past).
 * - When no distribution point answers with a usable CRL (network, HTTP status, timeout, size, bad
 *   signature, expired), the CRL cached earlier stays in force until its own nextUpdate; past that,
 *   or with none cached, the status is 'unavailable' and the certificate is refused: an unknown status
 *   is never taken as good. A failed URL is not asked again for RETRY_AFTER_FAILURE_MS, so that an
 *   outage of the CA's server does not hold every login for the whole timeout.
 * - Fetching (baixar-crl.ts): http and https only (ICP-Brasil publishes over plain http; the CRL is a
 *   signed object), no credentials in the URL, one deadline for all the URLs of a CRL
 *   (CRL_FETCH_TIMEOUT_MS, default 5 s: the function's own timeout is 10 s), at most CRL_MAX_BYTES
 *   (default 32 MiB). The URLs come only from certificates whose chain to an ICP-Brasil root has
 *   already been verified, and the answer is used only as a signed CRL, so the SSRF guard for
 *   client-chosen URLs (url-guard.ts) does not apply.
 */
import type { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, CRLDistributionPoints, id_ce_cRLDistributionPoints, id_ce_keyUsage, KeyUsage, KeyUsageFlags } from '@peculiar/asn1-x509';
import { config } from '../platform/env';
import { logger } from '../platform/observability';
import { baixarCrl, type Baixar } from './baixar-crl';
import { isCrlSignedBy, parseCrl, serialHex, type Crl } from './crl';

export type RevocationStatus = 'good' | 'revoked' | 'unavailable';

export interface RevocationOptions {
  now?: Date;
  maxAgeMs?: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** The CRL download (baixar-crl.ts; tests replace it). */
  baixar?: Baixar;
}

/** Clock skew tolerated on a CRL's thisUpdate. */
const SKEW_MS = 5 * 60_000;

/**
 * Throws unless a fetched CRL may be used for `issuer`'s certificates at `now`: signed by its key (which
 * must allow cRLSign), not issued in the future (beyond SKEW_MS), not past its nextUpdate. Here and in
 * the LcrRefresh job (lcr-atualizacao.ts); `emissor` names the issuer in the error.
 */
export function conferirLcr(crl: Crl, issuer: X509Certificate, now: number, emissor = 'the certificate’s issuer'): void {
  if (!isCrlSignedBy(crl, issuer) || !maySignCrls(issuer)) throw new Error(`CRL not signed by ${emissor}`);
  if (crl.thisUpdate.getTime() > now + SKEW_MS) throw new Error('CRL issued in the future');
  if (crl.nextUpdate.getTime() <= now) throw new Error('CRL past its nextUpdate');
}
const RETRY_AFTER_FAILURE_MS = 30_000;

interface Cached {
  crl: Crl;
  /** fingerprint256 of the CA whose key the CRL was checked against. */
  issuer: string;
  fetchedAt: number;
}

const cache = new Map<string, Cached>();
const failedAt = new Map<string, number>();
const inFlight = new Map<string, Promise<Cached | null>>();

/** `chain`: the leaf first, then each issuer up to the root (verifyClientCertificate's `chain`). */
export async function revocationStatus(chain: readonly X509Certificate[], options: RevocationOptions = {}): Promise<RevocationStatus> {
  const settings = {
    now: (options.now ?? new Date()).getTime(),
    maxAgeMs: options.maxAgeMs ?? config.crlMaxAgeSeconds * 1000,
    timeoutMs: options.timeoutMs ?? config.crlFetchTimeoutMs,
    maxBytes: options.maxBytes ?? config.crlMaxBytes,
    baixar: options.baixar ?? baixarCrl,
  };
  const statuses = await Promise.all(chain.slice(0, -1).map((cert, i) => statusOf(cert, chain[i + 1]!, i > 0, settings)));
  if (statuses.includes('revoked')) return 'revoked';
  return statuses.includes('unavailable') ? 'unavailable' : 'good';
}

type Settings = Required<Omit<RevocationOptions, 'now'>> & { now: number };

async function statusOf(cert: X509Certificate, issuer: X509Certificate, isCa: boolean, settings: Settings): Promise<RevocationStatus> {
  const parsed = AsnConvert.parse(cert.raw, Certificate);
  const urls = distributionPoints(parsed);
  if (urls.length === 0) return 'good';
  const crl = await currentCrl(urls, issuer, settings);
  if (!crl || (crl.scope === 'ca' && !isCa) || (crl.scope === 'user' && isCa)) {
    logger.warn('certificate revocation status unavailable', { urls, subject: cert.subject });
    return 'unavailable';
  }
  return crl.revoked.has(serialHex(new Uint8Array(parsed.tbsCertificate.serialNumber))) ? 'revoked' : 'good';
}

/** The http(s) URIs of the full names of the certificate's CRL distribution points, in order. */
export function distributionPoints(cert: Certificate): string[] {
  const ext = cert.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_cRLDistributionPoints);
  if (!ext) return [];
  const urls: string[] = [];
  for (const point of AsnConvert.parse(ext.extnValue, CRLDistributionPoints)) {
    for (const name of point.distributionPoint?.fullName ?? []) {
      const uri = name.uniformResourceIdentifier;
      if (uri && isFetchable(uri)) urls.push(uri);
    }
  }
  return urls;
}

function isFetchable(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

async function currentCrl(urls: string[], issuer: X509Certificate, settings: Settings): Promise<Crl | null> {
  const known = () => urls.flatMap((url) => cache.get(url) ?? []).filter((c) => c.issuer === issuer.fingerprint256);
  const fresh = known().find((c) => settings.now - c.fetchedAt < settings.maxAgeMs && settings.now < c.crl.nextUpdate.getTime());
  if (fresh) return fresh.crl;

  const deadline = Date.now() + settings.timeoutMs;
  for (const url of urls) {
    if (settings.now - (failedAt.get(url) ?? -Infinity) < RETRY_AFTER_FAILURE_MS) continue;
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    let pending = inFlight.get(url);
    if (!pending) {
      pending = fetchCrl(url, issuer, remaining, settings).finally(() => inFlight.delete(url));
      inFlight.set(url, pending);
    }
    const fetched = await pending;
    if (fetched && fetched.issuer === issuer.fingerprint256) return fetched.crl;
  }
  // None answered: the last good CRL stays in force until its nextUpdate.
  const stillValid = known().find((c) => settings.now < c.crl.nextUpdate.getTime());
  if (stillValid) logger.warn('CRL not refreshed; using the cached one until its nextUpdate', { urls, nextUpdate: stillValid.crl.nextUpdate.toISOString() });
  return stillValid?.crl ?? null;
}

async function fetchCrl(url: string, issuer: X509Certificate, timeoutMs: number, settings: Settings): Promise<Cached | null> {
  try {
    const crl = parseCrl(await settings.baixar(url, { timeoutMs, maxBytes: settings.maxBytes }));
    conferirLcr(crl, issuer, settings.now);
    const entry = { crl, issuer: issuer.fingerprint256, fetchedAt: settings.now };
    cache.set(url, entry);
    failedAt.delete(url);
    return entry;
  } catch (error) {
    failedAt.set(url, settings.now);
    logger.warn('CRL fetch failed', { url, error: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/** keyUsage, when present, must allow cRLSign. */
function maySignCrls(issuer: X509Certificate): boolean {
  const ext = AsnConvert.parse(issuer.raw, Certificate).tbsCertificate.extensions?.find((e) => e.extnID === id_ce_keyUsage);
  return !ext || (AsnConvert.parse(ext.extnValue, KeyUsage).toNumber() & KeyUsageFlags.cRLSign) !== 0;
}

/** For tests: forget every CRL and failure. */
export function forgetCrls(): void {
  cache.clear();
  failedAt.clear();
  inFlight.clear();
}
