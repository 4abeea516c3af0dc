/**
 * Deterministic NF-e 4.00 documents for the Sefaz distribution simulator (docs/sefaz-simulator.md).
 *
 * Document `index` of a UF is a pure function of (seed, UF, index): the simulator can regenerate any
 * NSU after a restart without keeping the XML. Kinds, by the first draw of the document's PRNG:
 * ~3% `procEventoNFe` (cancellation, tpEvento 110111, of an earlier nfeProc of the same UF), ~12%
 * `resNFe` (summary of a document the platform may not see in full), the rest `nfeProc` (the NF-e with
 * its authorisation). Emitters and recipients come from one fixed pool of companies (COMPANY_POOL),
 * the same for every seed and UF, so that clients share counterparties; about a third of the pool has
 * alphanumeric CNPJs. Money is computed in centavos and written with 2 decimals, so vProd, vNF,
 * vLiq and the dup values add up exactly.
 */
import { readFileSync } from 'node:fs';
import { asCentavos, buildChaveAcesso, cnpjCheckDigits, formatDecimal, UFS, type Uf } from '@plac/shared/domain';

import { brasilia, brasiliaDate, builder, NFE_NAMESPACE, XML_DECLARATION } from './xml';
import { devolucaoXml, eventoXml, tipoDeEvidencia } from './evidencia-documents';

export { brasilia, brasiliaDate, builder, NFE_NAMESPACE, XML_DECLARATION };

export type DocumentKind = 'nfeProc' | 'resNFe' | 'procEventoNFe';

/** The schema attribute of a docZip, by the document's root element. */
export const SCHEMA_BY_ROOT: Record<string, string> = {
  nfeProc: 'procNFe_v4.00.xsd',
  resNFe: 'resNFe_v1.01.xsd',
  procEventoNFe: 'procEventoNFe_v1.00.xsd',
};

export interface GeneratedDocument {
  kind: DocumentKind;
  /** The access key the document is about (for an event, the NF-e's it is an event of; for a return, its own). */
  chave: string;
  schema: string;
  xml: string;
  /** A receivable's evidence (evidencia-documents.ts): the event type, or DEVOLUCAO for an NF-e of return naming `ref`. */
  evidencia?: ReturnType<typeof tipoDeEvidencia>;
  /** The NF-e an evidence document is about. */
  ref?: string;
}

/** How a document may be spoiled on purpose (the simulator's `schema` fault). */
export interface GenerateOptions {
  /** Leaves `cobr` and `emit` out of an nfeProc (or `chNFe` out of the others). */
  breakSchema?: boolean;
  /**
   * When document `index` was issued (ms) and the spacing to the next one; by default 2026-09-01 08:00
   * plus 17 minutes per document. The simulator anchors it to its own clock (docs/sefaz-simulator.md).
   */
  clock?: (index: number) => { atMs: number; spacingMs: number };
}

export interface Company {
  cnpj: string;
  xNome: string;
  ie: string;
}

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same sequence on every platform. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of the text: turns (seed, UF, index) into one 32-bit PRNG seed. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export type Rng = () => number;
export const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
export const digits = (rng: Rng, n: number) => Array.from({ length: n }, () => String(int(rng, 0, 9))).join('');
export const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const NAME_FIRST = ['Comercial', 'Distribuidora', 'Indústria', 'Atacadão', 'Metalúrgica', 'Têxtil', 'Agropecuária', 'Farmacêutica', 'Transportes', 'Alimentos'];
const NAME_SECOND = ['Bahia Sul', 'Paulista', 'do Cerrado', 'Atlântico', 'Serra Verde', 'Nordeste', 'Horizonte', 'Vale do Rio', 'Planalto', 'Litoral & Cia'];
const NAME_SUFFIX = ['Ltda', 'S.A.', 'Eireli', 'ME'];
const PRODUCTS = [
  { xProd: 'Parafuso sextavado aço 10mm', NCM: '73181500', uCom: 'CX' },
  { xProd: 'Tecido de algodão cru', NCM: '52081100', uCom: 'M' },
  { xProd: 'Café torrado em grãos', NCM: '09012100', uCom: 'KG' },
  { xProd: 'Cimento Portland CP II', NCM: '25232910', uCom: 'SC' },
  { xProd: 'Óleo de soja refinado', NCM: '15079011', uCom: 'CX' },
  { xProd: 'Papel sulfite A4 75g', NCM: '48025610', uCom: 'RESMA' },
  { xProd: 'Cabo elétrico flexível 2,5mm', NCM: '85444900', uCom: 'RL' },
  { xProd: 'Fertilizante NPK 10-10-10', NCM: '31052000', uCom: 'T' },
] as const;
const STREETS = ['Rua das Flores', 'Avenida Sete de Setembro', 'Rua do Comércio', 'Avenida Brasil', 'Rodovia BR-324'];
const JUSTIFICATIONS = ['Erro na digitação dos valores da nota fiscal', 'Operação cancelada a pedido do destinatário', 'Mercadoria não saiu do estabelecimento emitente'];

