/**
 * The evidence archive's documented queries (issue 41): docs/arquivo.md is their one source. Each
 * ```sql fenced block there is a query, named by the `### ` heading above it; the CDK app saves each as
 * an Athena named query (constructs/arquivo-consultas.ts) and the tests run the same text with DuckDB.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

export interface ConsultaDoArquivo {
  /** The `### ` heading above the block (the named query's name). */
  readonly titulo: string;
  /** The block's text, as written (no trailing newline). */
  readonly sql: string;
}

/** docs/arquivo.md, from the repository root (paths.ts): the same file whatever the working directory. */
export const DOC_ARQUIVO = join(repoRoot, 'docs', 'arquivo.md');

/** The ```sql blocks of docs/arquivo.md, in order, each with its heading. */
export function consultasDoArquivo(arquivo: string = DOC_ARQUIVO): ConsultaDoArquivo[] {
  return consultasDoMarkdown(readFileSync(arquivo, 'utf8'), arquivo);
}

/**
 * The parser, apart for its tests. A block takes the nearest `### ` heading above it, and a heading names
 * one block only: a second block under it, a block after a heading of another level (`## `) or before
 * any heading is an error, as is a block never closed; a query without a name would be saved nameless.
 */
export function consultasDoMarkdown(markdown: string, origem = 'markdown'): ConsultaDoArquivo[] {
  const consultas: ConsultaDoArquivo[] = [];
  let titulo: string | undefined;
  let bloco: { linha: number; linhas: string[]; sql: boolean } | undefined;
  const linhas = markdown.split(/\r?\n/);
  linhas.forEach((linha, i) => {
    if (bloco) {
      // A fence closes with at least three backticks and nothing else (CommonMark).
      if (/^\s{0,3}```+\s*$/.test(linha)) {
        if (bloco.sql) {
          if (titulo === undefined) throw new Error(`${origem}:${bloco.linha}: a \`\`\`sql block without a ### heading above it`);
          consultas.push({ titulo, sql: bloco.linhas.join('\n').trim() });
          titulo = undefined;
        }
        bloco = undefined;
      } else {
        bloco.linhas.push(linha);
      }
      return;
    }
    const abertura = /^\s{0,3}```+\s*([^\s`]*)/.exec(linha);
    if (abertura) {
      bloco = { linha: i + 1, linhas: [], sql: abertura[1]!.toLowerCase() === 'sql' };
      return;
    }
    const cabecalho = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(linha);
    if (cabecalho) titulo = cabecalho[1] === '###' ? cabecalho[2] : undefined;
  });
  if (bloco) throw new Error(`${origem}:${bloco.linha}: a fenced block is never closed`);
  return consultas;
}
