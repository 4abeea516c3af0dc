/**
 * One-off migration of issue 38 (docs/deploy.md, "Migration of issue 38: the user list"): before it,
 * every user, issuers among them, sat in one gsi1 partition (`$users`), and the user list read it whole.
 * Now gsi1 is keyed by list: `equipe` (the Sefaz and client users the user list pages through) and
 * `emissor` (the issuers). This walks the old partition a page at a time and moves each user
 * (functions/users/store.ts `moverUsuarioAntigo`: its roles written again, conditioned on it being
 * unchanged since read). Until it has run, the list reads the old partition beside `equipe`, so nothing
 * is missing meanwhile. Safe to run again and beside the portal: a moved user is no longer in the old
 * partition, and an administrator's edit moves a user too.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/usuarios-lista.ts
 */
import { moverUsuarioAntigo, usuariosAntigos } from '../../functions/users/store';

/** Moves every user of the old partition; answers how many were moved. */
export async function migrar(porPagina = 100): Promise<number> {
  let movidos = 0;
  let desde: string | undefined;
  do {
    const { data, cursor } = await usuariosAntigos(desde, porPagina);
    for (const u of data) if (await moverUsuarioAntigo(u.userId)) movidos++;
    desde = cursor ?? undefined;
  } while (desde);
  return movidos;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`users moved to their list's partition: ${await migrar()}`);
}
