/**
 * An invoice's tax note (spec 2 sections 2.9, 3 and 5): a PDF and an XML, uploaded by the
 * administrator. The rules both the portal and the API apply before any content is looked at.
 */

export type TipoNota = 'pdf' | 'xml';

/** Spec 2 section 5: only .pdf and .xml are accepted (by the name's last extension, any case). */
export function tipoNotaDoNome(nome: string): TipoNota | null {
  const m = /\.(pdf|xml)$/i.exec(nome.trim());
  return m ? (m[1]!.toLowerCase() as TipoNota) : null;
}

/** Ours: either file of a tax note is at most 4 MB (a DANFSe or an NFS-e XML is a few hundred KB). */
export const MAX_NOTA_BYTES = 4 * 1024 * 1024;

/** The content type each file is stored and handed out with. */
export const CONTENT_TYPE_NOTA: Record<TipoNota, string> = { pdf: 'application/pdf', xml: 'application/xml' };

/** Spec 2 sections 7 and 9: the detail report's download name. */
export const NOME_DETALHAMENTO = 'detalhamento_fatura.zip';
