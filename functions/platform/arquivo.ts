import { createHash } from 'node:crypto';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from './aws-direto/s3';
import { parquetReadObjects } from 'hyparquet';
import type { TabelaArquivo, TipoColuna } from '@plac/shared/arquivo';
import { s3Client } from './aws';
import { config } from './env';

/**
 * The evidence archive's files (docs/arquivo.md): a Parquet part read back as rows of its table
 * (shared/src/arquivo.ts), and the archive bucket's objects. The archive job (functions/arquivo, which
 * writes the parts: its parquet.ts) and the evidence download (functions/consumo/relatorio-arquivo.ts)
 * both go through it, and neither knows the other.
 */

/** A row as the archive writes it: a column's value is a string, a number or null (a timestamp as an ISO instant). */
export type Linha = Record<string, string | number | null>;

function valorLido(tipo: TipoColuna, v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (tipo === 'timestamp') return (v as Date).toISOString();
  if (tipo === 'bigint') return Number(v as bigint);
  return v as string | number;
}

/** Rows [inicio, fim) of a Parquet file of the table, as the archive wrote them. */
export async function linhasDe(tabela: TabelaArquivo, bytes: Uint8Array, inicio = 0, fim?: number): Promise<Linha[]> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const rows = await parquetReadObjects({ file, rowStart: inicio, ...(fim === undefined ? {} : { rowEnd: fim }) });
  return rows.map((r) => Object.fromEntries(tabela.colunas.map((c) => [c.nome, valorLido(c.tipo, r[c.nome])])));
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function gravar(chave: string, corpo: Uint8Array | string, contentType: string): Promise<void> {
  await s3Client().send(new PutObjectCommand({ Bucket: config.arquivoBucket, Key: chave, Body: corpo, ContentType: contentType }));
}

/** The object's bytes, or null when there is none. */
export async function ler(chave: string): Promise<Uint8Array | null> {
  try {
    const r = await s3Client().send(new GetObjectCommand({ Bucket: config.arquivoBucket, Key: chave }));
    return await r.Body!.transformToByteArray();
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

/** Every key under the prefix (a client's month of one table: its parts). */
export async function chavesSob(prefixo: string): Promise<string[]> {
  const chaves: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const r = await s3Client().send(new ListObjectsV2Command({ Bucket: config.arquivoBucket, Prefix: prefixo, ContinuationToken }));
    chaves.push(...(r.Contents ?? []).map((o) => o.Key!));
    ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return chaves;
}

export async function apagar(chaves: readonly string[]): Promise<void> {
  for (let i = 0; i < chaves.length; i += 1000) {
    const Objects = chaves.slice(i, i + 1000).map((Key) => ({ Key }));
    await s3Client().send(new DeleteObjectsCommand({ Bucket: config.arquivoBucket, Delete: { Objects, Quiet: true } }));
  }
}
