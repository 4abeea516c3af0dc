/**
 * The lists' "Exportar CSV" (issue 28 item 7): the filtered rows, every page of them, as a CSV file with
 * the screen's column titles. The file rule (';', UTF-8 with BOM, formula-safe text) is
 * @plac/shared/domain/csv's; here each column (csv-colunas.ts) says what it holds, so that money comes
 * out as a pt-BR number (1.234,56, no 'R$'), counts as 1.234 and dates as dd/mm/aaaa.
 */
import { message } from '@plac/shared/messages';
import { numeroInteiro, type ColunaCsv } from './csv-colunas';
import { downloadText } from './download';
import { toast } from './toast';

export { numeroCentavos, numeroInteiro, type ColunaCsv } from './csv-colunas';

/** The most rows an export takes; a search with more is refused (refine the filters). */
export const EXPORTACAO_MAXIMA = 10_000;
/** The page size the export reads the cursor lists with (the largest they answer). */
export const EXPORTACAO_POR_PAGINA = 100;

/**
 * Saves the rows as `nomeArquivo`; no rows is said, not saved as an empty file. The CSV writer (and
 * papaparse with it) is fetched on the first export, not with every list page.
 */
export async function exportarCsv<T>(nomeArquivo: string, colunas: readonly ColunaCsv<T>[], linhas: readonly T[]): Promise<void> {
  if (linhas.length === 0) {
    toast.warn(message('exportacaoVazia'));
    return;
  }
  const { gerarCsv } = await import('./csv-gerar');
  downloadText(nomeArquivo, gerarCsv(colunas, linhas), 'text/csv;charset=utf-8');
}

/** One page of a cursor list (cursorPageOf). */
export interface PaginaCursor<T> {
  items: T[];
  nextCursor?: string | undefined;
  total?: number | undefined;
}

/**
 * Every row of a cursor list, page after page (`pagina(cursor)` reads one); null, said in a warning,
 * when there are more than `maximo` (the list's total, when it has one, tells so on the first page).
 */
export async function todasAsPaginas<T>(pagina: (cursor: string | undefined) => Promise<PaginaCursor<T>>, maximo = EXPORTACAO_MAXIMA): Promise<T[] | null> {
  const linhas: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await pagina(cursor);
    linhas.push(...p.items);
    cursor = p.nextCursor;
    if ((p.total ?? 0) > maximo || linhas.length > maximo || (cursor && linhas.length >= maximo)) {
      toast.warn(message('exportacaoLimite', { max: numeroInteiro(maximo) }));
      return null;
    }
  } while (cursor);
  return linhas;
}

