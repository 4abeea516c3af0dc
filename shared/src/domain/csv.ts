import Papa from 'papaparse';

/**
 * The CSV files the portal writes (issue 28 item 7, the lists' "Exportar CSV"): separator ';', lines
 * ended by CRLF, UTF-8 with a byte-order mark so that Excel in pt-BR opens the accents and the columns
 * right. Text cells are formula-safe (the OWASP CSV-injection rule): one starting with = + - @, a tab or
 * a carriage return gets a leading apostrophe, so a spreadsheet shows it as text and never runs it.
 * The cells that are numbers and dates formatted by us (csvNumero below) are written as they are.
 */

export const CSV_BOM = '\uFEFF';

const INICIO_PERIGOSO = /^[=+\-@\t\r]/;

/** A text cell made safe for a spreadsheet: "=1+1" → "'=1+1". */
export function celulaSegura(texto: string): string {
  return INICIO_PERIGOSO.test(texto) ? `'${texto}` : texto;
}

/** A cell already formatted by us as a number or date ("1.234,56", "-1,00", "10/06/2026"): not escaped. */
export interface CelulaFormatada {
  readonly formatada: string;
}

export type CelulaCsv = string | CelulaFormatada;

/** A number or date we formatted ourselves, written as it is (a negative number is not a formula). */
export const csvNumero = (formatada: string): CelulaFormatada => ({ formatada });

const celula = (c: CelulaCsv) => (typeof c === 'string' ? celulaSegura(c) : c.formatada);

/** The file's text: the BOM, the header and the rows, ';'-separated, quoted only where needed. */
export function escreverCsv(cabecalho: readonly string[], linhas: readonly (readonly CelulaCsv[])[]): string {
  return CSV_BOM + Papa.unparse({ fields: cabecalho.map(celulaSegura), data: linhas.map((l) => l.map(celula)) }, { delimiter: ';', newline: '\r\n', escapeFormulae: false });
}
