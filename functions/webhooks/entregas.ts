import { lerEntregas, type EntregaRecord } from './log-store';

/**
 * The webhook context's door for the evidence archive (functions/arquivo): the deliveries of these
 * ids, as logged (the log's end date, log-store.ts DIAS_DO_LOG, leaves the archive time to copy them).
 */
export type Entrega = EntregaRecord;
export const entregasPorId = (ids: readonly string[]): Promise<Map<string, EntregaRecord>> => lerEntregas(ids);
