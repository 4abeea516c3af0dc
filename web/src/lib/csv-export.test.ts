import { afterEach, describe, expect, it, vi } from 'vitest';
import { numeroCentavos, numeroInteiro, todasAsPaginas, type ColunaCsv } from './csv-export';
import { gerarCsv } from './csv-gerar';

interface Linha {
  nome: string;
  valor: number | null;
  qtd: number;
  dia: string | null;
}

const colunas: ColunaCsv<Linha>[] = [
  { titulo: 'Nome', texto: (l) => l.nome },
  { titulo: 'Valor Total', centavos: (l) => l.valor },
  { titulo: 'Requisições', inteiro: (l) => l.qtd },
  { titulo: 'Data do retorno', data: (l) => l.dia },
];

describe('csv-export', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('writes the BOM, the titles and the rows separated by ";" with CRLF, numbers and dates in pt-BR', () => {
    const csv = gerarCsv(colunas, [
      { nome: 'Banco Demo S.A.', valor: 123456, qtd: 1234567, dia: '2026-06-10' },
      { nome: 'Ação; "Filial"', valor: null, qtd: 0, dia: null },
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Nome;Valor Total;Requisições;Data do retorno',
      'Banco Demo S.A.;1.234,56;1.234.567;10/06/2026',
      '"Ação; ""Filial""";;0;',
    ]);
    expect(csv).not.toContain('R$');
  });

  it('escapes the cells a spreadsheet would run as a formula, not the numbers it formatted', () => {
    const csv = gerarCsv(colunas, [
      { nome: '=HYPERLINK("http://x")', valor: -500, qtd: -3, dia: null },
      { nome: '+1', valor: 5, qtd: 1, dia: null },
      { nome: '-2', valor: 0, qtd: 1, dia: null },
      { nome: '@SUM(A1)', valor: 0, qtd: 1, dia: null },
      { nome: '\tx', valor: 0, qtd: 1, dia: null },
      { nome: '\rx', valor: 0, qtd: 1, dia: null },
      { nome: 'a=b', valor: 0, qtd: 1, dia: null },
    ]);
    const linhas = csv.slice(1).split('\r\n').slice(1);
    expect(linhas[0]).toBe(`"'=HYPERLINK(""http://x"")";-5,00;-3;`);
    expect(linhas[1]).toBe("'+1;0,05;1;");
    expect(linhas[2]).toBe("'-2;0,00;1;");
    expect(linhas[3]).toBe("'@SUM(A1);0,00;1;");
    expect(linhas[4]).toBe("'\tx;0,00;1;");
    expect(linhas[5]).toBe('"\'\rx";0,00;1;');
    expect(linhas[6]).toBe('a=b;0,00;1;');
  });

  it('formats centavos and counts without floats or symbols', () => {
    expect(numeroCentavos(5)).toBe('0,05');
    expect(numeroCentavos(100_000_000_01)).toBe('100.000.000,01');
    expect(numeroCentavos(-123456)).toBe('-1.234,56');
    expect(numeroInteiro(999)).toBe('999');
    expect(numeroInteiro(1000)).toBe('1.000');
  });

  it('reads every page of a cursor list, and refuses more rows than the maximum', async () => {
    const paginas: Record<string, { items: number[]; nextCursor?: string }> = {
      '': { items: [1, 2], nextCursor: 'b' },
      b: { items: [3, 4], nextCursor: 'c' },
      c: { items: [5] },
    };
    const pagina = vi.fn(async (cursor: string | undefined) => paginas[cursor ?? '']!);
    expect(await todasAsPaginas(pagina)).toEqual([1, 2, 3, 4, 5]);
    expect(pagina.mock.calls.map((c) => c[0])).toEqual([undefined, 'b', 'c']);
    expect(await todasAsPaginas(pagina, 4)).toBeNull();
    expect(await todasAsPaginas(async () => ({ items: [1], nextCursor: 'x', total: 50 }), 10)).toBeNull();
  });
});
