import { monthOf, previousMonth, todayInBahia, vencimentoPadraoDae } from '@plac/shared/domain';
import { todosClientes } from '../clientes/service';
import { saldoDaFatura } from './recebimentos';
import * as store from './store';

/**
 * The overdue invoices at a glance, for the administrator's dashboard (issue 28 item 6): the open
 * invoices of the last twelve closed months whose due date (the DAE's, else the default, the 15th of the
 * following month) is before today in Bahia, of every client not in evaluation (as the invoice list),
 * totalled by what they still owe.
 * One key Query per month's partition (twelve), as the invoice list's every-client mode reads them;
 * read-only.
 */
export async function resumoVencidas(agora: Date = new Date()) {
  const hoje = todayInBahia(agora);
  const meses: string[] = [];
  for (let m = previousMonth(monthOf(agora)); meses.length < 12; m = previousMonth(m)) meses.push(m);
  const emAvaliacao = new Set((await todosClientes()).filter((c) => c.situacao === 'E').map((c) => c.id));
  const vencidas = (await Promise.all(meses.map((m) => store.faturasDoMes(m))))
    .flat()
    .filter((f) => f.situacao === 'A' && !emAvaliacao.has(f.clienteId))
    // What is still owed: an invoice paid in part counts its balance (issue 37; recebimentos.ts).
    .map((f) => ({ valorTotal: saldoDaFatura(f).saldoDevedor, vencimento: vencimentoPadraoDae(f.mes, f.dae?.dtVencimento) }))
    .filter((f) => f.vencimento < hoje);
  return {
    quantidade: vencidas.length,
    total: vencidas.reduce((s, f) => s + f.valorTotal, 0),
    vencimentoMaisAntigo: vencidas.reduce<string | null>((min, f) => (min === null || f.vencimento < min ? f.vencimento : min), null),
  };
}
