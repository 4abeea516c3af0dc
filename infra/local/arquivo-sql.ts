/**
 * The archive's SQL, locally (issue 41, docs/arquivo.md): the same queries Athena runs, run by DuckDB
 * (its Node API, embedded) on the same Parquet files, copied from the twin's archive bucket into a
 * folder with the bucket's layout. The Glue tables become DuckDB views of the same names in a schema
 * `plac_arquivo`, over `read_parquet(..., hive_partitioning = true)`: `mes` and `cliente` come from the
 * keys as Athena's partition projection gives them. A table with no file yet is an empty view of its
 * columns, so a query runs before the first archive as it does in Athena.
 *
 * With the twin running (`npm start`):
 *   npm run arquivo -- arquivar 2026-11            archive a past month (as the schedule on the 5th does)
 *   npm run arquivo -- sql "<query title>" <param>…  run one of docs/arquivo.md's queries on the archive
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** The running twin's environment (its endpoints, bucket and table), as `npm run invoke` reads it. */
async function ambienteDoTwin(): Promise<void> {
  const dataDir = process.env.PLAC_DATA_DIR ?? fileURLToPath(new URL('../../.data', import.meta.url));
  try {
    Object.assign(process.env, JSON.parse(await readFile(`${dataDir}/twin-env.json`, 'utf8')) as Record<string, string>);
  } catch {
    throw new Error('The local twin is not running: start it with `npm start` in another terminal.');
  }
}

/** `arquivar <mes> [clienteId…]`: the Arquivo state machine started on the twin, as its schedule does; waits for the month's job. */
async function arquivar(mes: string, clientes: string[]): Promise<void> {
  const { startExecution } = await import('../../functions/platform/step-functions');
  const { lerJob } = await import('../../functions/arquivo/job-store');
  const { arquivoStateMachine } = await import('../lib/topology');
  const { localStateMachineArn } = await import('./emulators/step-functions');
  await startExecution(localStateMachineArn(arquivoStateMachine.localName), `arquivo-${mes}-${Date.now()}`, { mes, ...(clientes.length ? { clientes } : {}) });
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const job = await lerJob(mes);
    if (job && job.estado !== 'PROCESSANDO') {
      console.log(JSON.stringify({ mes, estado: job.estado, clientes: job.clientes, divergencias: job.divergencias ?? [] }, null, 2));
      return;
    }
  }
}

/** `sql "<title>" <param>…`: the twin's archive bucket copied to a temporary folder, the query run by DuckDB on it. */
async function sql(titulo: string, parametros: string[]): Promise<void> {
  const arquivo = await import('../../functions/platform/arquivo');
  const pasta = await mkdtemp(join(tmpdir(), 'plac-arquivo-'));
  try {
    const chaves = (await arquivo.chavesSob('')).filter((k) => k.endsWith('.parquet'));
    const objetos = await Promise.all(chaves.map(async (chave) => ({ chave, bytes: (await arquivo.ler(chave))! })));
    await copiarArquivo(pasta, objetos);
    const tabelas = new Set(chaves.map((k) => k.split('/')[0]!));
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
  const [comando, ...resto] = process.argv.slice(2);
  const uso = `usage: npm run arquivo -- arquivar <YYYY-MM> [clienteId…]\n       npm run arquivo -- sql "<title>" <param>…\nqueries: ${consultasDoArquivo()
    .map((q) => `"${q.titulo}"`)
    .join(', ')}`;
  const feito =
    comando === 'arquivar' && resto[0] ? ambienteDoTwin().then(() => arquivar(resto[0]!, resto.slice(1)))
    : comando === 'sql' && resto[0] ? ambienteDoTwin().then(() => sql(resto[0]!, resto.slice(1)))
    : Promise.reject(new Error(uso));
  feito.catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
