import { formatBRL, formatCnpj, formatDate, asCentavos } from '@plac/shared/domain';
import { emissorDae } from './config';
import { imagemI2of5 } from './barras';
import { formatarLinhaDigitavel } from './febraban';

/**
 * The DAE as a one-page A4 PDF (pdf-lib, standard Helvetica/Courier: WinAnsi covers Portuguese): the
 * issuer (the issuing state and its Sefaz), the taxpayer (client's company name and CNPJ), the reference month, the due date, the value,
 * the document paid as the client knows it, the DAE's number, the linha digitável and the barcode, an Interleaved 2 of 5 drawn by barras.ts as a
 * gray image. pdf-lib is imported on first use, so that a cold start of the billing function does not
 * evaluate it. The document carries no creation date (updateMetadata: false): the same
 * DAE always renders to the same bytes.
 */
export interface DadosDae {
  razaoSocial: string;
  cnpj: string;
  /** 'YYYY-MM'. */
  mes: string;
  /** 'YYYY-MM-DD'. */
  dtVencimento: string;
  /** Centavos. */
  valor: number;
  numero: number;
  codigoBarras: string;
  linhaDigitavel: string;
  /** What the DAE pays, as the client knows it: 'Fatura' or 'Pagamento antecipado' (with the month and client, camposDae). */
  rotulo: string;
}

/**
 * What the DAE prints, as the client knows it: the issuing state and its Sefaz, and the document it
 * pays by its kind, reference month and client ('Fatura de 09/2026 — BANCO X S.A.'), never the
 * platform's internal id ('202609-…', 'PA-…').
 */
export function camposDae(d: DadosDae): { titulo: string; emissor: string; campos: [string, string][] } {
  const [ano, mes] = d.mes.split('-');
  const referencia = `${mes}/${ano}`;
  return {
    titulo: 'DAE — Documento de Arrecadação Estadual',
    emissor: emissorDae(),
    campos: [
      ['Contribuinte', d.razaoSocial],
      ['CNPJ', formatCnpj(d.cnpj)],
      ['Referência', referencia],
      ['Documento', `${d.rotulo} de ${referencia} — ${d.razaoSocial}`],
      ['Número do DAE', String(d.numero)],
      ['Vencimento', formatDate(d.dtVencimento)],
      ['Valor a pagar', formatBRL(asCentavos(d.valor))],
    ],
  };
}

/** FEBRABAN's barcode on paper: about 103 mm × 13 mm (a 44-digit I2of5 at ~0.25 mm per narrow module). */
const MM = 72 / 25.4;
const BARRAS_LARGURA = 103 * MM;
const BARRAS_ALTURA = 13 * MM;

export async function daePdf(d: DadosDae): Promise<Uint8Array> {
  const { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`DAE ${String(d.numero)} — ${d.razaoSocial}`);
  pdf.setLanguage('pt-BR');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.CourierBold);
  const page = pdf.addPage([595.28, 841.89]);
  const preto = rgb(0.1, 0.1, 0.1);
  const margem = 48;
  const largura = page.getWidth() - 2 * margem;
  let y = page.getHeight() - margem;

  const { titulo, emissor, campos } = camposDae(d);
  page.drawText(titulo, { x: margem, y: (y -= 18), size: 16, font: bold, color: preto });
  page.drawText(emissor, { x: margem, y: (y -= 18), size: 10, font, color: preto });
  y -= 14;

  const linha = 26;
  for (const [rotulo, valor] of campos) {
    page.drawRectangle({ x: margem, y: y - linha, width: largura, height: linha, borderColor: rgb(0.6, 0.6, 0.6), borderWidth: 0.5 });
    page.drawText(rotulo, { x: margem + 6, y: y - 10, size: 7, font, color: preto });
    page.drawText(valor.slice(0, 90), { x: margem + 6, y: y - 21, size: 10, font: bold, color: preto });
    y -= linha;
  }

  y -= 30;
  page.drawText('Linha digitável', { x: margem, y, size: 8, font, color: preto });
  page.drawText(formatarLinhaDigitavel(d.linhaDigitavel), { x: margem, y: (y -= 16), size: 12, font: mono, color: preto });

  // The bars as a gray image XObject of one pixel row per module column, stretched to the printed
  // size with no smoothing (Interpolate false), so every bar keeps its exact share of the width.
  const barras = imagemI2of5(d.codigoBarras);
  const imagem = pdf.context.register(
    pdf.context.flateStream(barras.pixels, { Type: 'XObject', Subtype: 'Image', Width: barras.largura, Height: barras.altura, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Interpolate: false }),
  );
  y -= 14 + BARRAS_ALTURA;
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(BARRAS_LARGURA, 0, 0, BARRAS_ALTURA, margem, y), drawObject(page.node.newXObject('Barras', imagem)), popGraphicsState());
  page.drawText('Pague em qualquer agência ou canal dos bancos arrecadadores até a data de vencimento.', { x: margem, y: y - 18, size: 8, font, color: preto });
  return pdf.save();
}
