import { describe, expect, it } from 'vitest';
import { HttpError } from '../platform/errors';
import { pdfDoArquivo } from './service';

/** The signed authorisation is checked by content (ARCHITECTURE section 6), not by its name alone. */
describe('pdfDoArquivo', () => {
  const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
  const refused = (arquivo: string, nome: string) => {
    try {
      pdfDoArquivo(arquivo, nome);
    } catch (error) {
      return error instanceof HttpError ? [error.status, error.key] : error;
    }
    return null;
  };

  it('accepts a PDF, bare or as a data URL', () => {
    expect(pdfDoArquivo(b64('%PDF-1.7 x'), 'a.pdf').subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfDoArquivo(`data:application/pdf;base64,${b64('%PDF-1.4')}`, 'a.PDF').length).toBe(8);
  });

  it('refuses another content under a .pdf name, another extension, and what is not base64', () => {
    expect(refused(b64('MZ\x90 executable'), 'a.pdf')).toEqual([400, 'somentePdf']);
    expect(refused(b64('%PDF-1.7'), 'a.txt')).toEqual([400, 'somentePdf']);
    expect(refused('***', 'a.pdf')).toEqual([400, 'somentePdf']);
    expect(refused(b64('%PD'), 'a.pdf')).toEqual([400, 'somentePdf']);
  });

  it('refuses more than 4 MB', () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7'), Buffer.alloc(4 * 1024 * 1024)]);
    expect(refused(big.toString('base64'), 'a.pdf')).toEqual([400, 'arquivoGrandeDemais']);
  });
});
