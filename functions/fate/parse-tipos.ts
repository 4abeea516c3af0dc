import type { Centavos } from '@plac/shared/domain';

/**
 * The shapes of the parsed documents that the NF-e parser (parse.ts) and the CT-e and event parsers
 * (parse-cte.ts, parse-evento.ts) all build. They live here, not in parse.ts, so that the parsers
 * parse.ts dispatches to need not import it back; parse.ts re-exports them with `Documento`.
 */

export interface Duplicata {
  numero: string;
  /** YYYY-MM-DD */
  vencimento: string;
  valor: Centavos;
}

export interface Parte {
  cnpj?: string;
  cpf?: string;
  nome: string;
  uf?: string;
}

export interface NfeFatura {
  kind: 'nfe';
  chave: string;
  modelo: string;
  serie: string;
  numero: string;
  /** ISO-8601 UTC instant. */
  emissao: string;
  protocolo: string;
  /** ISO-8601 UTC instant the Sefaz authorised it (protNFe dhRecbto), when the document says. */
  recebimento?: string;
  emitente: { cnpj: string; nome: string; uf: string };
  destinatario: Parte;
  valorNota: Centavos;
  /** The carrier the NF-e names (transp/transporta), when it names one. */
  transportador?: Parte;
  fatura: { numero?: string; valorOriginal: Centavos; desconto: Centavos; valorLiquido: Centavos };
  duplicatas: Duplicata[];
  /** The keys this document names as evidence of others (a return's refNFe, a CT-e's carried NF-e). */
  vinculos?: Vinculos;
}

/**
 * What a document says about other NF-e (docs/recebivel.md): an NF-e of return (finNFe 4) names the
 * NF-e it returns (NFref/refNFe); a CT-e names the NF-e it carries (infDoc/infNFe/chave).
 */
export interface Vinculos {
  tipo: 'DEVOLUCAO' | 'TRANSPORTE';
  chaves: string[];
}

/** A document without a bill that still bears on other keys: a return without cobr, a CT-e without cobr. */
export interface DocumentoDeVinculo {
  kind: 'vinculo';
  chave: string;
  modelo: string;
  emissao: string;
  emitente: { cnpj: string; nome: string };
  /** A return's vNF; a CT-e's vTPrest (centavos). */
  valor: Centavos;
  vinculos: Vinculos;
}

export interface Cancelamento {
  kind: 'cancelamento';
  chave: string;
  tpEvento: '110111';
  /** The cancellation's own registration protocol (retEvento nProt). */
  protocolo: string;
  /** The cancelled document's authorisation protocol, as the event names it (detEvento nProt). */
  protocoloDocumento: string;
  justificativa: string;
  /** ISO-8601 UTC instant the Sefaz registered the cancellation (retEvento dhRegEvento). */
  data: string;
}

export interface Ignorado {
  kind: 'ignorado';
  reason: string;
}
