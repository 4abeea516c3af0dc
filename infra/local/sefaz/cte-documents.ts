/**
 * Deterministic CT-e 4.00 documents for the Sefaz simulator's CT-e stream (CTeDistribuicaoDFe,
 * docs/sefaz-simulator.md).
 *
 * Document `index` of a UF's CT-e sequence is a pure function of (seed, UF, index, clock), like the
 * NF-e of documents.ts, so the simulator regenerates any NSU after a restart. Kinds, by the first draw
 * of the document's PRNG: ~3% `procEventoCTe` (cancellation, tpEvento 110111, of an earlier cteProc of
 * the same sequence), the rest `cteProc` (the CT-e with its authorisation). The emitter is a carrier of
 * CARRIER_POOL, sender and recipient come from COMPANY_POOL, so the CT-e name the same companies as the
 * NF-e. About 80% carry a bill (`cobr/fat` with 1 to 4 `dup`); money is computed in centavos, so
 * vLiq = vOrig − vDesc and the dup values add up to vLiq exactly.
 */
import { buildChaveAcesso, type Uf } from '@plac/shared/domain';
import {
  address,
  brasilia,
  brasiliaDate,
  builder,
  CARRIER_POOL,
  CODE_BY_UF,
  COMPANY_POOL,
  DAY_MS,
  digits,
  hash,
  int,
  issuedAt,
  money,
  mulberry32,
  pick,
  split,
  UF_LIST,
  XML_DECLARATION,
  type Company,
  type GenerateOptions,
  type Rng,
} from './documents';

export const CTE_NAMESPACE = 'http://www.portalfiscal.inf.br/cte';

export type CteKind = 'cteProc' | 'procEventoCTe';

/** The schema attribute of a CT-e docZip, by the document's root element. */
export const CTE_SCHEMA_BY_ROOT: Record<string, string> = {
  cteProc: 'procCTe_v4.00.xsd',
  procEventoCTe: 'procEventoCTe_v4.00.xsd',
};

export interface GeneratedCte {
  kind: CteKind;
  /** The access key the document is about (for an event, the cancelled CT-e's). */
  chave: string;
  schema: string;
  xml: string;
}

/** The same clock as the NF-e's (documents.ts): when document `index` was issued. */
export type CteGenerateOptions = Pick<GenerateOptions, 'clock'>;

const CARGO = ['Materiais de construção', 'Alimentos não perecíveis', 'Peças automotivas', 'Produtos têxteis', 'Grãos a granel', 'Eletrodomésticos', 'Papel e embalagens', 'Insumos agrícolas'];
const JUSTIFICATIONS = ['Erro no valor da prestação do serviço', 'Serviço de transporte não realizado', 'Tomador do serviço informado incorretamente'];

/** The draws of the CT-e stream are apart from the NF-e's: the same (seed, UF, index) differ. */
const rngOf = (seed: number, uf: Uf, index: number) => mulberry32(hash(`${seed}:${uf}:${index}:cte`));

function kindOf(seed: number, uf: Uf, index: number): CteKind {
  // Document 0 is always a CT-e, so a cancellation always has an earlier CT-e to cancel.
  if (index === 0) return 'cteProc';
  return rngOf(seed, uf, index)() < 0.03 ? 'procEventoCTe' : 'cteProc';
}

interface Core {
  rng: Rng;
  chave: string;
  issuedMs: number;
  carrier: Company;
  rem: Company;
  dest: Company;
  ufFim: Uf;
  nCT: number;
  cCT: string;
  nProt: string;
  recebidoMs: number;
}

/** The facts every kind shares, drawn in a fixed order after the kind's draw. */
function core(seed: number, uf: Uf, index: number, clock?: GenerateOptions['clock']): Core {
  const rng = rngOf(seed, uf, index);
  rng(); // the kind's draw
  const cUF = CODE_BY_UF.get(uf)!;
  const issuedMs = issuedAt(rng, index, clock);
  const carrier = pick(rng, CARRIER_POOL);
  const rem = pick(rng, COMPANY_POOL);
  let dest = pick(rng, COMPANY_POOL);
  while (dest.cnpj === rem.cnpj) dest = pick(rng, COMPANY_POOL);
  // The trip starts in the emitting UF; six in ten end there too.
  const ufFim = rng() < 0.6 ? uf : pick(rng, UF_LIST);
  const nCT = index + 1;
  const cCT = digits(rng, 8);
  const aamm = brasilia(issuedMs).slice(2, 4) + brasilia(issuedMs).slice(5, 7);
  const chave = buildChaveAcesso({ cUF, aamm, cnpj: carrier.cnpj, mod: '57', serie: 1, nNF: nCT, tpEmis: 1, cNF: cCT });
  // nProt: 1 (authorising environment) + cUF + year (2) + 10-digit sequence.
  const nProt = `1${cUF}${aamm.slice(0, 2)}${String(index + 1).padStart(10, '0')}`;
  const recebidoMs = issuedMs + int(rng, 2, 90) * 1000;
  return { rng, chave, issuedMs, carrier, rem, dest, ufFim, nCT, cCT, nProt, recebidoMs };
}

