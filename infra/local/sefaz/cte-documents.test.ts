import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { isValidChaveAcesso, isValidCnpj, splitChaveAcesso, type Uf } from '@plac/shared/domain';
import { generateCte } from './cte-documents';
import { CARRIER_POOL, COMPANY_POOL, generateDocument } from './documents';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => name === 'dup' || name === 'infNFe' || name === 'Comp',
});
const cents = (text: string) => {
  expect(text).toMatch(/^\d+\.\d{2}$/);
  return Math.round(Number(text) * 100);
};

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function ctes(seed: number, uf: Uf, count: number) {
  return Array.from({ length: count }, (_, i) => generateCte(seed, uf, i));
}

describe('Sefaz simulator CT-e documents', () => {
  const docs = ctes(42, 'BA', 400);
  const procs = docs.filter((d) => d.kind === 'cteProc').map((d) => ({ d, proc: (parser.parse(d.xml) as Node).cteProc as Node }));

  it('the same seed gives the same documents; another seed or UF gives others; the NF-e stream is apart', () => {
    expect(ctes(42, 'BA', 50)).toEqual(docs.slice(0, 50));
    expect(ctes(43, 'BA', 5).map((d) => d.xml)).not.toEqual(docs.slice(0, 5).map((d) => d.xml));
    expect(ctes(42, 'SP', 5)[0]!.chave.slice(0, 2)).toBe('35');
    expect(docs[0]!.chave).not.toBe(generateDocument(42, 'BA', 0).chave);
  });

  it('mixes CT-e and cancellations (about 3%), with the schema of their root', () => {
    const events = docs.filter((d) => d.kind === 'procEventoCTe');
    expect(events.length).toBeGreaterThanOrEqual(4);
    expect(events.length).toBeLessThanOrEqual(25);
    for (const d of docs) {
      expect(d.xml).toMatch(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?><${d.kind} versao="4.00" xmlns="http://www.portalfiscal.inf.br/cte">`));
      expect(d.schema).toBe(d.kind === 'cteProc' ? 'procCTe_v4.00.xsd' : 'procEventoCTe_v4.00.xsd');
    }
  });

  it('every key is a valid, unique model-57 key of the carrier that matches ide', () => {
    const keys = procs.map(({ d }) => d.chave);
    expect(new Set(keys).size).toBe(keys.length);
    for (const { d, proc } of procs) {
      const inf = proc.CTe.infCte;
      const parts = splitChaveAcesso(d.chave)!;
      expect(parts, d.chave).toBeDefined();
      expect(inf['@_Id']).toBe(`CTe${d.chave}`);
      expect(parts).toMatchObject({ cUF: '29', mod: '57', serie: '001', tpEmis: '1', cNF: inf.ide.cCT, cDV: inf.ide.cDV, cnpj: inf.emit.CNPJ });
      expect(Number(parts.nNF)).toBe(Number(inf.ide.nCT));
      expect(parts.aamm).toBe(inf.ide.dhEmi.slice(2, 4) + inf.ide.dhEmi.slice(5, 7));
      expect(proc.protCTe.infProt).toMatchObject({ chCTe: d.chave, cStat: '100' });
    }
  });

  it('the emitter is a carrier, sender and recipient come from the company pool, CNPJs valid', () => {
    const carriers = CARRIER_POOL.map((c) => c.cnpj);
    const companies = COMPANY_POOL.map((c) => c.cnpj);
    for (const { proc } of procs) {
      const inf = proc.CTe.infCte;
      expect(carriers).toContain(inf.emit.CNPJ);
      expect(inf.emit.enderEmit.UF).toBe('BA');
      expect(companies).toContain(inf.rem.CNPJ);
      expect(companies).toContain(inf.dest.CNPJ);
      expect(inf.rem.CNPJ).not.toBe(inf.dest.CNPJ);
      expect([inf.emit.CNPJ, inf.rem.CNPJ, inf.dest.CNPJ].every(isValidCnpj)).toBe(true);
      expect(inf.ide).toMatchObject({ mod: '57', natOp: 'PRESTACAO DE SERVICO DE TRANSPORTE', modal: '01', tpServ: '0', tpCTe: '0', tpEmis: '1', tpAmb: '2', UFIni: 'BA' });
      expect(inf.ide.CFOP).toBe(inf.ide.UFFim === 'BA' ? '5353' : '6353');
      expect(inf.ide.cCT).toMatch(/^\d{8}$/);
      expect(inf.ide.dhEmi).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
    }
    const emitters = procs.map(({ proc }) => proc.CTe.infCte.emit.CNPJ as string);
    expect(emitters.some((c) => /[A-Z]/.test(c))).toBe(true);
  });

  it('the tomador is the sender, the recipient or a third company of its own (toma4)', () => {
    const tomas = procs.map(({ proc }) => proc.CTe.infCte.ide as Node);
    const toma3 = tomas.filter((ide) => ide.toma3).map((ide) => ide.toma3.toma as string);
    const toma4 = tomas.filter((ide) => ide.toma4).map((ide) => ide.toma4 as Node);
    expect(new Set(toma3)).toEqual(new Set(['0', '3']));
    expect(toma4.length).toBeGreaterThan(10);
    for (const t of toma4) {
      expect(t.toma).toBe('4');
      expect(isValidCnpj(t.CNPJ)).toBe(true);
    }
    expect(tomas.every((ide) => Boolean(ide.toma3) !== Boolean(ide.toma4))).toBe(true);
  });

  it('names 1 to 3 valid NF-e keys of the sender', () => {
    for (const { proc } of procs) {
      const inf = proc.CTe.infCte;
      const keys = (inf.infCTeNorm.infDoc.infNFe as Node[]).map((n) => n.chave as string);
      expect(keys.length).toBeGreaterThanOrEqual(1);
      expect(keys.length).toBeLessThanOrEqual(3);
      for (const key of keys) {
        expect(isValidChaveAcesso(key), key).toBe(true);
        expect(splitChaveAcesso(key)).toMatchObject({ mod: '55', cnpj: inf.rem.CNPJ });
      }
    }
  });

  it('adds up: components to vTPrest, the bill to vLiq, the instalments to vLiq; about 80% with a bill', () => {
    let withBill = 0;
    for (const { proc } of procs) {
      const inf = proc.CTe.infCte;
      const vTPrest = cents(inf.vPrest.vTPrest);
      expect(cents(inf.vPrest.vRec)).toBe(vTPrest);
      expect((inf.vPrest.Comp as Node[]).reduce((sum, comp) => sum + cents(comp.vComp), 0)).toBe(vTPrest);
      expect(cents(inf.imp.ICMS.ICMS00.vBC)).toBe(vTPrest);
      expect(cents(inf.infCTeNorm.infCarga.vCarga)).toBeGreaterThan(0);
      expect(inf.infCTeNorm.infCarga.proPred.length).toBeGreaterThan(3);
      const cobr = inf.infCTeNorm.cobr as Node | undefined;
      if (!cobr) continue;
      withBill++;
      const fat = cobr.fat;
      expect(cents(fat.vOrig)).toBe(vTPrest);
      expect(cents(fat.vLiq)).toBe(cents(fat.vOrig) - cents(fat.vDesc));
      const dups = cobr.dup as Node[];
      expect(dups.length).toBeGreaterThanOrEqual(1);
      expect(dups.length).toBeLessThanOrEqual(4);
      expect(dups.reduce((sum, dup) => sum + cents(dup.vDup), 0)).toBe(cents(fat.vLiq));
      expect(dups.map((dup) => dup.nDup)).toEqual(dups.map((_, i) => String(i + 1).padStart(3, '0')));
      const dates = dups.map((dup) => dup.dVenc as string);
      expect([...dates].sort()).toEqual(dates);
      expect(new Set(dates).size).toBe(dates.length);
    }
    expect(withBill / procs.length).toBeGreaterThan(0.72);
    expect(withBill / procs.length).toBeLessThan(0.88);
  });

  it('a cancellation names an earlier CT-e of the same sequence, with its protocol', () => {
    const events = docs.map((d, i) => ({ d, i })).filter(({ d }) => d.kind === 'procEventoCTe');
    for (const { d, i } of events) {
      const p = (parser.parse(d.xml) as Node).procEventoCTe;
      const inf = p.eventoCTe.infEvento;
      expect(inf).toMatchObject({ tpEvento: '110111', chCTe: d.chave });
      expect(inf.detEvento.evCancCTe.descEvento).toBe('Cancelamento');
      expect(inf.detEvento.evCancCTe.xJust.length).toBeGreaterThanOrEqual(15);
      expect(p.retEventoCTe.infEvento.cStat).toBe('135');
      const earlier = procs.find(({ d: x }) => x.chave === d.chave && docs.indexOf(x) < i);
      expect(earlier, d.chave).toBeDefined();
      expect(inf.detEvento.evCancCTe.nProt).toBe(earlier!.proc.protCTe.infProt.nProt);
    }
  });

  it('follows the clock option, as the NF-e do', () => {
    const atMs = Date.parse('2027-01-10T12:00:00Z');
    const doc = generateCte(42, 'BA', 3, { clock: (i) => ({ atMs: atMs + i * 60_000, spacingMs: 60_000 }) });
    const dhEmi = Date.parse(/<dhEmi>([^<]+)</.exec(doc.xml)![1]!);
    expect(dhEmi - (atMs + 3 * 60_000)).toBeGreaterThanOrEqual(0);
    expect(dhEmi - (atMs + 3 * 60_000)).toBeLessThan(60_000);
    expect(doc.chave.slice(2, 6)).toBe('2701');
  });
});
