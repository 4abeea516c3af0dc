/**
 * One-off migration of issue 38 (docs/deploy.md, "Migration of issue 38: the overdue invoices"), and the
 * reconciliation of the open-invoice counters: the overdue dashboard reads the counters of open invoices
 * by month and due date (functions/faturamento/store.ts `faturasAbertas`), which every write of an
 * invoice keeps since this release (`recontarFatura`). This recounts every invoice of a period, a month
 * at a time: an invoice issued before (no share yet) is counted, one whose writer stopped before its
 * count is brought up to date, and one already right is left alone. Safe to run again and beside the
 * portal (each recount is conditional on the invoice as read).
 *
 * The same recount writes each invoice's Pagamento de Serviços rows and their month's counters
 * (functions/faturamento/linhas-pagamento.ts, issue 38): this is also that screen's migration and
 * reconciliation ("Migration of issue 38: Pagamento de Serviços" in docs/deploy.md).
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/faturas-abertas.ts [from YYYY-MM] [to YYYY-MM]
 *
 * Without months: the 60 months up to the current one (the invoices' five years).
 */
import { faturasDoMes, recontarFatura } from '../../functions/faturamento/store';
import { mesesDosArgumentos } from './meses';

/** Recounts every invoice of a month; answers how many were read. */
export async function recontarMes(mes: string): Promise<number> {
  // A batch job, not a route: the month's invoices (one per client) read once.
  const faturas = await faturasDoMes(mes);
  for (const f of faturas) await recontarFatura(f.faturaId);
  return faturas.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const mes of mesesDosArgumentos(process.argv.slice(2))) {
    const n = await recontarMes(mes);
    if (n > 0) console.log(`${mes}: ${n} invoices recounted`);
  }
}
