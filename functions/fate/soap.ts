import { XMLParser } from 'fast-xml-parser';
import type { Fluxo } from '@plac/shared/domain';

/**
 * The SOAP 1.2 binding of the Sefaz distribution web services, as their WSDLs define it
 * (NFeDistribuicaoDFe.asmx?wsdl and CTeDistribuicaoDFe.asmx?wsdl):
 *
 *   request   Envelope / Body / nfeDistDFeInteresse (wsdl namespace) / nfeDadosMsg / distDFeInt
 *   answer    Envelope / Body / nfeDistDFeInteresseResponse / nfeDistDFeInteresseResult / retDistDFeInt
 *   failure   Envelope / Body / Fault (Code/Value, Reason/Text), usually with HTTP 500 (or 400 for the caller's fault)
 *
 * The CT-e service is the same with `cte` in place of `nfe`. The content type is
 * `application/soap+xml; charset=utf-8; action="<wsdl namespace>/<operation>"` (SOAP 1.2 carries the
 * action as a media-type parameter, not a SOAPAction header).
 */

export const SOAP12_NAMESPACE = 'http://www.w3.org/2003/05/soap-envelope';

export interface ServicoDistribuicao {
  /** The service's name, also the last segment of its URL. */
  servico: 'NFeDistribuicaoDFe' | 'CTeDistribuicaoDFe';
  /** The documents' namespace (distDFeInt, retDistDFeInt). */
  namespace: string;
  /** The WSDL's target namespace: the operation's element and the action live in it. */
  wsdl: string;
  operacao: 'nfeDistDFeInteresse' | 'cteDistDFeInteresse';
  dadosMsg: 'nfeDadosMsg' | 'cteDadosMsg';
}

export const SERVICOS_DISTRIBUICAO: Record<Fluxo, ServicoDistribuicao> = {
  nfe: {
    servico: 'NFeDistribuicaoDFe',
    namespace: 'http://www.portalfiscal.inf.br/nfe',
    wsdl: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe',
    operacao: 'nfeDistDFeInteresse',
    dadosMsg: 'nfeDadosMsg',
  },
  cte: {
    servico: 'CTeDistribuicaoDFe',
    namespace: 'http://www.portalfiscal.inf.br/cte',
    wsdl: 'http://www.portalfiscal.inf.br/cte/wsdl/CTeDistribuicaoDFe',
    operacao: 'cteDistDFeInteresse',
    dadosMsg: 'cteDadosMsg',
  },
};

/** The request's content type, with the operation's action. */
export function tipoDeConteudo(s: ServicoDistribuicao): string {
  return `application/soap+xml; charset=utf-8; action="${s.wsdl}/${s.operacao}"`;
}

/** `distDFeInt` (without its XML declaration) wrapped in the operation's envelope. */
export function envelope(s: ServicoDistribuicao, distDFeInt: string): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>` +
    `<soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap12="${SOAP12_NAMESPACE}">` +
    `<soap12:Body><${s.operacao} xmlns="${s.wsdl}"><${s.dadosMsg}>${distDFeInt}</${s.dadosMsg}></${s.operacao}></soap12:Body></soap12:Envelope>`
  );
}

/** The web service answered a SOAP Fault: the call was refused, with the fault's code and text. */
export class FalhaSoap extends Error {
  override readonly name = 'FalhaSoap';
  constructor(
    readonly codigo: string,
    readonly texto: string,
  ) {
    super(`SOAP Fault ${codigo}: ${texto}`);
  }
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => name === 'docZip',
});

type No = Record<string, unknown>;
const filho = (no: unknown, nome: string): unknown => (no && typeof no === 'object' ? (no as No)[nome] : undefined);
const texto = (no: unknown): string => {
  if (typeof no === 'string') return no.trim();
  const t = filho(no, '#text');
  return typeof t === 'string' ? t.trim() : '';
};

/**
 * Reads an answer of the service: the `retDistDFeInt` inside the operation's Result, or throws
 * FalhaSoap for a Fault. Anything else (not XML, not an envelope, another operation's answer) is
 * `undefined`, for the caller to treat as no answer.
 */
export function lerResposta(s: ServicoDistribuicao, xml: string): unknown {
  let raiz: unknown;
  try {
    raiz = parser.parse(xml, true);
  } catch {
    return undefined;
  }
  const body = filho(filho(raiz, 'Envelope'), 'Body');
  const fault = filho(body, 'Fault');
  if (fault) {
    // SOAP 1.2: Code/Value (soap12:Receiver, soap12:Sender), Reason/Text (one per language; the first).
    const code = texto(filho(filho(fault, 'Code'), 'Value')) || 'Fault';
    const reason = filho(filho(fault, 'Reason'), 'Text');
    throw new FalhaSoap(code, texto(Array.isArray(reason) ? reason[0] : reason) || 'sem texto');
  }
  return filho(filho(filho(body, `${s.operacao}Response`), `${s.operacao}Result`), 'retDistDFeInt');
}
