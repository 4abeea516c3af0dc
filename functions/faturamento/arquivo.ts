import * as store from './store';
import { faturaIdDe } from './regras';

/**
 * The billing context's door for the evidence archive (functions/arquivo): a client's invoice of a
 * month as issued, and where its evidence was archived. Only the store under it, so the archive's
 * function carries none of the DAE's or the bank return's code.
 */
export type FaturaArquivada = store.FaturaRecord;

export const faturaDoMes = (clienteId: string, mes: string): Promise<store.FaturaRecord | null> => store.lerFatura(faturaIdDe(clienteId, mes));

/** Points the client's invoice of the month (when there is one) at its archived evidence. */
export async function registrarArquivo(clienteId: string, mes: string, arquivo: NonNullable<store.FaturaRecord['arquivo']>): Promise<boolean> {
  const faturaId = faturaIdDe(clienteId, mes);
  if (!(await store.lerFatura(faturaId))) return false;
  await store.registrarArquivo(faturaId, arquivo);
  return true;
}
