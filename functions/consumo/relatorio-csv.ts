import { formatCnpj, formatMonth } from '@plac/shared/domain';
import Papa from 'papaparse';

/**
 * The consumption report of consumo-cliente, built here and not in the browser: the client's request
 * log of the month (one row per charged request: date and time in Bahia, service, origin UF, access key
 * or batch line, request id), then the totals by service and UF and the month's total. A CSV for
 * Excel: ';' separated, UTF-8 with a BOM, CRLF, and no cell that a spreadsheet would run as a formula.
 * The file is written by a report job (relatorio-job.ts), page by page of the log into an S3 multipart
 * upload (`consumo/<client>/<uuid>/…`, one object per report, kept a week), and handed out as a
 * presigned URL once done: a busy client's month fits neither a Lambda answer (6 MB) nor its memory.
 * The pieces below (heading, a page of lines, the totals) are what the job writes one after another.
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
let bahia: Intl.DateTimeFormat | undefined;
// Built on first use, as shared/src/domain/dates.ts's: a formatter's locale data costs a cold start ms.
const BAHIA = () =>
  (bahia ??= new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Bahia',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }));
const dataHora = (iso: string) => BAHIA().format(new Date(iso)).replace(',', '');

export interface Relatorio {
  cliente: { razaoSocial: string; cnpj: string };
  mes: string;
  requisicoes: { createdAt: string; servico: string; uf: string; chave: string; requestId: string }[];
}

/** The report's heading: title, client, CNPJ, month, a blank line and the columns of the request lines. */
export function cabecalhoDoRelatorio(cliente: { razaoSocial: string; cnpj: string }, mes: string): (string | number)[][] {
  return [['Relatório de consumo'], ['Cliente', cliente.razaoSocial], ['CNPJ', formatCnpj(cliente.cnpj)], ['Mês', formatMonth(mes)], [], ['Data/Hora', 'Serviço', 'UF', 'Chave', 'Requisição']];
}

/** One request's line. */
export function linhaDaRequisicao(q: Pick<RequisicaoDoRelatorio, 'createdAt' | 'servico' | 'uf' | 'chave' | 'requestId'>): (string | number)[] {
  return [dataHora(q.createdAt), q.servico, q.uf, q.chave, q.requestId];
}

/** The key of the totals' counter of a request: service and UF (bounded: services × 27 UFs). */
export const chaveDoTotal = (servico: string, uf: string) => `${servico}\u0000${uf}`;

/** After the lines: a blank line, the totals by service and UF (sorted as pt-BR), the month's total. */
export function rodapeDoRelatorio(totais: Iterable<[string, number]>, total: number): (string | number)[][] {
  return [
    [],
    ['Serviço', 'UF', 'Requisições'],
    ...[...totais]
      .sort(([a], [b]) => a.localeCompare(b, 'pt-BR'))
      .map(([chave, n]) => {
        const [servico, uf] = chave.split('\u0000');
        return [servico!, uf!, n];
      }),
    ['Total', '', total],
  ];
}

/**
 * A piece of the CSV: the first one starts with the BOM, every later one with the CRLF that ends the
 * line before it, so that pieces written one after another are exactly `csv()` of all their lines.
 */
export function pedacoCsv(linhas: (string | number)[][], primeiro: boolean): string {
  if (linhas.length === 0) return '';
  return (primeiro ? BOM : '\r\n') + Papa.unparse(linhas.map((l) => l.map(celulaSegura)), { delimiter: ';', newline: '\r\n', quotes: false });
}

/** The report's lines: the heading, one line per request, the totals by service and UF, the total. */
export function linhasDoRelatorio(r: Relatorio): (string | number)[][] {
  const totais = new Map<string, number>();
  for (const q of r.requisicoes) totais.set(chaveDoTotal(q.servico, q.uf), (totais.get(chaveDoTotal(q.servico, q.uf)) ?? 0) + 1);
  return [...cabecalhoDoRelatorio(r.cliente, r.mes), ...r.requisicoes.map(linhaDaRequisicao), ...rodapeDoRelatorio(totais, r.requisicoes.length)];
}

/** One charged request as the reports show it, with its service's id. */
export interface RequisicaoDoRelatorio {
  idModuloServico: number;
  createdAt: string;
  servico: string;
  uf: string;
  chave: string;
  requestId: string;
}
