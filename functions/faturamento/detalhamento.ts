import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Principal } from '@plac/shared/access';
import { NOME_DETALHAMENTO } from '@plac/shared/domain';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { csv, linhasDoRelatorio, requisicoesDoRelatorio, type RequisicaoDoRelatorio } from '../consumo/relatorio';
import { s3Client } from '../platform/aws';
import { presignDownload, safeFileName } from '../platform/documents';
import { config } from '../platform/env';
import { faturaVisivel } from './service';

/**
 * The invoice's detail, detalhamento_fatura.zip (spec 2 sections 7 and 9): one CSV per service with
 * every charged request of the invoice's month for its client, from the request log (read through the
 * consumo context's report, so the CSV is the consumption report's: ';', UTF-8 with a BOM, CRLF, the
 * CSV-injection guard, the totals by service and UF). Optionally one service only. Written to the
 * documents bucket and handed out as a presigned URL, as the consumption report is. Who may: as the
 * invoice's detail (faturaVisivel).
 */

/** Entries: '<id>-<description>.csv', e.g. '09-Envio_de_Fat-e.csv', in the services' id order. */
export function entradasDoZip(
  cliente: { razaoSocial: string; cnpj: string },
  mes: string,
  requisicoes: readonly RequisicaoDoRelatorio[],
): { nome: string; conteudo: string; requisicoes: number }[] {
  const porServico = new Map<number, RequisicaoDoRelatorio[]>();
  for (const q of requisicoes) porServico.set(q.idModuloServico, [...(porServico.get(q.idModuloServico) ?? []), q]);
  const entradas = [...porServico]
    .sort(([a], [b]) => a - b)
    .map(([id, qs]) => ({
      nome: `${String(id).padStart(2, '0')}-${safeFileName(qs[0]!.servico)}.csv`,
      conteudo: csv(linhasDoRelatorio({ cliente, mes, requisicoes: qs })),
      requisicoes: qs.length,
    }));
  // A month without charged requests (the minimum subscription only): one report saying so, never an empty archive.
  if (entradas.length === 0) entradas.push({ nome: 'detalhamento.csv', conteudo: csv(linhasDoRelatorio({ cliente, mes, requisicoes: [] })), requisicoes: 0 });
  return entradas;
}

export function zipDe(entradas: readonly { nome: string; conteudo: string }[], agora: Date = new Date()): Uint8Array {
  const arquivos: Zippable = {};
  for (const e of entradas) arquivos[e.nome] = [strToU8(e.conteudo), { mtime: agora }];
  return zipSync(arquivos, { level: 6 });
}

export async function gerar(faturaId: string, principal: Principal, idModuloServico?: number) {
  const f = await faturaVisivel(faturaId, principal);
  const requisicoes = await requisicoesDoRelatorio(f.clienteId, f.mes, idModuloServico);
  const zip = zipDe(entradasDoZip({ razaoSocial: f.razaoSocial, cnpj: f.cnpj }, f.mes, requisicoes));
  const key = `faturas/${f.clienteId}/${f.faturaId}/detalhamento${idModuloServico === undefined ? '' : `-servico-${idModuloServico}`}.zip`;
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config.documentsBucket,
      Key: key,
      Body: zip,
      ContentType: 'application/zip',
      ContentDisposition: `attachment; filename="${NOME_DETALHAMENTO}"`,
    }),
  );
  return { nomeArquivo: NOME_DETALHAMENTO, url: await presignDownload(key, 'application/zip', { fileName: NOME_DETALHAMENTO }), requisicoes: requisicoes.length };
}
