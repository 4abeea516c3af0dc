import type { TipoNota } from '@plac/shared/domain';
import { MAX_NOTA_BYTES } from '@plac/shared/domain';
import type { MessageKey } from '@plac/shared/messages';
import { XMLValidator } from 'fast-xml-parser';

/**
 * A tax note's file is checked by what it holds, whatever its name says (a disguised file is refused
 * with the message of the type its name claims):
 * - at most MAX_NOTA_BYTES (4 MB);
 * - a PDF begins with the '%PDF-' header and ends with its '%%EOF' marker (within the last 1 KB, where
 *   PDF writers put it). Light on purpose: the file is stored as it came and handed out as an
 *   attachment, never rendered by the platform, so a full parse (pdf-lib, ~600 KB of bundle) buys little;
 * - an XML is UTF-8 text (a BOM allowed), starts with '<' and is well-formed (fast-xml-parser's
 *   XMLValidator). A DOCTYPE is refused: no NF-e/NFS-e has one, and entity tricks have no use here.
 * Answers the catalogue key that refuses it, or null when it passes.
 */
export function recusaDoConteudo(tipo: TipoNota, bytes: Uint8Array): MessageKey | null {
  if (bytes.length > MAX_NOTA_BYTES) return 'arquivoGrandeDemais';
  return tipo === 'pdf' ? recusaDoPdf(bytes) : recusaDoXml(bytes);
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

function recusaDoPdf(bytes: Uint8Array): MessageKey | null {
  if (latin1(bytes.subarray(0, 5)) !== '%PDF-') return 'conteudoNaoPdf';
  if (!latin1(bytes.subarray(Math.max(0, bytes.length - 1024))).includes('%%EOF')) return 'conteudoNaoPdf';
  return null;
}

function recusaDoXml(bytes: Uint8Array): MessageKey | null {
  let texto: string;
  try {
    texto = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return 'conteudoNaoXml';
  }
  texto = texto.trim();
  if (!texto.startsWith('<') || /<!DOCTYPE/i.test(texto)) return 'conteudoNaoXml';
  return XMLValidator.validate(texto) === true ? null : 'conteudoNaoXml';
}
