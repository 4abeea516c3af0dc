import { XMLParser, XMLValidator } from 'fast-xml-parser';
import * as z from 'zod';
import { isEventoRecebivel, type Centavos } from '@plac/shared/domain';
import { cte, eventoCte } from './parse-cte';
import { eventoRecebivel, type EventoRecebivel } from './parse-evento';
import type { Cancelamento, DocumentoDeVinculo, Ignorado, NfeFatura, Parte, Vinculos } from './parse-tipos';
import { ambienteAceito, cancelamentoRegistrado, chaveValida, cnpjValido, conferirIdentidade, cpfValido, dia, dinheiro, EVENTO_REGISTRADO, faturaComDuplicatas, instante, invalido, tpAmb, texto, validar } from './parse-rules';

export { DocumentoInvalido, type Excecao } from './parse-rules';
export type { EventoRecebivel } from './parse-evento';
export type * from './parse-tipos';

/**
 * One document of a Sefaz distribution (an NF-e 4.00 with its authorisation, an NF-e summary or an
 * event; a CT-e 4.00 or a CT-e event, parse-cte.ts), parsed and validated into what the Fat-e context
 * stores. A document that cannot be processed throws `DocumentoInvalido`; a valid document that
 * produces nothing (an NF-e or CT-e without a billing group, another event type, another schema) is
 * `ignorado`, which is not an error. The field rules are shared with the CT-e in parse-rules.ts, the
 * shapes of the documents in parse-tipos.ts (re-exported here).
 */

export interface ResumoNfe {
  kind: 'resumo';
  chave: string;
  emitente: Parte;
  emissao: string;
  /** tpNF: 0 entrada, 1 saída. */
  tipoOperacao: string;
  valorNota: Centavos;
  protocolo?: string;
  /** cSitNFe: 1 autorizada, 2 denegada, 3 cancelada. */
  situacao: string;
  recebimento?: string;
}

export type Documento = NfeFatura | ResumoNfe | Cancelamento | EventoRecebivel | DocumentoDeVinculo | Ignorado;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Numbers and keys stay strings: a key's leading zeros and a value's decimals are data.
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  trimValues: true,
  // Repeatable groups stay lists with one element: instalments, items, referenced NF-e, a CT-e's carried NF-e.
  isArray: (name, jpath) => name === 'dup' || name === 'det' || name === 'NFref' || String(jpath).endsWith('infDoc.infNFe'),
});

const enderecoUf = z.object({ UF: texto }).optional();

const nfeProcSchema = z.object({
  nfeProc: z.object({
    NFe: z.object({
      infNFe: z.object({
        '@_Id': texto,
        ide: z.object({
          cUF: texto,
          mod: texto,
          serie: texto,
          nNF: texto,
          dhEmi: instante,
          tpAmb,
          /** 1 normal, 2 complementar, 3 de ajuste, 4 devolução. */
          finNFe: texto.optional(),
          NFref: z.array(z.object({ refNFe: texto.optional() }).loose()).optional(),
        }),
        emit: z.object({ CNPJ: texto, xNome: texto, enderEmit: z.object({ UF: texto }) }),
        dest: z
          .object({ CNPJ: texto.optional(), CPF: texto.optional(), xNome: texto, enderDest: enderecoUf })
          .refine((d) => (d.CNPJ === undefined) !== (d.CPF === undefined), { error: 'o destinatário precisa de CNPJ ou CPF' }),
        total: z.object({ ICMSTot: z.object({ vNF: dinheiro }) }),
        transp: z
          .object({ modFrete: texto.optional(), transporta: z.object({ CNPJ: texto.optional(), CPF: texto.optional(), xNome: texto.optional() }).optional() })
          .optional(),
        cobr: z
          .object({
            fat: z.object({ nFat: texto.optional(), vOrig: dinheiro.optional(), vDesc: dinheiro.optional(), vLiq: dinheiro }).optional(),
            // One transaction writes the Fat-e and one item per instalment: at most 100 items.
            dup: z.array(z.object({ nDup: texto, dVenc: dia, vDup: dinheiro })).max(99).optional(),
          })
          .optional(),
      }),
    }),
    protNFe: z.object({ infProt: z.object({ chNFe: texto, cStat: texto, nProt: texto.optional(), dhRecbto: instante.optional() }) }),
  }),
});

