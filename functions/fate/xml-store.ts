import { gunzipSync, gzipSync } from 'node:zlib';
import { nsu15, type Fluxo, type Uf } from '@plac/shared/domain';
import { s3Client } from '../platform/aws';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '../platform/aws-direto/s3';
import { config } from '../platform/env';

/**
 * The Sefaz documents' XML as kept in the documents bucket: written by the ingestion (service.ts), read
 * and removed by the error-document screen (documentos-erro.ts), which so loads no XML parser.
 */

/** Where a document's XML is kept: `sefaz/<UF>/<NSU>.xml.gz` for goods, `sefaz/<UF>/cte/<NSU>.xml.gz` for transport. */
export function xmlKey(uf: Uf, nsu: string, fluxo: Fluxo = 'nfe'): string {
  return `sefaz/${uf}/${fluxo === 'cte' ? 'cte/' : ''}${nsu15(nsu)}.xml.gz`;
}

/** The document's XML, gzip-compressed, in the documents bucket. Same key, same bytes: a retry overwrites nothing new. */
export async function guardarXml(key: string, xml: string | Buffer): Promise<void> {
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  await s3Client().send(new PutObjectCommand({ Bucket: config.documentsBucket, Key: key, Body: gzipSync(bytes), ContentType: 'application/gzip' }));
}

/** The document's original bytes, from the documents bucket; null when the object is gone. */
export async function lerXml(key: string): Promise<Buffer | null> {
  try {
    const object = await s3Client().send(new GetObjectCommand({ Bucket: config.documentsBucket, Key: key }));
    return gunzipSync(Buffer.from(await object.Body!.transformToByteArray()));
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

export async function apagarXml(key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: config.documentsBucket, Key: key }));
}
