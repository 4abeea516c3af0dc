import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../platform/errors';
import { pdfDoArquivo } from './service';

/** A one-page PDF written by hand: the smallest document a PDF reader opens. */
const ONE_PAGE_PDF =
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

/** The signed authorisation is checked by what it is, not by its name or its first bytes. */
describe('pdfDoArquivo', () => {
  const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
  const refused = async (arquivo: string, nome: string) => {
    try {
      await pdfDoArquivo(arquivo, nome);
    } catch (error) {
      return error instanceof HttpError ? [error.status, error.key] : error;
    }
    return null;
  };

  it('accepts a PDF, bare or as a data URL', async () => {
    expect((await pdfDoArquivo(b64(ONE_PAGE_PDF), 'a.pdf')).toString('latin1')).toBe(ONE_PAGE_PDF);
    expect((await pdfDoArquivo(`data:application/pdf;base64,${b64(ONE_PAGE_PDF)}`, 'a.PDF')).length).toBe(ONE_PAGE_PDF.length);
  });

  it('refuses another extension with the extension message', async () => {
    expect(await refused(b64(ONE_PAGE_PDF), 'a.txt')).toEqual([400, 'somentePdf']);
  });

  it('refuses content that is not a PDF under a .pdf name with the content message', async () => {
    const png = new PNG({ width: 1, height: 1 });
    expect(await refused(PNG.sync.write(png).toString('base64'), 'foto.pdf')).toEqual([400, 'conteudoNaoPdf']);
    expect(await refused(b64('%PDF-<html><script>alert(1)</script></html>'), 'a.pdf')).toEqual([400, 'conteudoNaoPdf']);
    expect(await refused(b64('MZ\x90 executable'), 'a.pdf')).toEqual([400, 'conteudoNaoPdf']);
    expect(await refused('***', 'a.pdf')).toEqual([400, 'conteudoNaoPdf']);
    expect(await refused(b64('%PD'), 'a.pdf')).toEqual([400, 'conteudoNaoPdf']);
  });

  it('refuses more than 4 MB with the size message', async () => {
    const big = Buffer.concat([Buffer.from(ONE_PAGE_PDF), Buffer.alloc(Math.round(4.4 * 1024 * 1024))]);
    expect(await refused(big.toString('base64'), 'a.pdf')).toEqual([400, 'arquivoGrandeDemais']);
  });
});
