import { monthOf, servicoPrepago, todayInBahia } from '@plac/shared/domain';
import * as store from './store';
import { valorUnitarioDe } from './valores';

/**
 * The balance's share of one metered use (docs/prepago.md "Debits"), for the consumo context's
 * `medirUso`, which calls it before it counts a use for the monthly invoice. A module of its own,
 * with only the store under it, so that every function that meters (the webhook dispatcher, the
 * monitored keys, the assignments) carries none of the reservation's DAE and PDF code.
 */

/** What the metering does with a use: the balance paid it (now or before), or it is billed monthly. */
export type Pagador = 'prepago' | 'prepago-repetido' | 'mensal';

/**
 * `chave` is the metering's key: the same use asked twice is paid once, with the same outcome. A
 * client without a prepaid account, or a service the prepaid does not cover, is 'mensal' with nothing
 * written. A use the balance does not cover — too little left, past the deadline, the DAE not paid
 * yet — is not refused (a Fat-e delivery cannot be taken back): it is recorded as EXCEDENTE and
 * billed on the monthly invoice like any client's use.
 */
export async function pagarUso(u: { chave: string; clienteId: string; servico: number; agora: Date }): Promise<Pagador> {
  if (!servicoPrepago(u.servico)) return 'mensal';
  const anterior = await store.lerDebito(u.chave);
  if (anterior) return anterior.resultado === 'PREPAGO' ? 'prepago-repetido' : 'mensal';
  // The item alone (one GetItem): the debit's conditions are on the balance's shards.
  const c = await store.lerContaItem(u.clienteId);
  if (!c) return 'mensal';
  const valorMilesimos = valorUnitarioDe(c, u.servico);
  const debito = { chave: u.chave, clienteId: u.clienteId, servico: u.servico, valorMilesimos, createdAt: u.agora.toISOString() };
  if (c.situacao === 'VIGENTE' && valorMilesimos > 0) {
    const r = await store.debitar({ ...debito, resultado: 'PREPAGO' }, { ciclo: c.ciclo, hoje: todayInBahia(u.agora), mes: monthOf(u.agora), prazoConsumo: c.prazoConsumo, saldoNaConta: c.saldoMilesimos });
    if (r === 'debitado') return 'prepago';
    if (r === 'repetido') return (await store.lerDebito(u.chave))?.resultado === 'PREPAGO' ? 'prepago-repetido' : 'mensal';
  }
  if (!(await store.registrarExcedente({ ...debito, resultado: 'EXCEDENTE' }))) {
    return (await store.lerDebito(u.chave))?.resultado === 'PREPAGO' ? 'prepago-repetido' : 'mensal';
  }
  return 'mensal';
}
