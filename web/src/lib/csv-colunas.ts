/**
 * An export's columns and the pt-BR numbers they come out as, for both sides of the "Exportar CSV":
 * the lists (csv-export.ts, loaded with every list page) and the CSV writer (csv-gerar.ts, loaded on
 * the first export). Apart from both, so that the writer need not import the module that loads it.
 */

type Valor<T, V> = (linha: T) => V | null | undefined;

/** A column: its title on the screen and what it holds (text, money in centavos, a count, a date). */
export type ColunaCsv<T> = { titulo: string } & (
  | { texto: Valor<T, string> }
  | { centavos: Valor<T, number> }
  | { inteiro: Valor<T, number> }
  | { data: Valor<T, string> }
);

const milhares = (inteiro: bigint | number) => String(inteiro).replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** Integer centavos as a pt-BR number with 2 places and no symbol: 123456 → '1.234,56', -5 → '-0,05'. */
export function numeroCentavos(centavos: number): string {
  const abs = Math.abs(centavos);
  return `${centavos < 0 ? '-' : ''}${milhares(Math.trunc(abs / 100))},${String(abs % 100).padStart(2, '0')}`;
}

/** An integer as a pt-BR number: 1234567 → '1.234.567'. */
export function numeroInteiro(n: number): string {
  return `${n < 0 ? '-' : ''}${milhares(Math.abs(Math.trunc(n)))}`;
}
