import { inflateSync } from 'node:zlib';
import { scanGrayBuffer } from '@undecaf/zbar-wasm';
import { PDFDocument, PDFName, PDFRawStream, type PDFNumber, type PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { campoLivre } from './config';
import { codigoBarrasValido, linhaDigitavel, montarCodigoBarras } from './febraban';
import { camposDae, daePdf, type DadosDae } from './pdf';

/**
 * The DAE's PDF: its barcode image is taken back out of the document (the image XObject pdf-lib wrote),
 * decoded by zbar (WebAssembly) as Interleaved 2 of 5, and the 44 digits read must be the DAE's, with
 * check digits that verify.
 */

function dae(identificadorValor: '6' | '8'): DadosDae {
  const codigoBarras = montarCodigoBarras({ segmento: '5', identificadorValor, valorCentavos: 750_60, codigoOrgao: '0001', campoLivre: campoLivre('2026-12-15', '2026-11', 123) });
  return { razaoSocial: 'BANCO DE TESTE S.A.', cnpj: '12345678000195', mes: '2026-11', dtVencimento: '2026-12-15', valor: 750_60, numero: 123, codigoBarras, linhaDigitavel: linhaDigitavel(codigoBarras), rotulo: 'Fatura' };
}

/**
 * The text the page draws: pdf-lib writes each drawText as a hex string in WinAnsi (`<…> Tj`) in the
 * page's Flate content stream; decoded here as latin1 (WinAnsi's 0x80–0x9F, such as the em dash 0x97,
 * mapped back by hand).
 */
async function textoDoPdf(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const winAnsi: Record<number, string> = { 0x97: '—', 0x96: '–' };
  const textos: string[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream) || obj.dict.get(PDFName.of('Subtype'))) continue;
    const conteudo = inflateSync(obj.contents).toString('latin1');
    for (const m of conteudo.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) {
      const b = Buffer.from(m[1]!, 'hex');
      textos.push([...b].map((c) => winAnsi[c] ?? String.fromCharCode(c)).join(''));
    }
  }
  return textos;
}

/** The gray pixels of the document's only image (8 bits per component, Flate, DeviceRGB or DeviceGray). */
async function imagemDoPdf(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  const objetos = doc.context.enumerateIndirectObjects();
  const todas = objetos.filter((e): e is [PDFRef, PDFRawStream] => e[1] instanceof PDFRawStream && e[1].dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
  // An image's alpha channel is another image, its /SMask: leave those out.
  const mascaras = new Set(todas.map(([, img]) => img.dict.get(PDFName.of('SMask'))).filter(Boolean));
  const imagens = todas.filter(([ref]) => !mascaras.has(ref)).map(([, img]) => img);
  expect(imagens).toHaveLength(1);
  const { dict, contents } = imagens[0]!;
  const width = (dict.get(PDFName.of('Width')) as PDFNumber).asNumber();
  const height = (dict.get(PDFName.of('Height')) as PDFNumber).asNumber();
  expect((dict.get(PDFName.of('BitsPerComponent')) as PDFNumber).asNumber()).toBe(8);
  const raw = inflateSync(contents);
  const canais = raw.length / (width * height);
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = raw[i * canais]!;
  return { gray, width, height };
}

describe('the DAE PDF', () => {
  for (const id of ['6', '8'] as const) {
    it(`carries a barcode that decodes to the 44 digits, whose check digits verify (value id ${id})`, async () => {
      const d = dae(id);
      const bytes = await daePdf(d);
      expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      const { gray, width, height } = await imagemDoPdf(bytes);
      const symbols = await scanGrayBuffer(gray.buffer, width, height);
      const lidos = symbols.filter((s) => s.typeName === 'ZBAR_I25').map((s) => s.decode());
      expect(lidos).toEqual([d.codigoBarras]);
      expect(codigoBarrasValido(lidos[0]!)).toBe(true);
    });
  }

  it('names the issuing state and its Sefaz, and the invoice by month and client, not by its internal id', async () => {
    const d = dae('6');
    const { emissor, campos } = camposDae(d);
    expect(emissor).toBe('Estado da Bahia — Secretaria da Fazenda (SEFAZ-BA)');
    expect(campos).toContainEqual(['Documento', 'Fatura de 11/2026 — BANCO DE TESTE S.A.']);
    expect(campos).toContainEqual(['Referência', '11/2026']);
    const texto = await textoDoPdf(await daePdf(d));
    expect(texto).toContain('Estado da Bahia — Secretaria da Fazenda (SEFAZ-BA)');
    expect(texto).toContain('Fatura de 11/2026 — BANCO DE TESTE S.A.');
    expect(texto).toContain('Número do DAE');
    expect(texto.join('\n')).not.toContain('202611-cli-1');
  });

  it('prints a prepaid DAE as "Pagamento antecipado" of its month and client', () => {
    const { campos } = camposDae({ ...dae('6'), rotulo: 'Pagamento antecipado' });
    expect(campos).toContainEqual(['Documento', 'Pagamento antecipado de 11/2026 — BANCO DE TESTE S.A.']);
  });

  it('renders the same DAE to the same bytes (no creation date)', async () => {
    const d = dae('6');
    expect(Buffer.compare(Buffer.from(await daePdf(d)), Buffer.from(await daePdf(d)))).toBe(0);
  });
});
