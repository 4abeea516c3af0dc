import * as store from './store';

/**
 * The prepaid context's door for the evidence archive (functions/arquivo): a client's month of debits
 * a page at a time, and the month's statement (what the PREPAGO debits must add up to). Only the store
 * under it, so the archive's function carries none of the reservation's DAE and PDF code.
 */
export type Debito = store.DebitoRecord;

/** How many uses the balance paid in the month (the statement's lines added up). */
export async function debitosPagosNoMes(clienteId: string, mes: string): Promise<number> {
  return (await store.extratoDoMes(clienteId, mes)).reduce((t, l) => t + l.requisicoes, 0);
}