/** The fixed pool of emitters and recipients: 40 companies, every third one with an alphanumeric CNPJ. */
export const COMPANY_POOL: readonly Company[] = (() => {
  const rng = mulberry32(0x504c4143); // "PLAC": fixed, independent of the simulator's seed
  return Array.from({ length: 40 }, (_, i) => {
    const root = i % 3 === 0 ? Array.from({ length: 8 }, () => pick(rng, [...ALNUM])).join('') : digits(rng, 8);
    const first12 = `${root}0001`;
    return {
      cnpj: first12 + cnpjCheckDigits(first12),
      xNome: `${pick(rng, NAME_FIRST)} ${pick(rng, NAME_SECOND)} ${pick(rng, NAME_SUFFIX)}`,
      ie: digits(rng, 9),
    };
  });
})();

/** The carriers (transportadoras) named in the NF-e's transport group: 8, a quarter with alphanumeric CNPJs. */
export const CARRIER_POOL: readonly Company[] = (() => {
  const rng = mulberry32(0x5452414e); // "TRAN": fixed, independent of the simulator's seed
  const names = ['Rodoviário Nordeste', 'Expresso Baiano', 'TransLog Sul', 'Cargas do Cerrado', 'Via Norte Logística', 'Transportes Atlântico', 'Rápido Paulista', 'Frota Amazônia'];
  return names.map((name, i) => {
    const root = i % 4 === 3 ? Array.from({ length: 8 }, () => pick(rng, [...ALNUM])).join('') : digits(rng, 8);
    const base = `${root}0001`;
    return { cnpj: base + cnpjCheckDigits(base), xNome: `${name} Ltda`, ie: digits(rng, 9) };
  });
})();

/** Municipalities by UF (IBGE code, name), the same list the reference data serves. */
export const MUNICIPIOS = JSON.parse(
  readFileSync(new URL('../../../functions/dominio/data/municipios.json', import.meta.url), 'utf8'),
) as Record<string, [number, string][]>;

export const CODE_BY_UF = new Map<string, number>(UFS.map((u) => [u.uf, u.codigo]));
export const UF_LIST = UFS.map((u) => u.uf);

/** The first document is issued at this instant; each next one about 17 minutes later. */
const FIRST_ISSUE_MS = Date.parse('2026-09-01T08:00:00-03:00');
const STEP_MS = 17 * 60_000;
export const DAY_MS = 86_400_000;

/** Money: centavos in, "1234.56" out. */
export const money = (centavos: number) => formatDecimal(asCentavos(centavos));


/** ~3% cancellations, ~12% summaries, ~18% the receivable's evidence (events and returns), the rest NF-e. */
function kindOf(seed: number, uf: Uf, index: number): DocumentKind | 'evidencia' {
  // Document 0 is always an NF-e, so a cancellation always has an earlier NF-e to cancel.
  if (index === 0) return 'nfeProc';
  const draw = mulberry32(hash(`${seed}:${uf}:${index}`))();
  if (draw < 0.03) return 'procEventoNFe';
  if (draw < 0.15) return 'resNFe';
  if (draw < 0.33) return 'evidencia';
  return 'nfeProc';
}

interface Core {
  rng: Rng;
  chave: string;
  issuedMs: number;
  emit: Company;
  dest: Company;
  destUf: Uf;
  nNF: number;
  cNF: string;
  nProt: string;
  recebidoMs: number;
}

/**
 * When document `index` was issued: somewhere within its slot of the clock (one draw, scaled to the
 * slot's length), or, without a clock, 17 minutes apart from 2026-09-01 08:00. The NF-e and the CT-e
 * generators draw it at the same point of their sequences.
 */
export function issuedAt(rng: Rng, index: number, clock?: GenerateOptions['clock']): number {
  const jitter = int(rng, 0, STEP_MS - 1000);
  const slot = clock?.(index);
  return slot ? slot.atMs + Math.floor((jitter * Math.max(slot.spacingMs - 1000, 0)) / STEP_MS) : FIRST_ISSUE_MS + index * STEP_MS + jitter;
}