const resNfeSchema = z.object({
  resNFe: z.object({
    chNFe: texto,
    CNPJ: texto.optional(),
    CPF: texto.optional(),
    xNome: texto,
    dhEmi: instante,
    tpNF: texto,
    vNF: dinheiro,
    nProt: texto.optional(),
    cSitNFe: texto,
    dhRecbto: instante.optional(),
  }),
});

const procEventoSchema = z.object({
  procEventoNFe: z.object({
    evento: z.object({
      infEvento: z.object({
        chNFe: texto,
        dhEvento: instante,
        tpEvento: texto,
        tpAmb,
        detEvento: z.object({ nProt: texto, xJust: texto }),
      }),
    }),
    // A processed event carries its registration: without it nothing says the Sefaz accepted it.
    retEvento: z.object({ infEvento: z.object({ cStat: texto, nProt: texto.optional(), dhRegEvento: instante.optional() }) }),
  }),
});

// ---- documents ---------------------------------------------------------------------------------

/** The NF-e's authorisation statuses: 100 authorised, 150 authorised out of time. */
function nfe(tree: unknown, nome: string): NfeFatura | DocumentoDeVinculo | Ignorado {
  const { nfeProc } = validar(nfeProcSchema, tree, nome);
  const inf = nfeProc.NFe.infNFe;
  const { chNFe: chave, cStat, nProt, dhRecbto } = nfeProc.protNFe.infProt;
  const identidade = { chave, id: inf['@_Id'], prefixo: 'NFe', cUF: inf.ide.cUF, mod: inf.ide.mod, serie: inf.ide.serie, numero: inf.ide.nNF, cnpjEmitente: inf.emit.CNPJ, cStat } as const;
  conferirIdentidade(identidade, 'notaNaoAutorizada');
  ambienteAceito(inf.ide.tpAmb, chave);

  // A return (finNFe 4) names the NF-e it returns: evidence for those keys, with or without a bill.
  const devolvidas = inf.ide.finNFe === '4' ? [...new Set((inf.ide.NFref ?? []).flatMap((r) => (r.refNFe ? [r.refNFe] : [])))] : [];
  for (const ref of devolvidas) chaveValida(ref);
  const vinculos: Vinculos | undefined = devolvidas.length > 0 ? { tipo: 'DEVOLUCAO', chaves: devolvidas } : undefined;

  // Only an NF-e with a billing group (cobr/fat) becomes a Fat-e.
  const fat = inf.cobr?.fat;
  if (!fat && vinculos) {
    return { kind: 'vinculo', chave, modelo: inf.ide.mod, emissao: inf.ide.dhEmi, emitente: { cnpj: cnpjValido(inf.emit.CNPJ, 'do emitente'), nome: inf.emit.xNome }, valor: inf.total.ICMSTot.vNF, vinculos };
  }
  if (!fat) return { kind: 'ignorado', reason: 'NF-e sem grupo de fatura (cobr/fat)' };
  const cobranca = faturaComDuplicatas(fat, inf.cobr?.dup ?? [], nome);
  const emitenteCnpj = cnpjValido(inf.emit.CNPJ, 'do emitente');
  const dest = inf.dest;
  const destinatario: Parte = dest.CNPJ
    ? { cnpj: cnpjValido(dest.CNPJ, 'do destinatário'), nome: dest.xNome, uf: dest.enderDest?.UF }
    : { cpf: cpfValido(dest.CPF ?? '', 'do destinatário'), nome: dest.xNome, uf: dest.enderDest?.UF };

  const transporta = inf.transp?.transporta;
  const transportador: Parte | undefined = transporta?.CNPJ
    ? { cnpj: cnpjValido(transporta.CNPJ, 'do transportador'), nome: transporta.xNome ?? '' }
    : transporta?.CPF
      ? { cpf: cpfValido(transporta.CPF, 'do transportador'), nome: transporta.xNome ?? '' }
      : undefined;

  return {
    kind: 'nfe',
    chave,
    modelo: inf.ide.mod,
    serie: inf.ide.serie,
    numero: inf.ide.nNF,
    emissao: inf.ide.dhEmi,
    protocolo: nProt ?? '',
    ...(dhRecbto ? { recebimento: dhRecbto } : {}),
    emitente: { cnpj: emitenteCnpj, nome: inf.emit.xNome, uf: inf.emit.enderEmit.UF },
    destinatario,
    valorNota: inf.total.ICMSTot.vNF,
    ...(transportador ? { transportador } : {}),
    ...cobranca,
    ...(vinculos ? { vinculos } : {}),
  };
}

