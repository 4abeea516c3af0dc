import { formatCep, formatCnpj, formatTelefone } from '@plac/shared/domain';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { invalid, notFound } from '../platform/errors';
import * as store from './store';
import type { ClienteRecord } from './store';

/**
 * The client's adhesion contract as a real PDF (pdf-lib, standard Helvetica: WinAnsi covers
 * Portuguese), filled with the client's data. The clauses are the platform's standard terms.
 */
const CLAUSULAS: [string, string][] = [
  [
    'CLÁUSULA PRIMEIRA — DO OBJETO',
    'O presente contrato tem por objeto a adesão da CONTRATANTE à Plataforma PLAC Fat-e, por meio da qual a Secretaria da Fazenda disponibiliza a consulta a dados de faturas eletrônicas (Fat-e) e de documentos fiscais eletrônicos, pelo portal e pela API de integração, nos termos da legislação aplicável e do consentimento dos emissores.',
  ],
  [
    'CLÁUSULA SEGUNDA — DAS OBRIGAÇÕES DA CONTRATANTE',
    'A CONTRATANTE utilizará os dados exclusivamente para a análise de recebíveis em operações de crédito, manterá o sigilo das informações obtidas, protegerá as credenciais e certificados digitais de seus usuários e responderá pelo uso indevido da plataforma por seus prepostos.',
  ],
  [
    'CLÁUSULA TERCEIRA — DA REMUNERAÇÃO',
    'As consultas serão apuradas mensalmente por serviço e por unidade federativa de origem e cobradas conforme as faixas de cobrança e tarifas vigentes, observada a assinatura mínima, mediante Documento de Arrecadação Estadual (DAE) com vencimento no dia 15 do mês seguinte ao de referência.',
  ],
  [
    'CLÁUSULA QUARTA — DA VIGÊNCIA',
    'Este contrato vigora por prazo indeterminado a partir da liberação do acesso, podendo ser rescindido por qualquer das partes mediante comunicação com antecedência de 30 (trinta) dias, sem prejuízo da cobrança dos serviços já prestados.',
  ],
  [
    'CLÁUSULA QUINTA — DA PROTEÇÃO DE DADOS',
    'As partes observarão a Lei nº 13.709/2018 (LGPD) e a legislação tributária sobre sigilo fiscal, tratando os dados pessoais apenas para as finalidades deste contrato.',
  ],
  ['CLÁUSULA SEXTA — DO FORO', 'Fica eleito o foro da comarca da capital da unidade federativa da Secretaria da Fazenda contratada.'],
];

export async function contratoPdf(c: ClienteRecord, hoje: Date): Promise<Uint8Array> {
  // Imported on first use: a cold start of the clients function does not evaluate pdf-lib.
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Contrato PLAC Fat-e — ${c.razaoSocial}`);
  pdf.setAuthor('PLAC Fat-e');
  pdf.setLanguage('pt-BR');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const writer = new Writer(pdf, font, bold, { title: rgb(0.08, 0.33, 0.17), text: rgb(0.1, 0.1, 0.1) });

  writer.title('CONTRATO DE ADESÃO À PLATAFORMA PLAC Fat-e');
  writer.gap(8);
  writer.paragraph('CONTRATANTE', bold);
  const endereco = [c.logradouro, c.numero, c.complemento, c.bairro, c.cidade && `${c.cidade}/${c.uf ?? ''}`, c.cep && `CEP ${formatCep(c.cep)}`]
    .filter(Boolean)
    .join(', ');
  writer.paragraph(
    `${c.razaoSocial}, inscrita no CNPJ sob o nº ${formatCnpj(c.cnpj)}, tipo ${c.tipoCliente}` +
      (endereco ? `, com sede em ${endereco}` : '') +
      (c.nomeResponsavel ? `, neste ato representada por ${c.nomeResponsavel}` : '') +
      `, e-mail ${c.email}${c.telefone ? `, telefone ${formatTelefone(c.telefone)}` : ''}.`,
  );
  writer.gap(6);
  writer.paragraph('CONTRATADA', bold);
  writer.paragraph('Secretaria da Fazenda, gestora da Plataforma PLAC Fat-e, por meio do seu administrador.');
  writer.gap(10);
  for (const [titulo, texto] of CLAUSULAS) {
    writer.paragraph(titulo, bold);
    writer.paragraph(texto);
    writer.gap(6);
  }
  const data = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeZone: 'America/Bahia' }).format(hoje);
  writer.gap(10);
  writer.paragraph(`Emitido em ${data}.`);
  writer.gap(36);
  writer.paragraph('_____________________________________________          _____________________________________________');
  writer.paragraph(`${c.razaoSocial.slice(0, 44).padEnd(58)}Secretaria da Fazenda`);
  return pdf.save();
}

/** Lays text out on A4 pages with word wrap and page breaks. */
class Writer {
  private page: PDFPage;
  private y: number;
  private static readonly MARGIN = 56;
  private static readonly SIZE = 10.5;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
    private readonly colors: { title: Color; text: Color },
  ) {
    this.page = pdf.addPage([595.28, 841.89]);
    this.y = this.page.getHeight() - Writer.MARGIN;
  }

  title(text: string) {
    const size = 14;
    const width = this.bold.widthOfTextAtSize(text, size);
    this.ensure(size * 1.5);
    this.page.drawText(text, { x: (this.page.getWidth() - width) / 2, y: this.y, size, font: this.bold, color: this.colors.title });
    this.y -= size * 1.6;
  }

  paragraph(text: string, font: PDFFont = this.font) {
    const size = Writer.SIZE;
    const maxWidth = this.page.getWidth() - 2 * Writer.MARGIN;
    let line = '';
    for (const word of text.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) > maxWidth && line) {
        this.line(line, font);
        line = word;
      } else {
        line = candidate;
      }
    }
    if (line) this.line(line, font);
  }

  gap(points: number) {
    this.y -= points;
  }

  private line(text: string, font: PDFFont) {
    this.ensure(Writer.SIZE * 1.45);
    this.page.drawText(text, { x: Writer.MARGIN, y: this.y, size: Writer.SIZE, font, color: this.colors.text });
    this.y -= Writer.SIZE * 1.45;
  }

  private ensure(height: number) {
    if (this.y - height < Writer.MARGIN) {
      this.page = this.pdf.addPage([595.28, 841.89]);
      this.y = this.page.getHeight() - Writer.MARGIN;
    }
  }
}

/**
 * The route's answer: the client's contract as a base64 PDF. It lives here, not in service.ts, so
 * that the contexts that read clients through the service (users, auth) do not bundle pdf-lib.
 */
export async function contratoDoCliente(clienteId: string) {
  const c = await store.findCliente(clienteId);
  if (!c) throw notFound();
  if (c.tipoCliente === 'SHOPPING') throw invalid('contratoIndisponivel');
  const bytes = await contratoPdf(c, new Date());
  return { nome: 'contrato_plac.pdf' as const, arquivo: Buffer.from(bytes).toString('base64') };
}
