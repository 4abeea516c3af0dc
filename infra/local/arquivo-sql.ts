/**
 * The archive's SQL, locally (issue 41, docs/arquivo.md): the same queries Athena runs, run by DuckDB
 * (its Node API, embedded) on the same Parquet files, copied from the twin's archive bucket into a
 * folder with the bucket's layout. The Glue tables become DuckDB views of the same names in a schema
 * `plac_arquivo`, over `read_parquet(..., hive_partitioning = true)`: `mes` and `cliente` come from the
 * keys as Athena's partition projection gives them. A table with no file yet is an empty view of its
 * columns, so a query runs before the first archive as it does in Athena.
 *
 *   npx tsx infra/local/arquivo-sql.ts <query title> <param>…   (the twin running: `npm start`)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { BANCO_ARQUIVO, PARTICOES, TABELAS_ARQUIVO, type TipoColuna } from '@plac/shared/arquivo';
import { consultasDoArquivo } from '../lib/consultas-arquivo';

export type Valor = string | number | null;

const tipoDuck: Record<TipoColuna, string> = { string: 'VARCHAR', int: 'INTEGER', bigint: 'BIGINT', timestamp: 'TIMESTAMP' };

/** Copies every object under these prefixes of the archive (a client's months) into `pasta`, with their keys. */
export async function copiarArquivo(pasta: string, objetos: { chave: string; bytes: Uint8Array }[]): Promise<void> {
  for (const o of objetos) {
    const destino = join(pasta, o.chave);
    await mkdir(dirname(destino), { recursive: true });
    await writeFile(destino, o.bytes);
  }
}

/** A DuckDB with the archive's tables as views over the Parquet files under `pasta`. */
export async function abrirArquivo(pasta: string, temArquivo: (tabela: string) => boolean): Promise<{ conexao: DuckDBConnection; fechar: () => void }> {
  const instancia = await DuckDBInstance.create(':memory:');
  const conexao = await instancia.connect();
  await conexao.run(`CREATE SCHEMA ${BANCO_ARQUIVO}`);
  for (const t of Object.values(TABELAS_ARQUIVO)) {
    const colunas = [...t.colunas.map((c) => ({ nome: c.nome, tipo: tipoDuck[c.tipo] })), ...PARTICOES.map((p) => ({ nome: p.nome, tipo: 'VARCHAR' }))];
    const corpo = temArquivo(t.nome)
      ? `SELECT ${colunas.map((c) => `CAST(${c.nome} AS ${c.tipo}) AS ${c.nome}`).join(', ')} FROM read_parquet('${join(pasta, t.nome).replaceAll("'", "''")}/*/*/*.parquet', hive_partitioning = true, hive_types_autocast = false)`
      : `SELECT ${colunas.map((c) => `CAST(NULL AS ${c.tipo}) AS ${c.nome}`).join(', ')} WHERE false`;
    await conexao.run(`CREATE VIEW ${BANCO_ARQUIVO}.${t.nome} AS ${corpo}`);
  }
  return { conexao, fechar: () => (conexao.closeSync(), instancia.closeSync()) };
}

/** Runs the documented query of this title with its parameters, in order; rows as plain objects (timestamps as ISO instants, integers as numbers). */
export async function consultar(conexao: DuckDBConnection, titulo: string, parametros: readonly Valor[]): Promise<Record<string, Valor>[]> {
  const consulta = consultasDoArquivo().find((q) => q.titulo === titulo);
  if (!consulta) throw new Error(`no query titled "${titulo}" in docs/arquivo.md`);
  const preparada = await conexao.prepare(consulta.sql);
  parametros.forEach((v, i) => {
    if (v === null) preparada.bindNull(i + 1);
    else if (typeof v === 'number') preparada.bindBigInt(i + 1, BigInt(v));
    else preparada.bindVarchar(i + 1, v);
  });
  const resultado = await preparada.runAndReadAll();
  return resultado.getRowObjectsJS().map((linha) =>
    Object.fromEntries(
      Object.entries(linha).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? Number(v) : (v as Valor)]),
    ),
  );
}

/** From the command line: copies the twin's archive bucket and prints the query's rows. */
async function principal(titulo: string, parametros: string[]): Promise<void> {
  const { ListObjectsV2Command, GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const { arquivoBucket } = await import('../lib/topology');
  const s3 = new S3Client({ forcePathStyle: true });
  const Bucket = process.env.ARQUIVO_BUCKET ?? arquivoBucket.localName;
  const pasta = await mkdtemp(join(tmpdir(), 'plac-arquivo-'));
  try {
    const objetos: { chave: string; bytes: Uint8Array }[] = [];
    const tabelas = new Set<string>();
    let ContinuationToken: string | undefined;
    do {
      const r = await s3.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
      for (const o of r.Contents ?? []) {
        if (!o.Key!.endsWith('.parquet')) continue;
        const got = await s3.send(new GetObjectCommand({ Bucket, Key: o.Key! }));
        objetos.push({ chave: o.Key!, bytes: await got.Body!.transformToByteArray() });
        tabelas.add(o.Key!.split('/')[0]!);
      }
      ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (ContinuationToken);
    await copiarArquivo(pasta, objetos);
    const { conexao, fechar } = await abrirArquivo(pasta, (t) => tabelas.has(t));
    try {
      console.table(await consultar(conexao, titulo, parametros));
    } finally {
      fechar();
    }
  } finally {
    await rm(pasta, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [titulo, ...parametros] = process.argv.slice(2);
  if (!titulo) {
    console.error(`usage: npx tsx infra/local/arquivo-sql.ts "<title>" <param>…\nqueries: ${consultasDoArquivo().map((q) => `"${q.titulo}"`).join(', ')}`);
    process.exit(2);
  }
  principal(titulo, parametros).catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