/** A valid NF-e (model 55) key of the sender, issued a few days before the transport. */
function nfeKeyOf(rng: Rng, uf: Uf, rem: Company, issuedMs: number): string {
  const nfeMs = issuedMs - int(rng, 0, 5) * DAY_MS;
  const aamm = brasilia(nfeMs).slice(2, 4) + brasilia(nfeMs).slice(5, 7);
  return buildChaveAcesso({ cUF: CODE_BY_UF.get(uf)!, aamm, cnpj: rem.cnpj, mod: '55', serie: 1, nNF: int(rng, 1, 999_999), tpEmis: 1, cNF: digits(rng, 8) });
}

function cteProc(seed: number, uf: Uf, index: number, options: CteGenerateOptions): GeneratedCte {
  const c = core(seed, uf, index, options.clock);
  const { rng } = c;
  const cUF = CODE_BY_UF.get(uf)!;
  const emitAddress = address(rng, uf);
  const remAddress = address(rng, uf);
  const destAddress = address(rng, c.ufFim);
  const interstate = c.ufFim !== uf;

  // Who pays for the service (the tomador): the sender (toma 0), the recipient (3), or in about one
  // in seven a third company with its own identification (toma4).
  const tomaDraw = rng();
  let other = pick(rng, COMPANY_POOL);
  while (other.cnpj === c.rem.cnpj || other.cnpj === c.dest.cnpj) other = pick(rng, COMPANY_POOL);
  const otherAddress = address(rng, uf);
  const toma =
    tomaDraw < 0.15
      ? { toma4: { toma: '4', CNPJ: other.cnpj, IE: other.ie, xNome: other.xNome, enderToma: otherAddress } }
      : { toma3: { toma: tomaDraw < 0.55 ? '0' : '3' } };

  const vCarga = int(rng, 50_000, 20_000_000); // centavos
  // The freight: 2% to 8% of the cargo's value, at least R$ 80,00.
  const vTPrest = Math.max(8_000, Math.round((vCarga * int(rng, 20, 80)) / 1000));
  const pedagio = rng() < 0.4 ? int(rng, 500, 5_000) : 0;
  const components = [{ xNome: 'FRETE PESO', vComp: money(vTPrest - pedagio) }, ...(pedagio ? [{ xNome: 'PEDAGIO', vComp: money(pedagio) }] : [])];
  const pICMS = interstate ? 12 : 18;
  const vICMS = Math.round((vTPrest * pICMS) / 100);
  const kg = int(rng, 10, 28_000);
  const nfeKeys = Array.from({ length: int(rng, 1, 3) }, () => nfeKeyOf(rng, uf, c.rem, c.issuedMs));

  // About 80% bill the service in the CT-e itself (cobr/fat), with 1 to 4 instalments.
  const withBill = rng() < 0.8;
  const fatDesc = rng() < 0.1 ? Math.floor(vTPrest / 50) : 0;
  const vLiq = vTPrest - fatDesc;
  const installments = int(rng, 1, 4);
  const cobr = withBill
    ? {
        fat: { nFat: String(c.nCT), vOrig: money(vTPrest), vDesc: money(fatDesc), vLiq: money(vLiq) },
        dup: split(vLiq, installments).map((value, k) => ({
          nDup: String(k + 1).padStart(3, '0'),
          dVenc: brasiliaDate(c.issuedMs + (k + 1) * 30 * DAY_MS),
          vDup: money(value),
        })),
      }
    : undefined;

  const { cPais: _cPais, xPais: _xPais, ...enderEmit } = emitAddress;
  const infCte = {
    '@_Id': `CTe${c.chave}`,
    '@_versao': '4.00',
    ide: {
      cUF: String(cUF),
      cCT: c.cCT,
      CFOP: interstate ? '6353' : '5353',
      natOp: 'PRESTACAO DE SERVICO DE TRANSPORTE',
      mod: '57',
      serie: '1',
      nCT: String(c.nCT),
      dhEmi: brasilia(c.issuedMs),
      tpImp: '1',
      tpEmis: '1',
      cDV: c.chave.slice(43),
      tpAmb: '2',
      tpCTe: '0',
      procEmi: '0',
      verProc: 'PLAC Simulador 1.0',
      cMunEnv: emitAddress.cMun,
      xMunEnv: emitAddress.xMun,
      UFEnv: uf,
      modal: '01',
      tpServ: '0',
      cMunIni: remAddress.cMun,
      xMunIni: remAddress.xMun,
      UFIni: uf,
      cMunFim: destAddress.cMun,
      xMunFim: destAddress.xMun,
      UFFim: c.ufFim,
      retira: '1',
      indIEToma: '1',
      ...toma,
    },
    emit: { CNPJ: c.carrier.cnpj, IE: c.carrier.ie, xNome: c.carrier.xNome, enderEmit, CRT: '3' },
    rem: { CNPJ: c.rem.cnpj, IE: c.rem.ie, xNome: c.rem.xNome, enderReme: remAddress },
    dest: { CNPJ: c.dest.cnpj, IE: c.dest.ie, xNome: c.dest.xNome, enderDest: destAddress },
    vPrest: { vTPrest: money(vTPrest), vRec: money(vTPrest), Comp: components },
    imp: { ICMS: { ICMS00: { CST: '00', vBC: money(vTPrest), pICMS: pICMS.toFixed(2), vICMS: money(vICMS) } } },
    infCTeNorm: {
      infCarga: {
        vCarga: money(vCarga),
        proPred: pick(rng, CARGO),
        infQ: { cUnid: '01', tpMed: 'PESO BRUTO', qCarga: kg.toFixed(4) },
      },
      infDoc: { infNFe: nfeKeys.map((chave) => ({ chave })) },
      infModal: { '@_versaoModal': '4.00', rodo: { RNTRC: digits(rng, 8) } },
      ...(cobr ? { cobr } : {}),
    },
  };
  const doc = {
    cteProc: {
      '@_versao': '4.00',
      '@_xmlns': CTE_NAMESPACE,
      CTe: { '@_xmlns': CTE_NAMESPACE, infCte },
      protCTe: {
        '@_versao': '4.00',
        infProt: {
          tpAmb: '2',
          verAplic: 'SIMULADOR-PLAC',
          chCTe: c.chave,
          dhRecbto: brasilia(c.recebidoMs),
          nProt: c.nProt,
          digVal: Buffer.from(c.chave).toString('base64').slice(0, 28),
          cStat: '100',
          xMotivo: 'Autorizado o uso do CT-e',
        },
      },
    },
  };
  return { kind: 'cteProc', chave: c.chave, schema: CTE_SCHEMA_BY_ROOT.cteProc!, xml: XML_DECLARATION + builder.build(doc) };
}

