/**
 * One-off migration of issue 38 (docs/deploy.md, "Migration of issue 38: every client's consumption"):
 * the administrator's list of every client's consumption reads, a page at a time, the month's listing
 * of clients (`clienteDoMes`) and each client's counter by service (`consumoServico`), which a charge
 * writes since this release. For the months charged before, this writes them from the counters by UF
 * (functions/consumo/store.ts `gravarBaseDoCliente`): the listing, and per service the base shard set
 * to what the counters by UF hold minus what the live shards already hold (the charges made since the
 * release, counted in both in one transaction). The two are read live-counters, counters by UF,
 * live-counters again, and used only when the live reads agree (no charge came in between), so the
 * base is exact beside the portal. Safe to run again: the base is set, never added to.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/consumo-clientes.ts [from YYYY-MM] [to YYYY-MM]
 *
 * Without months: the 60 months up to the current one (the invoices' five years).
 */
import { foldText } from '@plac/shared/domain';
import { clienteResumo } from '../../functions/clientes/service';
import { consumoVivoPorServico, contadoresDoMes, contadoresPorServico, gravarBaseDoCliente } from '../../functions/consumo/store';
import { mesesDosArgumentos } from './meses';

const TENTATIVAS = 10;

const iguais = (a: Map<number, number>, b: Map<number, number>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** One client's month: its listing and base shards. False when charges kept coming in (run it again). */
export async function migrarCliente(clienteId: string, mes: string): Promise<boolean> {
  for (let tentativa = 0; tentativa < TENTATIVAS; tentativa++) {
    const antes = await consumoVivoPorServico(clienteId, mes);
    const contados = new Map((await contadoresPorServico(clienteId, mes)).map((c) => [c.servico, c.requisicoes]));
    const depois = await consumoVivoPorServico(clienteId, mes);
    if (!iguais(antes, depois)) continue;
    const nome = foldText((await clienteResumo(clienteId))?.razao_social ?? clienteId);
    await gravarBaseDoCliente({
      clienteId,
      mes,
      nome,
      porServico: [...contados].filter(([, n]) => n > 0).map(([servico, n]) => ({ servico, requisicoes: n - (depois.get(servico) ?? 0) })),
    });
    return true;
  }
  return false;
}

/** Every client of a month; answers how many were written and which could not be (charges kept coming). */
export async function migrarMes(mes: string): Promise<{ clientes: number; pendentes: string[] }> {
  const clientes = [...new Set((await contadoresDoMes(mes)).map((c) => c.clienteId))];
  const pendentes: string[] = [];
  for (const clienteId of clientes) if (!(await migrarCliente(clienteId, mes))) pendentes.push(clienteId);
  return { clientes: clientes.length, pendentes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const mes of mesesDosArgumentos(process.argv.slice(2))) {
    const { clientes, pendentes } = await migrarMes(mes);
    if (clientes > 0) console.log(`${mes}: ${clientes} clients${pendentes.length ? `, run again for: ${pendentes.join(', ')}` : ''}`);
  }
}
