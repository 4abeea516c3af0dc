import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it, vi } from 'vitest';
import { isValidChaveAcesso, isValidCnpj, type Uf } from '@plac/shared/domain';
import { parseDocumento } from '../../../functions/fate/parse';
import { CARRIER_POOL, COMPANY_POOL, generateDocument, mulberry32 } from './documents';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (name) => name === 'det' || name === 'dup' });
const cents = (text: string) => {
  expect(text).toMatch(/^\d+\.\d{2}$/);
  return Math.round(Number(text) * 100);
};

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function documents(seed: number, uf: Uf, count: number) {
  return Array.from({ length: count }, (_, i) => generateDocument(seed, uf, i));
}

describe('Sefaz simulator documents', () => {
  const docs = documents(42, 'BA', 400);

  it('mulberry32 is deterministic and in [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const values = Array.from({ length: 100 }, () => a());
    expect(values).toEqual(Array.from({ length: 100 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  });

  it('the same seed gives the same documents; another seed or UF gives others', () => {
    expect(documents(42, 'BA', 50)).toEqual(docs.slice(0, 50));
    expect(documents(43, 'BA', 5).map((d) => d.xml)).not.toEqual(docs.slice(0, 5).map((d) => d.xml));
    expect(documents(42, 'SP', 5)[0]!.chave.slice(0, 2)).toBe('35');
  });

  it('mixes NF-e (about 2/3), summaries, cancellations (about 3%) and the receivable’s evidence (about 18%)', () => {
    const count = (kind: string) => docs.filter((d) => d.kind === kind && !d.evidencia).length;
    expect(count('nfeProc')).toBeGreaterThan(240);
    expect(count('resNFe')).toBeGreaterThan(20);
    expect(count('procEventoNFe')).toBeGreaterThanOrEqual(4);
    expect(count('procEventoNFe')).toBeLessThanOrEqual(25);
    const evidencias = docs.filter((d) => d.evidencia).length;
    expect(evidencias).toBeGreaterThan(40);
    expect(evidencias).toBeLessThan(110);
  });

  it('evidence in plausible proportions: mostly confirmed or acknowledged, a few disowned, delivery proofs, returns, some before their NF-e', () => {
    const many = documents(7, 'SP', 3000).map((d, i) => ({ d, i }));
    const evid = many.filter(({ d }) => d.evidencia);
    const share = (t: string) => evid.filter(({ d }) => d.evidencia === t).length / evid.length;
    expect(share('210200') + share('210210')).toBeGreaterThan(0.5);
    expect(share('210220') + share('210240')).toBeGreaterThan(0.02);
    expect(share('210220') + share('210240')).toBeLessThan(0.12);
    expect(share('110130')).toBeGreaterThan(0.15);
    expect(share('DEVOLUCAO')).toBeGreaterThan(0.03);
    expect(share('110110')).toBeGreaterThan(0.03);
    // The NF-e each one is about is in the sequence; some come after the event.
    const posicao = new Map(many.filter(({ d }) => d.kind === 'nfeProc' && !d.evidencia).map(({ d, i }) => [d.chave, i]));
    const depois = evid.filter(({ d, i }) => (posicao.get(d.ref!) ?? -1) > i).length;
    for (const { d } of evid) expect(posicao.has(d.ref!), d.ref).toBe(true);
    expect(depois / evid.length).toBeGreaterThan(0.03);
    expect(depois / evid.length).toBeLessThan(0.15);
  });

  it('every evidence document parses as the loader reads it, naming its NF-e', () => {
    vi.stubEnv('PLAC_SEFAZ_TPAMB', '2');
    for (const d of docs.filter((x) => x.evidencia)) {
      const doc = parseDocumento(d);
      if (d.evidencia === 'DEVOLUCAO') expect(doc).toMatchObject({ kind: 'vinculo', vinculos: { tipo: 'DEVOLUCAO', chaves: [d.ref] } });
      else expect(doc).toMatchObject({ kind: 'evento', tpEvento: d.evidencia, chave: d.ref });
    }
    vi.unstubAllEnvs();
  });

  it('every key and CNPJ is valid, keys are unique, and the pool has alphanumeric CNPJs', () => {
    expect(COMPANY_POOL.every((c) => isValidCnpj(c.cnpj))).toBe(true);
    expect(COMPANY_POOL.filter((c) => /[A-Z]/.test(c.cnpj)).length).toBeGreaterThan(5);
    const nfes = docs.filter((d) => d.kind !== 'procEventoNFe' && !d.evidencia);
    expect(new Set(nfes.map((d) => d.chave)).size).toBe(nfes.length);
    for (const d of docs) expect(isValidChaveAcesso(d.chave), d.chave).toBe(true);
    const emitters = docs.filter((d) => d.kind === 'nfeProc').map((d) => (parser.parse(d.xml) as Node).nfeProc.NFe.infNFe.emit.CNPJ as string);
    expect(emitters.some((c) => /[A-Z]/.test(c))).toBe(true);
  });

  it('most NF-e name a carrier of the carrier pool in transp/transporta (valid CNPJs, some alphanumeric)', () => {
    expect(CARRIER_POOL.every((c) => isValidCnpj(c.cnpj))).toBe(true);
    expect(CARRIER_POOL.some((c) => /[A-Z]/.test(c.cnpj))).toBe(true);
    const transps = docs.filter((d) => d.kind === 'nfeProc').map((d) => (parser.parse(d.xml) as Node).nfeProc.NFe.infNFe.transp as Node);
    const withCarrier = transps.filter((t) => t.transporta);
    expect(withCarrier.length / transps.length).toBeGreaterThan(0.6);
    expect(withCarrier.length / transps.length).toBeLessThan(0.8);
    for (const t of withCarrier) expect(CARRIER_POOL.map((c) => c.cnpj)).toContain(t.transporta.CNPJ);
    expect(transps.filter((t) => !t.transporta).every((t) => t.modFrete === '9')).toBe(true);
  });

  it('an NF-e adds up: items to vProd, vProd − vDesc to vNF, the bill to vLiq, the instalments to vLiq', () => {
    for (const d of docs.filter((x) => x.kind === 'nfeProc' && !x.evidencia)) {
      const proc = (parser.parse(d.xml) as Node).nfeProc;
      expect(proc['@_xmlns']).toBe('http://www.portalfiscal.inf.br/nfe');
      const inf = proc.NFe.infNFe;
      expect(inf['@_Id']).toBe(`NFe${d.chave}`);
      expect(inf.ide.dhEmi).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
      expect(isValidCnpj(inf.emit.CNPJ) && isValidCnpj(inf.dest.CNPJ)).toBe(true);
      const tot = inf.total.ICMSTot;
      const items = (inf.det as Node[]).reduce((sum, det) => sum + cents(det.prod.vProd), 0);
      expect(cents(tot.vProd)).toBe(items);
      expect(cents(tot.vNF)).toBe(cents(tot.vProd) - cents(tot.vDesc));
      const fat = inf.cobr.fat;
      expect(cents(fat.vOrig)).toBe(cents(tot.vNF));
      expect(cents(fat.vLiq)).toBe(cents(fat.vOrig) - cents(fat.vDesc));
      const dups = inf.cobr.dup as Node[];
      expect(dups.length).toBeGreaterThanOrEqual(1);
      expect(dups.length).toBeLessThanOrEqual(12);
      expect(dups.reduce((sum, dup) => sum + cents(dup.vDup), 0)).toBe(cents(fat.vLiq));
      expect(dups.map((dup) => dup.nDup)).toEqual(dups.map((_, i) => String(i + 1).padStart(3, '0')));
      const dates = dups.map((dup) => dup.dVenc as string);
      expect([...dates].sort()).toEqual(dates);
      expect(new Set(dates).size).toBe(dates.length);
      expect(proc.protNFe.infProt.chNFe).toBe(d.chave);
      expect(proc.protNFe.infProt.cStat).toBe('100');
    }
  });

  it('a cancellation names an earlier NF-e of the same sequence', () => {
    const events = docs.map((d, i) => ({ d, i })).filter(({ d }) => d.kind === 'procEventoNFe' && !d.evidencia);
    for (const { d, i } of events) {
      const inf = (parser.parse(d.xml) as Node).procEventoNFe.evento.infEvento;
      expect(inf.tpEvento).toBe('110111');
      expect(inf.detEvento.xJust.length).toBeGreaterThanOrEqual(15);
      const earlier = docs.slice(0, i).find((x) => x.kind === 'nfeProc' && !x.evidencia && x.chave === d.chave);
      expect(earlier, d.chave).toBeDefined();
    }
  });

  it('a summary carries the key, the emitter and the value', () => {
    const res = docs.find((d) => d.kind === 'resNFe')!;
    const body = (parser.parse(res.xml) as Node).resNFe;
    expect(body.chNFe).toBe(res.chave);
    expect(isValidCnpj(body.CNPJ)).toBe(true);
    expect(body.cSitNFe).toBe('1');
    expect(body.vNF).toMatch(/^\d+\.\d{2}$/);
  });

  it('breakSchema leaves the billing group and the emitter out', () => {
    const index = docs.findIndex((d) => d.kind === 'nfeProc' && !d.evidencia);
    const broken = generateDocument(42, 'BA', index, { breakSchema: true });
    expect(broken.xml).not.toContain('<cobr>');
    expect(broken.xml).not.toContain('<emit>');
  });
});