/** The facts every kind shares, drawn in a fixed order after the kind's draw. */
function core(seed: number, uf: Uf, index: number, clock?: GenerateOptions['clock']): Core {
  const rng = mulberry32(hash(`${seed}:${uf}:${index}`));
  rng(); // the kind's draw
  const cUF = CODE_BY_UF.get(uf)!;
  const issuedMs = issuedAt(rng, index, clock);
  const emit = pick(rng, COMPANY_POOL);
  let dest = pick(rng, COMPANY_POOL);
  while (dest.cnpj === emit.cnpj) dest = pick(rng, COMPANY_POOL);
  const destUf = rng() < 0.6 ? uf : pick(rng, UF_LIST);
  const nNF = index + 1;
  const cNF = digits(rng, 8);
  const aamm = brasilia(issuedMs).slice(2, 4) + brasilia(issuedMs).slice(5, 7);
  const chave = buildChaveAcesso({ cUF, aamm, cnpj: emit.cnpj, mod: '55', serie: 1, nNF, tpEmis: 1, cNF });
  // nProt: 1 (authorising environment) + cUF + year (2) + 10-digit sequence.
  const nProt = `1${cUF}${aamm.slice(0, 2)}${String(index + 1).padStart(10, '0')}`;
  const recebidoMs = issuedMs + int(rng, 2, 90) * 1000;
  return { rng, chave, issuedMs, emit, dest, destUf, nNF, cNF, nProt, recebidoMs };
}

export function address(rng: Rng, uf: Uf) {
  const [cMun, xMun] = pick(rng, MUNICIPIOS[uf] ?? [[CODE_BY_UF.get(uf)! * 100_000, uf]]);
  return {
    xLgr: pick(rng, STREETS),
    nro: String(int(rng, 1, 3000)),
    xBairro: 'Centro',
    cMun: String(cMun),
    xMun,
    UF: uf,
    CEP: digits(rng, 8),
    cPais: '1058',
    xPais: 'BRASIL',
  };
}

/** Splits `total` centavos into `n` parts that add up exactly: the remainder goes to the first. */
export function split(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => (i === 0 ? total - base * (n - 1) : base));
}

/**
 * The transport group: seven in ten NF-e name a carrier (freight by the issuer, modFrete 0, or by the
 * recipient, 1); the rest carry their own goods (modFrete 9, no carrier). Drawn apart from the rest
 * of the document, so the other fields are the same with or without it.
 */
function transport(seed: number, uf: Uf, index: number) {
  const rng = mulberry32(hash(`${seed}:${uf}:${index}:transp`));
  if (rng() >= 0.7) return { modFrete: '9' };
  const carrier = pick(rng, CARRIER_POOL);
  return {
    modFrete: rng() < 0.7 ? '0' : '1',
    transporta: { CNPJ: carrier.cnpj, xNome: carrier.xNome, IE: carrier.ie, UF: uf },
  };
}

