import { HttpError } from '../platform/errors';
import { logger } from '../platform/observability';
import { config } from '../platform/env';
import { verifyClientCertificate } from './certificate';
import { revogacaoCompartilhada } from './lcr-compartilhada';
import { revocationStatus } from './revocation';
import { loadTrustStore } from './trust';

/**
 * The e-CNPJ presented on the mutual-TLS domain, checked again here (chain to the ICP-Brasil roots,
 * validity, the CNPJ in subjectAltName), then against its CAs' CRLs (revocation.ts): certificate
 * logins and the integrator API both start here. Revocation is read from the CRLs the platform keeps
 * (lcr-compartilhada.ts); only when they cannot answer are the CRLs downloaded here (revocation.ts).
 * No certificate is 400 certificadoAusente; an unusable or untrusted one 401; a revoked one 401
 * certificadoRevogado; one whose revocation status cannot be known (no current CRL) 503
 * revogacaoIndisponivel, never accepted.
 */
export async function certificadoDoChamador(pem: string | undefined, now = new Date()) {
  const check = verifyClientCertificate(pem, loadTrustStore(), now);
  if (!check.ok) {
    logger.warn('certificate refused', { reason: check.key });
    throw new HttpError(check.key === 'certificadoAusente' ? 400 : 401, check.key);
  }
  const status = (await revogacaoCompartilhada(check.chain, now, config.crlMaxAgeSeconds * 1000)) ?? (await revocationStatus(check.chain, { now }));
  if (status === 'revoked') {
    logger.warn('certificate refused', { reason: 'certificadoRevogado', serialNumber: check.serialNumber });
    throw new HttpError(401, 'certificadoRevogado');
  }
  if (status === 'unavailable') {
    logger.error('certificate refused: revocation status unavailable', { serialNumber: check.serialNumber });
    throw new HttpError(503, 'revogacaoIndisponivel');
  }
  return check;
}
