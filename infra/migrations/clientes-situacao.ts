/**
 * One-off migration of issue 38 (docs/deploy.md, "Migration of issue 38: the clients' situation index"):
 * the overdue-invoice summary finds the clients in evaluation by the clients' situation index (gsi2,
 * functions/clientes/store.ts `bySituacao`) instead of reading the whole registry. A client written
 * since this release carries its keys (every write carries the whole record); this writes them on the
 * clients written before, each on condition it is unchanged since read (an edit meanwhile indexes it
 * itself). Safe to run again and beside the portal.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/clientes-situacao.ts
 */
import { indexarSituacao, listClientes } from '../../functions/clientes/store';

/** Indexes every client; answers how many were written. */
export async function migrar(): Promise<number> {
  let escritos = 0;
  // A batch job, not a route: the registry read once (its clients, about 100 planned).
  for (const c of await listClientes()) if (await indexarSituacao(c)) escritos++;
  return escritos;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`clients indexed by situation: ${await migrar()}`);
}
