import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { consultasDoArquivo, consultasDoMarkdown, DOC_ARQUIVO } from '../lib/consultas-arquivo';

describe('consultasDoArquivo', () => {
  it('reads the three documented queries of docs/arquivo.md, in order, each with its heading', () => {
    const consultas = consultasDoArquivo();
    expect(consultas.map((c) => c.titulo)).toEqual([
      'Requisições cobradas de um cliente em um mês',
      'Entregas de webhook de uma chave',
      'Totais do mês por serviço e UF',
    ]);
    for (const c of consultas) {
      expect(c.sql).toMatch(/^(SELECT|WITH) /);
      expect(c.sql).not.toContain('```');
      // Every query names its client (the tables inject the client's partition: docs/arquivo.md).
      expect(c.sql).toMatch(/cliente = \?/);
    }
    // The whole block, up to its last line.
    expect(consultas[2]!.sql.split('\n').at(-1)).toBe('ORDER BY l.servico, l.uf');
    // Each block's text is in the document as written.
    const doc = readFileSync(DOC_ARQUIVO, 'utf8');
    for (const c of consultas) expect(doc).toContain('```sql\n' + c.sql + '\n```');
  });

  it('takes the nearest ### heading and ignores blocks of other languages', () => {
    const md = ['# Doc', '## Queries', '### Primeira', 'prose', '```sql', 'SELECT 1', '```', '```ts', 'const x = 1;', '```', '### Segunda ###', '```sql', 'SELECT 2', 'FROM t', '```'].join('\n');
    expect(consultasDoMarkdown(md)).toEqual([
      { titulo: 'Primeira', sql: 'SELECT 1' },
      { titulo: 'Segunda', sql: 'SELECT 2\nFROM t' },
    ]);
  });

  it('throws on a block without a heading of its own', () => {
    expect(() => consultasDoMarkdown('intro\n```sql\nSELECT 1\n```', 'x.md')).toThrow(/x\.md:2: .*without a ### heading/);
    // A heading names one block: a second one under it has none.
    expect(() => consultasDoMarkdown('### A\n```sql\nSELECT 1\n```\n```sql\nSELECT 2\n```')).toThrow(/without a ### heading/);
    // A section heading (##) after the ### ends what it named.
    expect(() => consultasDoMarkdown('### A\n## B\n```sql\nSELECT 1\n```')).toThrow(/without a ### heading/);
  });

  it('throws on a block never closed', () => {
    expect(() => consultasDoMarkdown('### A\n```sql\nSELECT 1\n', 'y.md')).toThrow(/y\.md:2: .*never closed/);
  });
});
