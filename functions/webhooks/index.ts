import { lerEntregas, type EntregaRecord } from './log-store';

/**
 * The webhooks context's front door: the deliveries of these ids as logged (the evidence archive copies
 * the charged ones; the log's end date, log-store.ts DIAS_DO_LOG, leaves it time to). Other contexts
 * import only this module (functions/platform/dependencies.test.ts).
 */
export type Entrega = EntregaRecord;
export const entregasPorId = (ids: readonly string[]): Promise<Map<string, EntregaRecord>> => lerEntregas(ids);