function nfeProc(seed: number, uf: Uf, index: number, options: GenerateOptions): GeneratedDocument {
  const c = core(seed, uf, index, options.clock);
  const { rng } = c;
  const cUF = CODE_BY_UF.get(uf)!;

  const items = Array.from({ length: int(rng, 1, 4) }, (_, i) => {
    const product = pick(rng, PRODUCTS);
    const quantity = int(rng, 1, 200);
    const unit = int(rng, 150, 250_000); // centavos
    const vProd = quantity * unit;
    const vICMS = Math.round((vProd * 18) / 100);
    return {
      vProd,
      vICMS,
      xml: {
        '@_nItem': String(i + 1),
        prod: {
          cProd: String(int(rng, 1000, 99999)),
          cEAN: 'SEM GTIN',
          xProd: product.xProd,
          NCM: product.NCM,
          CFOP: c.destUf === uf ? '5102' : '6102',
          uCom: product.uCom,
          qCom: quantity.toFixed(4),
          vUnCom: (unit / 100).toFixed(10),
          vProd: money(vProd),
          cEANTrib: 'SEM GTIN',
          uTrib: product.uCom,
          qTrib: quantity.toFixed(4),
          vUnTrib: (unit / 100).toFixed(10),
          indTot: '1',
        },
        imposto: {
          ICMS: { ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: money(vProd), pICMS: '18.00', vICMS: money(vICMS) } },
          PIS: { PISNT: { CST: '07' } },
          COFINS: { COFINSNT: { CST: '07' } },
        },
      },
    };
  });
  const vProd = items.reduce((sum, item) => sum + item.vProd, 0);
  const vICMS = items.reduce((sum, item) => sum + item.vICMS, 0);
  // A commercial discount on the invoice in about a fifth of the documents (up to 5%).
  const vDesc = rng() < 0.2 ? Math.floor((vProd * int(rng, 1, 5)) / 100) : 0;
  const vNF = vProd - vDesc;
  // The bill's own discount (fat/vDesc), e.g. for early payment, in about a tenth.
  const fatDesc = rng() < 0.1 ? Math.floor(vNF / 50) : 0;
  const vLiq = vNF - fatDesc;
  const installments = int(rng, 1, 12);
  const dups = split(vLiq, installments).map((value, k) => ({
    nDup: String(k + 1).padStart(3, '0'),
    dVenc: brasiliaDate(c.issuedMs + (k + 1) * 30 * DAY_MS),
    vDup: money(value),
  }));

  const infNFe: Record<string, unknown> = {
    '@_Id': `NFe${c.chave}`,
    '@_versao': '4.00',
    ide: {
      cUF: String(cUF),
      cNF: c.cNF,
      natOp: 'Venda de mercadoria',
      mod: '55',
      serie: '1',
      nNF: String(c.nNF),
      dhEmi: brasilia(c.issuedMs),
      dhSaiEnt: brasilia(c.issuedMs + 3_600_000),
      tpNF: '1',
      idDest: c.destUf === uf ? '1' : '2',
      cMunFG: '', // the emitter's municipality, filled in below
      tpImp: '1',
      tpEmis: '1',
      cDV: c.chave.slice(43),
      tpAmb: '2',
      finNFe: '1',
      indFinal: '0',
      indPres: '9',
      procEmi: '0',
      verProc: 'PLAC Simulador 1.0',
    },
    emit: {
      CNPJ: c.emit.cnpj,
      xNome: c.emit.xNome,
      enderEmit: address(rng, uf),
      IE: c.emit.ie,
      CRT: '3',
    },
    dest: {
      CNPJ: c.dest.cnpj,
      xNome: c.dest.xNome,
      enderDest: address(rng, c.destUf),
      indIEDest: '1',
      IE: c.dest.ie,
    },
    det: items.map((item) => item.xml),
    total: {
      ICMSTot: {
        vBC: money(vProd), vICMS: money(vICMS), vICMSDeson: '0.00', vFCP: '0.00', vBCST: '0.00', vST: '0.00',
        vFCPST: '0.00', vFCPSTRet: '0.00', vProd: money(vProd), vFrete: '0.00', vSeg: '0.00', vDesc: money(vDesc),
        vII: '0.00', vIPI: '0.00', vIPIDevol: '0.00', vPIS: '0.00', vCOFINS: '0.00', vOutro: '0.00', vNF: money(vNF),
      },
    },
    transp: transport(seed, uf, index),
    cobr: {
      fat: { nFat: String(c.nNF), vOrig: money(vNF), vDesc: money(fatDesc), vLiq: money(vLiq) },
      dup: dups,
    },
    pag: { detPag: { indPag: '1', tPag: '15', vPag: money(vNF) } },
  };
  const ide = infNFe.ide as Record<string, string>;
  ide.cMunFG = (infNFe.emit as { enderEmit: { cMun: string } }).enderEmit.cMun;
  if (options.breakSchema) {
    delete infNFe.cobr;
    delete infNFe.emit;
  }
  const doc = {
    nfeProc: {
      '@_versao': '4.00',
      '@_xmlns': NFE_NAMESPACE,
      NFe: { infNFe },
      protNFe: {
        '@_versao': '4.00',
        infProt: {
          tpAmb: '2',
          verAplic: 'SIMULADOR-PLAC',
          chNFe: c.chave,
          dhRecbto: brasilia(c.recebidoMs),
          nProt: c.nProt,
          digVal: Buffer.from(c.chave).toString('base64').slice(0, 28),
          cStat: '100',
          xMotivo: 'Autorizado o uso da NF-e',
        },
      },
    },
  };
  return { kind: 'nfeProc', chave: c.chave, schema: SCHEMA_BY_ROOT.nfeProc!, xml: XML_DECLARATION + builder.build(doc) };
}