function resumo(tree: unknown, nome: string): ResumoNfe {
  const { resNFe: r } = validar(resNfeSchema, tree, nome);
  chaveValida(r.chNFe);
  const emitente: Parte = r.CNPJ ? { cnpj: cnpjValido(r.CNPJ, 'do emitente'), nome: r.xNome } : { cpf: cpfValido(r.CPF ?? '', 'do emitente'), nome: r.xNome };
  return {
    kind: 'resumo',
    chave: r.chNFe,
    emitente,
    emissao: r.dhEmi,
    tipoOperacao: r.tpNF,
    valorNota: r.vNF,
    protocolo: r.nProt,
    situacao: r.cSitNFe,
    recebimento: r.dhRecbto,
  };
}

function evento(tree: unknown, nome: string): Cancelamento | EventoRecebivel | Ignorado {
  const tipo = (tree as { procEventoNFe?: { evento?: { infEvento?: { tpEvento?: unknown } } } }).procEventoNFe?.evento?.infEvento?.tpEvento;
  // The cancellation (110111) changes the Fat-e; the receivable's evidence events are kept beside it
  // (parse-evento.ts); any other event type is not stored.
  if (typeof tipo === 'string' && tipo !== '110111') return isEventoRecebivel(tipo) ? eventoRecebivel(tree, nome) : { kind: 'ignorado', reason: `evento ${tipo}` };
  const { procEventoNFe: p } = validar(procEventoSchema, tree, nome);
  const inf = p.evento.infEvento;
  chaveValida(inf.chNFe);
  const registro = p.retEvento.infEvento;
  if (!EVENTO_REGISTRADO.has(registro.cStat)) return { kind: 'ignorado', reason: `evento não registrado (cStat ${registro.cStat})` };
  ambienteAceito(inf.tpAmb, inf.chNFe);
  return cancelamentoRegistrado(inf.chNFe, registro, inf.detEvento, nome);
}

/** The schema name without its version: `procNFe_v4.00.xsd` → `procNFe`. */
export function schemaBase(schema: string): string {
  return schema.replace(/_v[\d.]+\.xsd$/, '');
}

/** The root element each processed schema must have. */
const ROOTS: Record<string, { root: string; parse: (tree: unknown, nome: string) => Documento }> = {
  procNFe: { root: 'nfeProc', parse: nfe },
  resNFe: { root: 'resNFe', parse: resumo },
  procEventoNFe: { root: 'procEventoNFe', parse: evento },
  procCTe: { root: 'cteProc', parse: cte },
  procEventoCTe: { root: 'procEventoCTe', parse: eventoCte },
};

/** Parses and validates one document of the distribution; throws `DocumentoInvalido`. */
export function parseDocumento(doc: { schema: string; xml: string }): Documento {
  const base = schemaBase(doc.schema);
  const tipo = ROOTS[base];
  if (!tipo) return { kind: 'ignorado', reason: `esquema ${doc.schema}` };
  const valid = XMLValidator.validate(doc.xml);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw invalido('XmlMalformado', 'xmlMalformado', { detalhe: `linha ${line}, coluna ${col}` }, `${msg} (linha ${line}, coluna ${col})`);
  }
  const tree = parser.parse(doc.xml) as Record<string, unknown>;
  if (!(tipo.root in tree)) {
    throw invalido('EsquemaInvalido', 'esquemaInvalido', { schema: doc.schema, detalhe: `elemento raiz ${tipo.root} ausente` });
  }
  return tipo.parse(tree, doc.schema);
}
