import Papa from 'papaparse';
import type { MessageKey } from '../messages';
import { LOTE_MAXIMO_LINHAS } from './consultas';

/**
 * The CSV batches' file rule (spec 3, 3.13 and 5.4), the same in the portal (which reads the file and
 * says what is wrong before sending anything) and in the API (which never trusts the portal):
 * a semicolon-separated file whose header names the layout's columns in their fixed order; at most
 * LOTE_MAXIMO_LINHAS data lines are looked up, those after them ignored, and a line repeated among
 * them counted once. Blank lines are skipped.
 */

export const LAYOUTS_LOTE = {
  chave: ['CHNFE'],
  chaveComposta: ['CNPJ_EMISSOR', 'CNPJ_DESTINATARIO', 'DATA_VENCIMENTO_PARCELA', 'VALOR_PARCELA', 'NUMERO_PARCELA'],
  faturamento: ['CNPJ_BASE_INST_FIN', 'CNPJ_EMIT', 'DATA_INICIO', 'DATA_FIM'],
} as const;
export type LayoutLote = keyof typeof LAYOUTS_LOTE;

export interface LoteLido {
  /** The cells of each data line to look up, in file order. */
  linhas: string[][];
  /** Data lines after the first LOTE_MAXIMO_LINHAS, not looked up. */
  ignoradas: number;
  /** Repeats among the looked-up lines, counted once. */
  duplicadas: number;
}

export type LoteRecusado = { erro: Extract<MessageKey, 'csvVazio' | 'csvCabecalhoInvalido' | 'csvSeparadorInvalido'>; vars?: Record<string, string> };

/** The text of a file, split in lines (CRLF or LF; a leading byte-order mark dropped). */
export function linhasDoArquivo(texto: string): string[] {
  return texto.replace(/^\uFEFF/, '').split(/\r?\n/);
}

function celulas(linha: string): string[] {
  const parsed = Papa.parse<string[]>(linha, { delimiter: ';', skipEmptyLines: false });
  return (parsed.data[0] ?? []).map((c) => c.trim());
}

export function lerLote(layout: LayoutLote, linhasDoArquivo: readonly string[]): LoteLido | LoteRecusado {
  const colunas = LAYOUTS_LOTE[layout];
  const naoVazias = linhasDoArquivo.map((l, i) => (i === 0 ? l.replace(/^\uFEFF/, '') : l)).filter((l) => l.trim() !== '');
  const [cabecalho, ...dados] = naoVazias;
  if (cabecalho === undefined) return { erro: 'csvVazio' };
  // A comma file: its header has commas and no semicolon (a one-column layout shows it in the data too).
  if (!cabecalho.includes(';') && (cabecalho.includes(',') || (colunas.length === 1 && dados.some((l) => l.includes(','))))) {
    return { erro: 'csvSeparadorInvalido' };
  }
  const nomes = celulas(cabecalho).map((c) => c.toUpperCase());
  if (nomes.length !== colunas.length || nomes.some((n, i) => n !== colunas[i])) {
    return { erro: 'csvCabecalhoInvalido', vars: { cabecalho: colunas.join(';') } };
  }
  if (dados.length === 0) return { erro: 'csvVazio' };
  const consideradas = dados.slice(0, LOTE_MAXIMO_LINHAS);
  const vistas = new Set<string>();
  const linhas: string[][] = [];
  for (const linha of consideradas) {
    const cells = celulas(linha);
    const chave = cells.map((c) => c.toUpperCase()).join(';');
    if (vistas.has(chave)) continue;
    vistas.add(chave);
    linhas.push(cells);
  }
  return { linhas, ignoradas: dados.length - consideradas.length, duplicadas: consideradas.length - linhas.length };
}

export function loteRecusado(lido: LoteLido | LoteRecusado): lido is LoteRecusado {
  return 'erro' in lido;
}
