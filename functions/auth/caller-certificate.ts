import { HttpError } from '../platform/errors';
import { logger } from '../platform/observability';
import { verifyClientCertificate } from './certificate';
import { loadTrustStore } from './trust';

/**
 * The e-CNPJ presented on the mutual-TLS domain, checked again here (chain to the ICP-Brasil roots,
 * validity, the CNPJ in subjectAltName): certificate logins and the integrator API both start here.
 * No certificate is 400 certificadoAusente; an unusable or untrusted one 401.
 */
export function certificadoDoChamador(pem: string | undefined, now = new Date()) {
  const check = verifyClientCertificate(pem, loadTrustStore(), now);
  if (!check.ok) {
    logger.warn('certificate refused', { reason: check.key });
    throw new HttpError(check.key === 'certificadoAusente' ? 400 : 401, check.key);
  }
  return check;
}
