import { MAX_NOTA_BYTES, tipoNotaDoNome } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { recusaDoConteudo } from './conteudo-nota';

const bytes = (s: string) => new TextEncoder().encode(s);
const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
const XML = '<?xml version="1.0" encoding="UTF-8"?><NFSe><infNFSe Id="N1"><nNFSe>12</nNFSe></infNFSe></NFSe>';

describe('the tax note file rules', () => {
  it('accepts only .pdf and .xml names, by the last extension, any case', () => {
    expect(tipoNotaDoNome('nota.PDF')).toBe('pdf');
    expect(tipoNotaDoNome(' nota 12.xml ')).toBe('xml');
    expect(tipoNotaDoNome('nota.pdf.exe')).toBeNull();
    expect(tipoNotaDoNome('nota.xml.txt')).toBeNull();
    expect(tipoNotaDoNome('pdf')).toBeNull();
  });

  it('passes a PDF with its header and end marker, and a well-formed XML (with or without a BOM)', () => {
    expect(recusaDoConteudo('pdf', bytes(PDF))).toBeNull();
    expect(recusaDoConteudo('xml', bytes(XML))).toBeNull();
    expect(recusaDoConteudo('xml', bytes(`\uFEFF${XML}`))).toBeNull();
  });

  it('refuses disguised and broken content with the message of the type the name claims', () => {
    expect(recusaDoConteudo('pdf', bytes(XML))).toBe('conteudoNaoPdf');
    expect(recusaDoConteudo('pdf', bytes('%PDF-1.4 truncated, no end marker'))).toBe('conteudoNaoPdf');
    expect(recusaDoConteudo('pdf', bytes(`MZ${PDF}`))).toBe('conteudoNaoPdf');
    expect(recusaDoConteudo('xml', bytes(PDF))).toBe('conteudoNaoXml');
    expect(recusaDoConteudo('xml', bytes('<NFSe><nNFSe>12</NFSe>'))).toBe('conteudoNaoXml');
    expect(recusaDoConteudo('xml', bytes('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'))).toBe('conteudoNaoXml');
    expect(recusaDoConteudo('xml', new Uint8Array([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x61, 0x3e]))).toBe('conteudoNaoXml');
    expect(recusaDoConteudo('xml', new Uint8Array())).toBe('conteudoNaoXml');
  });

  it('refuses a file over 4 MB whatever it holds', () => {
    const grande = new Uint8Array(MAX_NOTA_BYTES + 1);
    grande.set(bytes(PDF));
    expect(recusaDoConteudo('pdf', grande)).toBe('arquivoGrandeDemais');
  });
});
