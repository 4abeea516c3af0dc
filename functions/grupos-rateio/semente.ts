import { logger } from '../platform/observability';
import * as bancos from './bancos';
import { bancosOficiais } from './bancos-oficiais';
import * as grupos from './grupos';

/**
 * The reference data revenue sharing needs, written by the deploy (a CDK Trigger runs this after each
 * deploy that changes it; the twin's seed does the same locally): the Brazilian banks of the
 * Central Bank's STR participants with a COMPE code (`bancos-oficiais.ts`) and the 27 SEFAZ participants. Only absent items are
 * written, so a bank the administrator edited, or one added by hand, is never overwritten, and a
 * second run changes nothing.
 */
export const handler = async () => {
  const novos = await bancos.semear(bancosOficiais(), 'implantação');
  await grupos.semearParticipantesSefaz('implantação');
  logger.info('revenue-sharing reference data seeded', { bancosNovos: novos });
  return { bancosNovos: novos };
};
