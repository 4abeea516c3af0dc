import { isConditionalFailure } from '../platform/table';

/**
 * What the Fat-e context's stores share. Every document write is a conditional create, so writing the
 * same document twice changes nothing: its answer says whether this call wrote it. And the calendar of
 * the counters (the last day of a month).
 */

/** `criado` when this call wrote it, `existente` when it was already there (nothing changed). */
export type Gravacao = 'criado' | 'existente';

export async function createOnce(write: () => Promise<unknown>): Promise<Gravacao> {
  try {
    await write();
    return 'criado';
  } catch (error) {
    if (isConditionalFailure(error)) return 'existente';
    throw error;
  }
}

/** The last day of a month 'YYYY-MM'. */
export function ultimoDia(mes: string): string {
  const [a, m] = mes.split('-').map(Number) as [number, number];
  return `${mes}-${String(new Date(Date.UTC(a, m, 0)).getUTCDate()).padStart(2, '0')}`;
}
