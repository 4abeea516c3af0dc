import { PutObjectCommand } from '../platform/aws-direto/s3';
import { s3Client } from '../platform/aws';
import { config } from '../platform/env';
import { campoLivre, codigoOrgao, IDENTIFICADOR_VALOR, SEGMENTO_ORGAOS_GOVERNAMENTAIS } from './config';
import { linhaDigitavel, montarCodigoBarras } from './febraban';
import { daePdf } from './pdf';
import * as store from './store';
import type { DaeRecord } from './store';

/**
 * Issuing a DAE for a document, whatever it pays: a monthly invoice (functions/faturamento/dae-fatura.ts) or a prepaid
 * reservation (functions/prepago). One barcode rule and one PDF for both (docs/faturamento.md "DAE").
 * This module imports nothing of the invoices, so a context that only issues DAEs (prepago) carries
 * none of the billing run.
 */
export interface DocumentoCobrado {
  /** The invoice's id, or the reservation's ('PA-…'). */
  documentoId: string;
  origem: 'FATURA' | 'PREPAGO';
  /** The printed kind of document ('Fatura', 'Pagamento antecipado'), with its month and client (pdf.ts camposDae). */
  rotulo: string;
  /** The document's revision (a re-priced invoice asks for a new DAE); 0 for a reservation. */
  revisao: number;
  clienteId: string;
  razaoSocial: string;
  cnpj: string;
  /** 'YYYY-MM'. */
  mes: string;
  /** Centavos. */
  valor: number;
  /** A balance's DAE: the invoice it pays, when `documentoId` is the balance's (functions/faturamento/dae-fatura.ts). */
  faturaCobrada?: string;
}

export async function lerDaeDoDocumento(documentoId: string, revisao: number, dtVencimento: string): Promise<DaeRecord | null> {
  return store.lerDae(documentoId, revisao, dtVencimento);
}

/**
 * A new DAE: numbered, its barcode built, its PDF stored under a key made of the barcode (so a request
 * that loses a race to create the record leaves only an unused file, never overwrites the winner's),
 * then the record created on the condition that none exists: the first one stored is the one answered.
 */
export async function novoDae(d: DocumentoCobrado, dtVencimento: string, emitidoPor: string, agora: Date, junto?: (dae: DaeRecord) => Record<string, unknown>[]): Promise<DaeRecord & { criado?: boolean }> {
  const numero = await store.proximoNumero();
  const codigoBarras = montarCodigoBarras({
    segmento: SEGMENTO_ORGAOS_GOVERNAMENTAIS,
    identificadorValor: IDENTIFICADOR_VALOR,
    valorCentavos: d.valor,
    codigoOrgao: codigoOrgao(),
    campoLivre: campoLivre(dtVencimento, d.mes, numero),
  });
  const linha = linhaDigitavel(codigoBarras);
  const chavePdf = `dae/${d.clienteId}/${d.documentoId}/${codigoBarras}.pdf`;
  const pdf = await daePdf({ razaoSocial: d.razaoSocial, cnpj: d.cnpj, mes: d.mes, dtVencimento, valor: d.valor, numero, codigoBarras, linhaDigitavel: linha, rotulo: d.rotulo });
  await s3Client().send(new PutObjectCommand({ Bucket: config.documentsBucket, Key: chavePdf, Body: pdf, ContentType: 'application/pdf', ContentDisposition: 'inline' }));
  const record: DaeRecord = {
    faturaId: d.documentoId,
    ...(d.faturaCobrada ? { faturaCobrada: d.faturaCobrada } : {}),
    origem: d.origem,
    revisao: d.revisao,
    dtVencimento,
    clienteId: d.clienteId,
    mes: d.mes,
    numero,
    valor: d.valor,
    codigoBarras,
    linhaDigitavel: linha,
    chavePdf,
    emitidoEm: agora.toISOString(),
    emitidoPor,
  };
  return store.criarDae(record, junto?.(record) ?? []);
}
