/**
 * One-off migration of issue 38 (docs/deploy.md, "Migration of issue 38: the institution registry"):
 * before it, every institution sat in one gsi1 partition with no keys to be found by, and the
 * autocomplete, the top 5, the registry filter and the authorisations' names each read that partition
 * whole. Now an institution is in the registry's partition ('registro') and has its keys (words of its
 * name per who may see it, its base CNPJ, its UF and status: functions/instituicoes/indice.ts). This walks
 * the old partition a page at a time and writes each institution again, unchanged, with its keys
 * (functions/instituicoes/store.ts `indexarInstituicaoAntiga`: conditioned on it being unchanged since
 * read). Until it has run, the reads take the old partition in beside the keys, so nothing is missing
 * meanwhile. Safe to run again and beside the portal: a written institution is no longer in the old
 * partition, and an edit writes one too.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/instituicoes-indice.ts
 */
import { indexarInstituicaoAntiga, instituicoesAntigas } from '../../functions/instituicoes/store';

/** Writes every institution of the old partition with its keys; answers how many. */
export async function migrar(porPagina = 100): Promise<number> {
  let escritas = 0;
  let desde: string | undefined;
  do {
    const { data, cursor } = await instituicoesAntigas(desde, porPagina);
    for (const r of data) if (await indexarInstituicaoAntiga(r.instituicaoId)) escritas++;
    desde = cursor ?? undefined;
  } while (desde);
  return escritas;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`institutions written with their keys: ${await migrar()}`);
}
