import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import type { TabelaArquivo, TipoColuna } from '@plac/shared/arquivo';
import type { Linha } from '../platform/arquivo';

/**
 * Rows per row group: the evidence download reads a page (1,000 lines) at a time, and a reader fetches
 * whole row groups; 10,000 keeps a group at about half a megabyte of this log's columns.
 */
const LINHAS_POR_GRUPO = 10_000;

const tipoParquet: Record<TipoColuna, ColumnSource['type']> = { string: 'STRING', int: 'INT32', bigint: 'INT64', timestamp: 'TIMESTAMP' };

function valorParquet(tipo: TipoColuna, v: string | number | null): unknown {
  if (v === null) return null;
  if (tipo === 'bigint') return BigInt(v);
  if (tipo === 'timestamp') return new Date(v);
  return v;
}

/**
 * The rows as one Parquet file (Snappy-compressed, the table's columns in order). The same rows give
 * the same bytes: nothing in the file depends on when or where it was written, so a month archived
 * again writes the same files.
 */
export function parquetDe(tabela: TabelaArquivo, linhas: readonly Linha[]): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: tabela.colunas.map((c) => ({
      name: c.nome,
      type: tipoParquet[c.tipo],
      nullable: c.nulo === true,
      data: linhas.map((l) => valorParquet(c.tipo, l[c.nome] ?? null)) as ColumnSource['data'],
    })),
    rowGroupSize: LINHAS_POR_GRUPO,
    createdBy: 'plac-fate arquivo',
  });
  return new Uint8Array(buffer);
}