function procEventoCTe(seed: number, uf: Uf, index: number, options: CteGenerateOptions): GeneratedCte {
  const c = core(seed, uf, index, options.clock);
  // The cancelled CT-e: the latest cteProc among the 100 documents before this one (document 0 is one).
  let target = Math.max(0, index - int(c.rng, 1, 100));
  while (target > 0 && kindOf(seed, uf, target) !== 'cteProc') target--;
  const cancelled = core(seed, uf, target, options.clock);
  const cUF = String(CODE_BY_UF.get(uf)!);
  const eventMs = Math.max(c.issuedMs, cancelled.recebidoMs + 60_000);
  const eventProt = `1${cUF}${cancelled.nProt.slice(3, 5)}${String(900_000_000 + index).padStart(10, '0')}`;
  const doc = {
    procEventoCTe: {
      '@_versao': '4.00',
      '@_xmlns': CTE_NAMESPACE,
      eventoCTe: {
        '@_versao': '4.00',
        infEvento: {
          // The CT-e event's Id: "ID" + tpEvento + key + nSeqEvento (3 digits).
          '@_Id': `ID110111${cancelled.chave}001`,
          cOrgao: cUF,
          tpAmb: '2',
          CNPJ: cancelled.carrier.cnpj,
          chCTe: cancelled.chave,
          dhEvento: brasilia(eventMs),
          tpEvento: '110111',
          nSeqEvento: '1',
          detEvento: {
            '@_versaoEvento': '4.00',
            evCancCTe: { descEvento: 'Cancelamento', nProt: cancelled.nProt, xJust: pick(c.rng, JUSTIFICATIONS) },
          },
        },
      },
      retEventoCTe: {
        '@_versao': '4.00',
        infEvento: {
          tpAmb: '2',
          verAplic: 'SIMULADOR-PLAC',
          cOrgao: cUF,
          cStat: '135',
          xMotivo: 'Evento registrado e vinculado a CT-e',
          chCTe: cancelled.chave,
          tpEvento: '110111',
          xEvento: 'Cancelamento registrado',
          nSeqEvento: '1',
          dhRegEvento: brasilia(eventMs + 2000),
          nProt: eventProt,
        },
      },
    },
  };
  return { kind: 'procEventoCTe', chave: cancelled.chave, schema: CTE_SCHEMA_BY_ROOT.procEventoCTe!, xml: XML_DECLARATION + builder.build(doc) };
}

/** Document `index` (0-based) of the UF's generated CT-e sequence for this seed. */
export function generateCte(seed: number, uf: Uf, index: number, options: CteGenerateOptions = {}): GeneratedCte {
  return kindOf(seed, uf, index) === 'procEventoCTe' ? procEventoCTe(seed, uf, index, options) : cteProc(seed, uf, index, options);
}
