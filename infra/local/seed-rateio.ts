/**
 * Revenue sharing demo data: the banks, from the maintained list of Brazilian banks (npm
 * bancos-brasileiros) rather than typed by hand. Idempotent: a bank whose code exists is left as an
 * administrator may have corrected it.
 */
import { bancos } from '../../functions/rateio/service';
import { bancosOficiais } from '../../functions/rateio/bancos-oficiais';

export async function seedRateio(): Promise<void> {
  await bancos.semear(bancosOficiais(), 'dados de demonstração');
}
