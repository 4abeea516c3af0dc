import { consultarParticao } from '../platform/tabela-direta';
import { MODELO_CESSAO, type CessaoRecord } from './modelos';

/**
 * A Fat-e's assignments, read without the table layer (platform/tabela-direta.ts, issue 39): every
 * look-up of a Fat-e answers them, so the look-up's cold start does not load ElectroDB. The items
 * store.ts's `cessao` entity writes (the same model, modelos.ts).
 */

/** All of a Fat-e's assignments, by nDup (one Query of its partition). Bounded: one item per instalment, at most 120 (the NF-e's dup limit). */
export async function cessoesDaFate(chave: string): Promise<CessaoRecord[]> {
  return consultarParticao<CessaoRecord>(MODELO_CESSAO, 'byFate', { chave });
}
