/**
 * The simulator's side of the distribution services' SOAP 1.2 binding, written from their WSDLs
 * (NFeDistribuicaoDFe.asmx?wsdl, CTeDistribuicaoDFe.asmx?wsdl) and not from the platform's client, so
 * that a client the real service would refuse is refused here too:
 *
 *   - the content type is application/soap+xml (a SOAP 1.1 `text/xml` post is refused, 415), and an
 *     `action` parameter, when present, names the operation;
 *   - the envelope is SOAP 1.2's (a SOAP 1.1 envelope is a VersionMismatch fault);
 *   - the body holds the operation's element in the WSDL's namespace, its `…DadosMsg`, and in it the
 *     `distDFeInt` in the documents' namespace;
 *   - the answer is `<op>Response` / `<op>Result` / retDistDFeInt; a refusal is a SOAP Fault
 *     (soap12:Sender with HTTP 400 for the caller's mistakes, soap12:Receiver with HTTP 500 for the
 *     server's).
 */
import { XMLParser } from 'fast-xml-parser';

export const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';

export interface SoapService {
  /** The WSDL's target namespace. */
  wsdl: string;
  /** The documents' namespace. */
  namespace: string;
  operation: string;
  dadosMsg: string;
}

export interface SoapAnswer {
  status: number;
  contentType: string;
  body: string;
}

const parser = new XMLParser({ removeNSPrefix: false, ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false });

type Node = Record<string, unknown>;
const asNode = (v: unknown): Node | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : undefined);
const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const prefixOf = (name: string) => (name.includes(':') ? name.slice(0, name.indexOf(':')) : '');

/** The element's namespace: its prefix's (or the default) declaration on itself or an ancestor. */
function namespaceOf(name: string, chain: Node[]): string | undefined {
  const attr = prefixOf(name) ? `@_xmlns:${prefixOf(name)}` : '@_xmlns';
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = chain[i]![attr];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** The one child element of `node` with this local name (attributes and text skipped). */
function child(node: Node, local: string): [string, Node] | undefined {
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') || key === '#text') continue;
    if (localName(key) === local) {
      const n = asNode(value);
      return n ? [key, n] : [key, {}];
    }
  }
  return undefined;
}

export class SoapRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: 'soap12:Sender' | 'soap12:Receiver' | 'soap12:VersionMismatch',
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * The `distDFeInt` element of a request, re-serialised as the parser read it, or a SoapRefusal. The
 * content is returned as the parsed element for the caller to read `distNSU`/`consNSU` from.
 */
export function readRequest(service: SoapService, contentType: string | undefined, body: string): Node {
  const type = (contentType ?? '').toLowerCase();
  if (!type.startsWith('application/soap+xml')) {
    throw new SoapRefusal(415, 'soap12:Sender', `Tipo de conteúdo '${contentType ?? ''}' não suportado: o serviço usa SOAP 1.2 (application/soap+xml)`);
  }
  const action = /action\s*=\s*"?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (action && action !== `${service.wsdl}/${service.operation}`) {
    throw new SoapRefusal(400, 'soap12:Sender', `Ação desconhecida: ${action}`);
  }
  let root: Node;
  try {
    root = parser.parse(body, true) as Node;
  } catch {
    throw new SoapRefusal(400, 'soap12:Sender', 'A mensagem não é um XML bem formado');
  }
  const envelope = child(root, 'Envelope');
  if (!envelope) throw new SoapRefusal(400, 'soap12:Sender', 'A mensagem não é um envelope SOAP');
  const chain: Node[] = [envelope[1]];
  const envNs = namespaceOf(envelope[0], chain);
  if (envNs === SOAP11) throw new SoapRefusal(400, 'soap12:VersionMismatch', 'Envelope SOAP 1.1: o serviço usa SOAP 1.2');
  if (envNs !== SOAP12) throw new SoapRefusal(400, 'soap12:VersionMismatch', 'Envelope fora do namespace do SOAP 1.2');
  const bodyEl = child(envelope[1], 'Body');
  if (!bodyEl || namespaceOf(bodyEl[0], [...chain, bodyEl[1]]) !== SOAP12) throw new SoapRefusal(400, 'soap12:Sender', 'Envelope sem soap12:Body');
  chain.push(bodyEl[1]);
  const op = child(bodyEl[1], service.operation);
  if (!op || namespaceOf(op[0], [...chain, op[1]]) !== service.wsdl) {
    throw new SoapRefusal(400, 'soap12:Sender', `O corpo não contém ${service.operation} no namespace ${service.wsdl}`);
  }
  chain.push(op[1]);
  const dados = child(op[1], service.dadosMsg);
  if (!dados || namespaceOf(dados[0], [...chain, dados[1]]) !== service.wsdl) {
    throw new SoapRefusal(400, 'soap12:Sender', `${service.operation} sem ${service.dadosMsg}`);
  }
  chain.push(dados[1]);
  const dist = child(dados[1], 'distDFeInt');
  if (!dist || namespaceOf(dist[0], [...chain, dist[1]]) !== service.namespace) {
    throw new SoapRefusal(400, 'soap12:Sender', `${service.dadosMsg} sem distDFeInt no namespace ${service.namespace}`);
  }
  return dist[1];
}

const envelope = (content: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
  `<soap:Body>${content}</soap:Body></soap:Envelope>`;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The operation's answer around a retDistDFeInt (without XML declaration). */
export function answer(service: SoapService, retDistDFeInt: string): SoapAnswer {
  return {
    status: 200,
    contentType: 'application/soap+xml; charset=utf-8',
    body: envelope(`<${service.operation}Response xmlns="${service.wsdl}"><${service.operation}Result>${retDistDFeInt}</${service.operation}Result></${service.operation}Response>`),
  };
}

export function fault(status: number, code: SoapRefusal['code'], reason: string): SoapAnswer {
  const value = code.replace('soap12:', 'soap:');
  return {
    status,
    contentType: 'application/soap+xml; charset=utf-8',
    body: envelope(`<soap:Fault><soap:Code><soap:Value>${value}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="pt-BR">${escape(reason)}</soap:Text></soap:Reason></soap:Fault>`),
  };
}
