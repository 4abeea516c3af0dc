import { monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { idsEmAvaliacao } from '../clientes';
import * as store from './store';

/**
 * The overdue invoices at a glance, for the administrator's dashboard (issue 28 item 6): the open
 * invoices of the last twelve closed months whose due date (the DAE's, else the default, the 15th of the
 * following month) is before today in Bahia, of every client not in evaluation (as the invoice list),
 * totalled by what they still owe.
 *
 * From the open-invoice counters (store.ts `faturasAbertas`, issue 38): one key-range Query per month,
 * its due dates before today, never an invoice. The clients in evaluation (the billing run issues them
 * none, so only a client put in evaluation after its invoices has any: the clients' situation index
 * names them) are taken out by their own invoices' shares, one key Query per such client. Read-only.
 */
export async function resumoVencidas(agora: Date = new Date()) {
  const hoje = todayInBahia(agora);
  const meses: string[] = [];
  for (let m = previousMonth(monthOf(agora)); meses.length < 12; m = previousMonth(m)) meses.push(m);
  const [contadores, emAvaliacao] = await Promise.all([
    store.abertasVencidasAntesDe(meses, hoje),
    idsEmAvaliacao(),
  ]);
  const porVencimento = new Map<string, { quantidade: number; saldo: number }>();
  const somar = (vencimento: string, quantidade: number, saldo: number) => {
    const v = porVencimento.get(vencimento) ?? { quantidade: 0, saldo: 0 };
    porVencimento.set(vencimento, { quantidade: v.quantidade + quantidade, saldo: v.saldo + saldo });
  };
  for (const c of contadores) somar(c.vencimento, c.quantidade, c.saldo);
  const doPeriodo = await Promise.all(emAvaliacao.map((id) => store.faturasDoCliente(id, meses[meses.length - 1]!, meses[0]!)));
  for (const f of doPeriodo.flat()) {
    const parte = store.lerContagem(f.contagemAberta);
    if (parte && parte.vencimento < hoje) somar(parte.vencimento, -1, -parte.saldo);
  }
  const vencidas = [...porVencimento].filter(([, v]) => v.quantidade > 0);
  return {
    quantidade: vencidas.reduce((s, [, v]) => s + v.quantidade, 0),
    total: vencidas.reduce((s, [, v]) => s + v.saldo, 0),
    vencimentoMaisAntigo: vencidas.reduce<string | null>((min, [vencimento]) => (min === null || vencimento < min ? vencimento : min), null),
  };
}