function resNFe(seed: number, uf: Uf, index: number, options: GenerateOptions): GeneratedDocument {
  const c = core(seed, uf, index, options.clock);
  const vNF = int(c.rng, 10_000, 5_000_000);
  const body: Record<string, unknown> = {
    '@_versao': '1.01',
    '@_xmlns': NFE_NAMESPACE,
    chNFe: c.chave,
    CNPJ: c.emit.cnpj,
    xNome: c.emit.xNome,
    IE: c.emit.ie,
    dhEmi: brasilia(c.issuedMs),
    tpNF: '1',
    vNF: money(vNF),
    digVal: Buffer.from(c.chave).toString('base64').slice(0, 28),
    dhRecbto: brasilia(c.recebidoMs),
    nProt: c.nProt,
    cSitNFe: '1',
  };
  if (options.breakSchema) delete body.chNFe;
  return { kind: 'resNFe', chave: c.chave, schema: SCHEMA_BY_ROOT.resNFe!, xml: XML_DECLARATION + builder.build({ resNFe: body }) };
}

/** What a cancellation event (procEventoNFe, tpEvento 110111) says, as the Sefaz distributes it. */
export interface CancelamentoEvento {
  chave: string;
  /** The issuer's CNPJ, who asked for the cancellation. */
  cnpj: string;
  eventoMs: number;
  /** The cancelled NF-e's authorisation protocol, and the event's own. */
  protocoloNfe: string;
  protocoloEvento: string;
  justificativa: string;
  /** The schema fault of a broken document: the event without its chNFe. */
  semChave?: boolean | undefined;
}

/** The procEventoNFe XML of a cancellation: the generator's and the drop folder's (cancelamento.ts). */
export function cancelamentoXml(e: CancelamentoEvento): string {
  const cUF = e.chave.slice(0, 2);
  const infEvento: Record<string, unknown> = {
    '@_Id': `ID110111${e.chave}01`,
    cOrgao: cUF,
    tpAmb: '2',
    CNPJ: e.cnpj,
    chNFe: e.chave,
    dhEvento: brasilia(e.eventoMs),
    tpEvento: '110111',
    nSeqEvento: '1',
    verEvento: '1.00',
    detEvento: { '@_versao': '1.00', descEvento: 'Cancelamento', nProt: e.protocoloNfe, xJust: e.justificativa },
  };
  if (e.semChave) delete infEvento.chNFe;
  const doc = {
    procEventoNFe: {
      '@_versao': '1.00',
      '@_xmlns': NFE_NAMESPACE,
      evento: { '@_versao': '1.00', infEvento },
      retEvento: {
        '@_versao': '1.00',
        infEvento: {
          tpAmb: '2',
          verAplic: 'SIMULADOR-PLAC',
          cOrgao: cUF,
          cStat: '135',
          xMotivo: 'Evento registrado e vinculado a NF-e',
          chNFe: e.chave,
          tpEvento: '110111',
          xEvento: 'Cancelamento registrado',
          nSeqEvento: '1',
          dhRegEvento: brasilia(e.eventoMs + 2000),
          nProt: e.protocoloEvento,
        },
      },
    },
  };
  return XML_DECLARATION + builder.build(doc);
}

function procEventoNFe(seed: number, uf: Uf, index: number, options: GenerateOptions): GeneratedDocument {
  const c = core(seed, uf, index, options.clock);
  // The cancelled NF-e: the latest nfeProc among the 100 documents before this one (document 0 is one).
  let target = Math.max(0, index - int(c.rng, 1, 100));
  while (target > 0 && kindOf(seed, uf, target) !== 'nfeProc') target--;
  const cancelled = core(seed, uf, target, options.clock);
  const cUF = String(CODE_BY_UF.get(uf)!);
  const eventMs = Math.max(c.issuedMs, cancelled.recebidoMs + 60_000);
  const eventProt = `1${cUF}${cancelled.nProt.slice(3, 5)}${String(900_000_000 + index).padStart(10, '0')}`;
  const xml = cancelamentoXml({
    chave: cancelled.chave,
    cnpj: cancelled.emit.cnpj,
    eventoMs: eventMs,
    protocoloNfe: cancelled.nProt,
    protocoloEvento: eventProt,
    justificativa: pick(c.rng, JUSTIFICATIONS),
    semChave: options.breakSchema,
  });
  return { kind: 'procEventoNFe', chave: cancelled.chave, schema: SCHEMA_BY_ROOT.procEventoNFe!, xml };
}

const RECEBEDORES = [
  { documento: '52998224725', nome: 'José Almeida Recebedor' },
  { documento: '11144477735', nome: 'Maria Conceição Santos' },
  { documento: '39053344705', nome: 'Portaria Central Recebimento' },
] as const;

