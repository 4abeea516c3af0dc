import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand } from '../platform/aws-direto/s3';
import type { Principal } from '@plac/shared/access';
import { CONTENT_TYPE_NOTA, MAX_NOTA_BYTES, tipoNotaDoNome, type TipoNota } from '@plac/shared/domain';
import { s3Client } from '../platform/aws';
import { presignDownload, presignUpload, safeFileName } from '../platform/documents';
import { config } from '../platform/env';
import { conflict, invalid, notFound } from '../platform/errors';
import { logger } from '../platform/observability';
import { recusaDoConteudo } from './conteudo-nota';
import { faturaVisivel } from './service';
import * as store from './store';

/**
 * An invoice's tax note (spec 2 sections 2.9, 3, 5, 7 and 8; docs/faturamento.md, "Tax notes and the
 * detail ZIP"), in the project's presigned-upload pattern:
 * 1. the administrator asks to send a file ('envio'): only a .pdf or .xml name ('somentePdfXml');
 *    the answer is a URL bound to a new key of that invoice and that type, valid for 5 minutes;
 * 2. the browser PUTs the file straight to the documents bucket;
 * 3. the administrator confirms: the stored bytes are checked by what they hold (conteudo-nota.ts);
 *    refused, the object is deleted and the invoice is unchanged; accepted, the invoice points at the
 *    new object by a conditional update, and the object it replaced is deleted.
 * Downloads: the administrator and the invoice's own client user get a short-lived attachment URL.
 */

/** A key that names its invoice and type, so a confirmation cannot point at another invoice's upload. */
const keyDoEnvio = (faturaId: string, envioId: string, tipo: TipoNota) => `notas-fiscais/${faturaId}/${envioId.toLowerCase()}.${tipo}`;

function tipoDoNome(nomeArquivo: string): TipoNota {
  const tipo = tipoNotaDoNome(nomeArquivo);
  if (!tipo) throw invalid('somentePdfXml');
  return tipo;
}

async function faturaExistente(faturaId: string) {
  const f = await store.lerFatura(faturaId);
  if (!f) throw notFound();
  return f;
}

export async function prepararEnvio(faturaId: string, nomeArquivo: string) {
  const tipo = tipoDoNome(nomeArquivo);
  await faturaExistente(faturaId);
  const envioId = randomUUID();
  const contentType = CONTENT_TYPE_NOTA[tipo];
  return { envioId, tipo, contentType, url: await presignUpload(keyDoEnvio(faturaId, envioId, tipo), contentType), tamanhoMaximo: MAX_NOTA_BYTES };
}

const s3 = () => s3Client();
const bucket = () => config.documentsBucket;

async function apagar(key: string) {
  try {
    await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
  } catch (error) {
    // An object left behind costs storage, not correctness: the invoice never points at it.
    logger.warn('could not delete a tax note object', { key, error: error as Error });
  }
}

/** The uploaded object's size, or null when nothing was uploaded under the key. */
async function tamanhoDoEnviado(key: string): Promise<number | null> {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey') return null;
    throw error;
  }
}

export async function confirmarEnvio(faturaId: string, body: { envioId: string; nomeArquivo: string }, principal: Principal) {
  const tipo = tipoDoNome(body.nomeArquivo);
  const antes = await faturaExistente(faturaId);
  const key = keyDoEnvio(faturaId, body.envioId, tipo);
  const tamanho = await tamanhoDoEnviado(key);
  if (tamanho === null) throw invalid('notaFiscalNaoRecebida');
  // The size is checked before the bytes are read: a huge upload never enters the Lambda's memory.
  if (tamanho > MAX_NOTA_BYTES) {
    await apagar(key);
    throw invalid('arquivoGrandeDemais');
  }
  const objeto = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  const bytes = await objeto.Body!.transformToByteArray();
  const recusa = recusaDoConteudo(tipo, bytes);
  if (recusa) {
    await apagar(key);
    throw invalid(recusa);
  }
  const keyAnterior = tipo === 'pdf' ? antes.pdfKey : antes.xmlKey;
  if (keyAnterior === key) throw conflict('faturaAlterada');
  const nome = safeFileName(body.nomeArquivo);
  const gravou = await store.gravarNotaFiscal(faturaId, tipo, { key, nome, em: new Date().toISOString(), por: principal.name }, keyAnterior);
  if (!gravou) {
    // Another confirmation replaced the file since it was read: this upload is dropped, nothing is lost.
    await apagar(key);
    throw conflict('faturaAlterada');
  }
  if (keyAnterior) await apagar(keyAnterior);
  logger.info('tax note uploaded', { faturaId, tipo, bytes: bytes.length });
  return {
    tipo,
    nomePdfFile: tipo === 'pdf' ? nome : (antes.nomePdfFile ?? null),
    nomeXmlFile: tipo === 'xml' ? nome : (antes.nomeXmlFile ?? null),
  };
}

export async function baixar(faturaId: string, tipo: TipoNota, principal: Principal) {
  const f = await faturaVisivel(faturaId, principal);
  const key = tipo === 'pdf' ? f.pdfKey : f.xmlKey;
  const nomeArquivo = tipo === 'pdf' ? f.nomePdfFile : f.nomeXmlFile;
  if (!key || !nomeArquivo) throw notFound();
  return { nomeArquivo, url: await presignDownload(key, CONTENT_TYPE_NOTA[tipo], { fileName: nomeArquivo }) };
}
