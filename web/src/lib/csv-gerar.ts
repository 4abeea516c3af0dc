import { csvNumero, escreverCsv, type CelulaCsv } from '@plac/shared/domain/csv';
import { numeroCentavos, numeroInteiro, type ColunaCsv } from './csv-colunas';
import { formatDate } from './format';

/**
 * The CSV text of a list's export (csv-export.ts loads this module on the first export): each column
 * as it says it holds, money as a pt-BR number, counts with thousands, dates as dd/mm/aaaa; the file
 * rule (';', BOM, formula-safe text) is @plac/shared/domain/csv's.
 */

function celula<T>(coluna: ColunaCsv<T>, linha: T): CelulaCsv {
  if ('texto' in coluna) return coluna.texto(linha) ?? '';
  if ('centavos' in coluna) {
    const v = coluna.centavos(linha);
    return v == null || !Number.isFinite(v) ? '' : csvNumero(numeroCentavos(v));
  }
  if ('inteiro' in coluna) {
    const v = coluna.inteiro(linha);
    return v == null || !Number.isFinite(v) ? '' : csvNumero(numeroInteiro(v));
  }
  const v = coluna.data(linha);
  return v ? csvNumero(formatDate(v)) : '';
}

/** The CSV text of the rows: BOM, the titles, one line per row. */
export function gerarCsv<T>(colunas: readonly ColunaCsv<T>[], linhas: readonly T[]): string {
  return escreverCsv(
    colunas.map((c) => c.titulo),
    linhas.map((l) => colunas.map((c) => celula(c, l))),
  );
}