/**
 * An evidence document about an NF-e of the sequence: mostly of an earlier one (among the 100 before),
 * and in about 8% of a later one, so that the distribution delivers an event before its NF-e as it can.
 */
function evidencia(seed: number, uf: Uf, index: number, options: GenerateOptions): GeneratedDocument {
  const c = core(seed, uf, index, options.clock);
  const tipo = tipoDeEvidencia(c.rng());
  const antes = c.rng() < 0.08;
  let target = antes ? index + 1 : Math.max(0, index - int(c.rng, 1, 100));
  if (antes) while (kindOf(seed, uf, target) !== 'nfeProc') target++;
  else while (target > 0 && kindOf(seed, uf, target) !== 'nfeProc') target--;
  const alvo = core(seed, uf, target, options.clock);
  const cUF = CODE_BY_UF.get(uf)!;
  // Never dated after its own place in the sequence (the distribution serves nothing from the future,
  // and a stalled UF stays stalled): one about a later NF-e carries its own slot's instant.
  const eventoMs = antes ? c.issuedMs : Math.max(c.issuedMs, alvo.recebidoMs + 60_000);
  const protocolo = `8${cUF}${alvo.nProt.slice(3, 5)}${String(800_000_000 + index).padStart(10, '0')}`;
  if (tipo === 'DEVOLUCAO') {
    const vNF = Number((/<vNF>([\d.]+)<\/vNF>/.exec(nfeProc(seed, uf, target, { clock: options.clock }).xml)?.[1] ?? '0').replace('.', ''));
    // Half the returns give back everything, half a part (10% to 60%).
    const valor = c.rng() < 0.5 ? vNF : Math.max(1, Math.floor((vNF * int(c.rng, 10, 60)) / 100));
    const aamm = brasilia(eventoMs).slice(2, 4) + brasilia(eventoMs).slice(5, 7);
    const chave = buildChaveAcesso({ cUF, aamm, cnpj: alvo.dest.cnpj, mod: '55', serie: 2, nNF: index + 1, tpEmis: 1, cNF: c.cNF });
    const xml = devolucaoXml({ chaveOriginal: alvo.chave, chave, cNF: c.cNF, nNF: index + 1, emitidaMs: eventoMs, vNF: valor, nProt: protocolo, emit: alvo.dest, dest: alvo.emit, uf, cUF });
    // The `schema` fault: the return without its issuer.
    const spoiled = options.breakSchema ? xml.replace(/<emit>[\s\S]*?<\/emit>/, '') : xml;
    return { kind: 'nfeProc', chave, schema: SCHEMA_BY_ROOT.nfeProc!, xml: spoiled, evidencia: tipo, ref: alvo.chave };
  }
  const recebedor = pick(c.rng, RECEBEDORES);
  const xml = eventoXml({
    chave: alvo.chave,
    tpEvento: tipo,
    // The recipient manifests; the issuer registers the delivery proof and the correction letter.
    cnpjAutor: tipo.startsWith('210') ? alvo.dest.cnpj : alvo.emit.cnpj,
    eventoMs,
    protocolo,
    justificativa: 'Mercadoria nao foi entregue no prazo combinado',
    correcao: 'Onde se le Rua das Flores, leia-se Rua das Flores, 120, fundos',
    entrega: { em: eventoMs - 600_000, ...recebedor, latitude: (-3 - c.rng() * 27).toFixed(6), longitude: (-35 - c.rng() * 20).toFixed(6) },
  });
  // The `schema` fault: the event without its key.
  const spoiled = options.breakSchema ? xml.replace(/<chNFe>\d{44}<\/chNFe>/, '') : xml;
  return { kind: 'procEventoNFe', chave: alvo.chave, schema: SCHEMA_BY_ROOT.procEventoNFe!, xml: spoiled, evidencia: tipo, ref: alvo.chave };
}

/** Document `index` (0-based) of the UF's generated sequence for this seed. */
export function generateDocument(seed: number, uf: Uf, index: number, options: GenerateOptions = {}): GeneratedDocument {
  const kind = kindOf(seed, uf, index);
  if (kind === 'evidencia') return evidencia(seed, uf, index, options);
  if (kind === 'procEventoNFe') return procEventoNFe(seed, uf, index, options);
  if (kind === 'resNFe') return resNFe(seed, uf, index, options);
  return nfeProc(seed, uf, index, options);
}
