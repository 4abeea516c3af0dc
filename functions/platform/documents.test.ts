import { describe, expect, it } from 'vitest';
import { safeFileName } from './documents';

describe('safeFileName', () => {
  it.each([
    ['contrato_plac.pdf', 'contrato_plac.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\temp\\nota.xml', 'nota.xml'],
    ['ação "x".pdf', 'acao_x_.pdf'],
    ['', 'arquivo'],
  ])('%s → %s', (input, expected) => {
    expect(safeFileName(input)).toBe(expected);
  });
});
