/**
 * Revocation from the CRLs the platform keeps (issue 39): a request reads, by key, what the LcrRefresh
 * job (lcr-atualizacao.ts) last fetched and checked, instead of downloading the CRL in every new
 * container. An ICP-Brasil CA's CRL holds hundreds of thousands of entries (crl.ts): downloaded from
 * the CA's server and walked, it was the first certificate check of every container, every hour.
 *
 * Rules:
 * - For each certificate of the verified chain but the root, its CRL is the one named by the first URL
 *   of its cRLDistributionPoints (revocation.ts distributionPoints). The kept CRL is used only if it
 *   was checked against this very issuer (its SHA-256 fingerprint), it covers this kind of certificate
 *   (scope), its nextUpdate has not passed, and the job applied or tried it within `maxAgeMs` (the
 *   hour of CRL_MAX_AGE_SECONDS: a job that stopped running is not trusted past it). Then the
 *   certificate is revoked exactly when the serial's item exists.
 * - Anything else (a CRL never seen, one the job has not fetched yet, a job late or failing, a read
 *   that fails): undefined, and the caller checks the chain the old way, downloading the CRLs in this
 *   container (revocation.ts). A CRL never seen is registered for the job (its URLs and the issuer's
 *   certificate, which the chain's verification vouches for).
 * - Reads are eventually consistent: a revocation is seen at most a few seconds after the job writes
 *   it, against up to an hour of a container's own cache before.
 */
import type { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { logger } from '../platform/observability';
import { isConditionalFailure } from '../platform/escritas';
import { gravarNovo, ler } from '../platform/tabela-direta';
import { serialHex } from './crl';
import { MODELO_LCR, MODELO_LCR_REVOGADO, type LcrRecord } from './modelos';
import { distributionPoints, type RevocationStatus } from './revocation';

type Situacao = Exclude<RevocationStatus, 'unavailable'>;

/** The chain's status from the kept CRLs, or undefined when any of them cannot answer (see the rules). */
export async function revogacaoCompartilhada(chain: readonly X509Certificate[], now: Date, maxAgeMs: number): Promise<Situacao | undefined> {
  try {
    const situacoes = await Promise.all(chain.slice(0, -1).map((cert, i) => situacaoDe(cert, chain[i + 1]!, i > 0, now, maxAgeMs)));
    if (situacoes.includes(undefined)) return undefined;
    return situacoes.includes('revoked') ? 'revoked' : 'good';
  } catch (error) {
    logger.warn('kept CRLs unreadable; checking the CRLs in this container', { error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

async function situacaoDe(cert: X509Certificate, emissor: X509Certificate, isCa: boolean, now: Date, maxAgeMs: number): Promise<Situacao | undefined> {
  const parsed = AsnConvert.parse(cert.raw, Certificate);
  const urls = distributionPoints(parsed);
  if (urls.length === 0) return 'good';
  const url = urls[0]!;
  const serial = serialHex(new Uint8Array(parsed.tbsCertificate.serialNumber));
  const [lcr, revogado] = await Promise.all([ler<LcrRecord>(MODELO_LCR, { url }), ler(MODELO_LCR_REVOGADO, { url, serial })]);
  if (!lcr) {
    await registrar(urls, emissor, now);
    return undefined;
  }
  return utilizavel(lcr, emissor, isCa, now, maxAgeMs) ? (revogado ? 'revoked' : 'good') : undefined;
}

/** Whether the kept CRL may answer for a certificate of this issuer (the rules above). */
export function utilizavel(lcr: LcrRecord, emissor: X509Certificate, isCa: boolean, now: Date, maxAgeMs: number): boolean {
  if (lcr.emissorDigital !== emissor.fingerprint256 || !lcr.aplicadaEm || !lcr.proximaEm || !lcr.tentadaEm) return false;
  if ((lcr.escopo === 'ca' && !isCa) || (lcr.escopo === 'user' && isCa)) return false;
  const t = now.getTime();
  return t < Date.parse(lcr.proximaEm) && t - Date.parse(lcr.tentadaEm) < maxAgeMs;
}

/** A CRL for the job to keep: created once (a second request finds it, or loses the race harmlessly). */
async function registrar(urls: string[], emissor: X509Certificate, now: Date): Promise<void> {
  try {
    await gravarNovo(MODELO_LCR, { url: urls[0]!, urls, emissorPem: emissor.toString(), emissorDigital: emissor.fingerprint256, registradaEm: now.toISOString() });
    logger.info('CRL registered for the LcrRefresh job', { url: urls[0] });
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}
