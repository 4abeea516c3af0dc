import { randomInt } from 'node:crypto';
import { monthOf, SALDO_SHARDS, servicoPrepago, todayInBahia } from '@plac/shared/domain';
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
  // One shard of the balance at random (its own partition: issue 36): it carries the cycle, the
  // deadline and the unit values, so a busy bookkeeper's debits read no account item.
  const lido = await store.lerShard(u.clienteId, randomInt(SALDO_SHARDS));
  const c = lido?.valores ? { ciclo: lido.ciclo, situacao: 'VIGENTE' as const, prazoConsumo: lido.prazoConsumo, valores: lido.valores, saldoMilesimos: 0 } : await contaSemShards(u.clienteId);
  if (!c) return 'mensal';
  const valorMilesimos = valorUnitarioDe(c, u.servico);
  const debito = { chave: u.chave, clienteId: u.clienteId, servico: u.servico, valorMilesimos, createdAt: u.agora.toISOString() };
  if (c.situacao === 'VIGENTE' && valorMilesimos > 0) {
    const r = await store.debitar(
      { ...debito, resultado: 'PREPAGO' },
      { ciclo: c.ciclo, hoje: todayInBahia(u.agora), mes: monthOf(u.agora), prazoConsumo: c.prazoConsumo, saldoNaConta: c.saldoMilesimos, valores: c.valores, lido: lido?.valores ? lido : undefined },
    );
    if (r === 'debitado') return 'prepago';
    if (r === 'repetido') return (await store.lerDebito(u.chave))?.resultado === 'PREPAGO' ? 'prepago-repetido' : 'mensal';
  }
  if (!(await store.registrarExcedente({ ...debito, resultado: 'EXCEDENTE' }))) {
    return (await store.lerDebito(u.chave))?.resultado === 'PREPAGO' ? 'prepago-repetido' : 'mensal';
  }
  return 'mensal';
}

/**
 * The account item of a client whose balance has no shard (with unit values) where one was read: no
 * account, one awaiting its first payment, or one credited before the shards or before issue 36. Kept
 * CACHE_CONTA_MS in the container, so that a client without a prepaid account does not read one key
 * per use (issue 36); this is safe because what makes an account able to pay — its credit — writes the
 * shards, which every use reads first, and an account's old shards are moved at its first debit.
 */
const CACHE_CONTA_MS = 60_000;
const contas = new Map<string, { ate: number; conta: store.ContaRecord | null }>();

async function contaSemShards(clienteId: string): Promise<store.ContaRecord | null> {
  const hit = contas.get(clienteId);
  if (hit && Date.now() < hit.ate) return hit.conta;
  const conta = await store.lerContaItem(clienteId);
  if (contas.size > 10_000) contas.clear();
  // An account whose balance is still on its item or in old shards is not kept: its first debit moves it.
  if (!(conta?.situacao === 'VIGENTE')) contas.set(clienteId, { ate: Date.now() + CACHE_CONTA_MS, conta });
  return conta;
}
