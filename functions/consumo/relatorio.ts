import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Principal } from '@plac/shared/access';
import { formatCnpj, formatMonth, monthOf } from '@plac/shared/domain';
import Papa from 'papaparse';
import { s3Client } from '../platform/aws';
import { presignDownload } from '../platform/documents';
import { config } from '../platform/env';
import { notFound } from '../platform/errors';
import * as clientes from '../clientes/service';
import * as servicos from '../servicos/service';
import * as store from './store';
import { clienteDoFiltro } from './telas';

/**
 * The consumption report of consumo-cliente, built here and not in the browser: the client's request
 * log of the month (one row per charged request: date and time in Bahia, service, origin UF, access key
 * or batch line, request id), then the totals by service and UF and the month's total. A CSV for
 * Excel: ';' separated, UTF-8 with a BOM, CRLF, and no cell that a spreadsheet would run as a formula.
 * It is written to the documents bucket (`consumo/<client>/…`, overwritten by the next report of the
 * same month and service) and handed out as a presigned URL: a busy client's month would not fit in a
 * Lambda answer (6 MB).
 */

const BOM = '\uFEFF';

/** A cell that starts with = + - @, a tab or a carriage return is prefixed with ' (CSV injection). */
export function celulaSegura(value: string | number): string | number {
  if (typeof value !== 'string') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csv(linhas: (string | number)[][]): string {
  return BOM + Papa.unparse(linhas.map((l) => l.map(celulaSegura)), { delimiter: ';', newline: '\r\n', quotes: false });
}

/** 'DD/MM/YYYY HH:mm:ss' in Bahia. */
const BAHIA = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Bahia',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const dataHora = (iso: string) => BAHIA.format(new Date(iso)).replace(',', '');

export interface Relatorio {
  cliente: { razaoSocial: string; cnpj: string };
  mes: string;
  requisicoes: { createdAt: string; servico: string; uf: string; chave: string; requestId: string }[];
}

/** The report's lines: the heading, one line per request, the totals by service and UF, the total. */
export function linhasDoRelatorio(r: Relatorio): (string | number)[][] {
  const totais = new Map<string, number>();
  for (const q of r.requisicoes) totais.set(`${q.servico}\u0000${q.uf}`, (totais.get(`${q.servico}\u0000${q.uf}`) ?? 0) + 1);
  return [
    ['Relatório de consumo'],
    ['Cliente', r.cliente.razaoSocial],
    ['CNPJ', formatCnpj(r.cliente.cnpj)],
    ['Mês', formatMonth(r.mes)],
    [],
    ['Data/Hora', 'Serviço', 'UF', 'Chave', 'Requisição'],
    ...r.requisicoes.map((q) => [dataHora(q.createdAt), q.servico, q.uf, q.chave, q.requestId]),
    [],
    ['Serviço', 'UF', 'Requisições'],
    ...[...totais]
      .sort(([a], [b]) => a.localeCompare(b, 'pt-BR'))
      .map(([chave, n]) => {
        const [servico, uf] = chave.split('\u0000');
        return [servico!, uf!, n];
      }),
    ['Total', '', r.requisicoes.length],
  ];
}

/** One charged request as the reports show it, with its service's id (the detail ZIP groups by it). */
export interface RequisicaoDoRelatorio {
  idModuloServico: number;
  createdAt: string;
  servico: string;
  uf: string;
  chave: string;
  requestId: string;
}

/**
 * The charged requests of a client's month, from the request log, oldest first, optionally of one
 * service: what this report and the invoice's detail ZIP (functions/faturamento/detalhamento.ts) list.
 */
export async function requisicoesDoRelatorio(clienteId: string, mes: string, idModuloServico?: number): Promise<RequisicaoDoRelatorio[]> {
  const descricoes = new Map((await servicos.todos()).map((s) => [s.idModuloServico, s.descricao]));
  return (await store.requisicoesDoCliente(clienteId, mes))
    .filter((q) => idModuloServico === undefined || q.servico === idModuloServico)
    .map((q) => ({
      idModuloServico: q.servico,
      createdAt: q.createdAt,
      servico: descricoes.get(q.servico) ?? `Serviço ${q.servico}`,
      uf: q.uf,
      chave: q.chave,
      // The log's id is '<client>:<idempotency key>': the client sees its own key.
      requestId: q.requestId.startsWith(`${clienteId}:`) ? q.requestId.slice(clienteId.length + 1) : q.requestId,
    }));
}

export async function gerar(
  principal: Principal,
  idCliente: string,
  filtro: { idModuloServico?: number | undefined; mes?: string | undefined },
): Promise<{ nomeArquivo: string; url: string; requisicoes: number }> {
  const clienteId = clienteDoFiltro(principal, idCliente)!;
  const cliente = await clientes.clienteResumo(clienteId);
  if (!cliente) throw notFound();
  const mes = filtro.mes ?? monthOf(new Date());
  const requisicoes = await requisicoesDoRelatorio(clienteId, mes, filtro.idModuloServico);
  const conteudo = csv(linhasDoRelatorio({ cliente: { razaoSocial: cliente.razao_social, cnpj: cliente.cnpj }, mes, requisicoes }));
  const servico = filtro.idModuloServico === undefined ? '' : `-servico-${filtro.idModuloServico}`;
  const nomeArquivo = `relatorio-consumo-${cliente.cnpj}-${mes}${servico}.csv`;
  const key = `consumo/${clienteId}/${nomeArquivo}`;
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config.documentsBucket,
      Key: key,
      Body: Buffer.from(conteudo, 'utf8'),
      ContentType: 'text/csv; charset=utf-8',
      ContentDisposition: `attachment; filename="${nomeArquivo}"`,
    }),
  );
  return { nomeArquivo, url: await presignDownload(key, 'text/csv; charset=utf-8', { fileName: nomeArquivo }), requisicoes: requisicoes.length };
}
