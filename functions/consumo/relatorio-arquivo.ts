import { chaveDaParte, TABELAS_ARQUIVO } from '@plac/shared/arquivo';
import { parquetMetadata } from 'hyparquet';
import * as arquivo from '../platform/arquivo';

/**
 * The evidence's lines (issue 41): a month's charged requests read back from the archive's Parquet
 * parts (functions/arquivo), a page at a time, in the order archived (instant, request id), as the
 * report job reads the table's log. The cursor is `<part>:<row>`. A step reads about 25 pages in a row
 * of the same part: the last part read is kept in the container (one part, 2–3 MB), not fetched per page.
 */
const tabela = TABELAS_ARQUIVO.requisicoes;
let emMemoria: { chave: string; bytes: Uint8Array; linhas: number } | null = null;

async function parte(chave: string): Promise<{ bytes: Uint8Array; linhas: number }> {
  if (emMemoria?.chave === chave) return emMemoria;
  const bytes = await arquivo.ler(chave);
  if (!bytes) throw new Error(`archive part ${chave} is missing`);
  const linhas = Number(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer).num_rows);
  emMemoria = { chave, bytes, linhas };
  return emMemoria;
}

export interface LinhaDoLog {
  requestId: string;
  servico: number;
  uf: string;
  chave: string;
  createdAt: string;
}

export async function paginaDoArquivo(clienteId: string, mes: string, partes: number, cursor: string | null, limite: number): Promise<{ data: LinhaDoLog[]; cursor: string | null }> {
  if (partes === 0) return { data: [], cursor: null };
  const [n, desde] = (cursor ?? '0:0').split(':').map(Number) as [number, number];
  const { bytes, linhas } = await parte(chaveDaParte(tabela.nome, mes, clienteId, n));
  const ate = Math.min(desde + limite, linhas);
  const data = (await arquivo.linhasDe(tabela, bytes, desde, ate)).map((l) => ({
    requestId: String(l.request_id),
    servico: Number(l.servico),
    uf: String(l.uf),
    chave: String(l.chave),
    createdAt: String(l.criado_em),
  }));
  const proximo = ate < linhas ? `${n}:${ate}` : n + 1 < partes ? `${n + 1}:0` : null;
  return { data, cursor: proximo };
}
