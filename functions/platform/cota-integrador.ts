import { HttpError } from './errors';
import { consume, isQuotaExceeded, type Quota } from './rate-limit';

/**
 * The per-client quota of the integrator API (docs/architecture.md, "Abuse limits"): the stage takes
 * 1,000 requests/s with bursts of 2,000 for everyone, and each client at most
 * INTEGRADOR_COTA_POR_SEGUNDO requests/s on average over a fixed 10-second window, so one client cannot
 * starve the others. Past it: 429 'cotaExcedida', and the request does nothing else (nothing charged).
 */
export const INTEGRADOR_COTA_POR_SEGUNDO = Number(process.env.INTEGRADOR_COTA_POR_SEGUNDO ?? 250);
export const INTEGRADOR_COTA_JANELA_SEGUNDOS = 10;
const COTA_SHARDS = 4;

export function cotaDoCliente(clienteId: string): Quota {
  return {
    name: 'integrador:cliente',
    value: clienteId,
    limit: INTEGRADOR_COTA_POR_SEGUNDO * INTEGRADOR_COTA_JANELA_SEGUNDOS,
    windowSeconds: INTEGRADOR_COTA_JANELA_SEGUNDOS,
    // 250/s of one client on 4 counter partitions: about 63 writes a second each (issue 36).
    shards: COTA_SHARDS,
  };
}

/** Counts one integrator request of the client; 429 'cotaExcedida' past its quota. */
export async function exigirCota(clienteId: string, now = Date.now()): Promise<void> {
  try {
    await consume([cotaDoCliente(clienteId)], now);
  } catch (error) {
    if (isQuotaExceeded(error)) throw new HttpError(429, 'cotaExcedida');
    throw error;
  }
}

/**
 * An integrator's request with a session on the mutual-TLS domain (Registro de Cessão, the monitored
 * keys): counted against its client's quota before the route does any other work (issue 36: one client
 * cannot take the others' capacity). A request without a client certificate (the portal's domain) or
 * without a client (the authority's staff) is not an integrator's.
 */
export async function exigirCotaDoIntegrador(r: { principal: { clienteId?: string | undefined } | null; clientCertPem: string | undefined }): Promise<void> {
  if (r.clientCertPem && r.principal?.clienteId) await exigirCota(r.principal.clienteId);
}
