import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asCentavos } from './money';
import { ajustarPercentual, calcularRepasse, destinoDaParteSefaz, dvValido, ordensDeTransferencia, partesDoRepasse, partesPorUf, pesosPorUf, podeDesativarConvenio, podeRemover, ratear, situacaoGrupoRateio, tiposOferecidos, validarGrupoRateio } from './rateio';

/** Percentage sets as the groups hold them: 1..100 each, summing to exactly 100. */
const percentuaisArb = fc
  .array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 12 })
  .map((xs) => {
    const out: number[] = [];
    let resta = 100;
    for (const x of xs) {
      if (resta <= 0) break;
      const p = Math.min(x, resta);
      out.push(p);
      resta -= p;
    }
    if (resta > 0) out.push(resta);
    return out;
  });

/** Any weights (not only percentages), at least one positive. */
const pesosArb = fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }).filter((ps) => ps.some((p) => p > 0));

const valorArb = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / 1_000_000) }));

function verificar(valor: number, pesos: number[]) {
  const partes = ratear(asCentavos(valor), pesos);
  expect(partes).toHaveLength(pesos.length);
  const total = BigInt(pesos.reduce((s, p) => s + p, 0));
  let soma = 0n;
  partes.forEach((parte, i) => {
    expect(Number.isSafeInteger(parte)).toBe(true);
    expect(parte).toBeGreaterThanOrEqual(0);
    soma += BigInt(parte);
    // |parte − valor·peso/total| < 1  ⇔  |parte·total − valor·peso| < total (exact, in BigInt)
    const diff = BigInt(parte) * total - BigInt(valor) * BigInt(pesos[i]!);
    expect(diff < 0n ? -diff : diff).toBeLessThan(total);
  });
  expect(soma).toBe(BigInt(valor));
}

describe('ratear (largest remainder)', () => {
  it('percentages summing to 100: whole, non-negative, exact sum, within one centavo of the exact share', () => {
    fc.assert(fc.property(valorArb, percentuaisArb, verificar), { numRuns: 2000 });
  });

  it('any integer weights: the same properties', () => {
    fc.assert(fc.property(valorArb, pesosArb, verificar), { numRuns: 1000 });
  });

  it('gives the leftover centavos to the largest remainders, ties to the earlier share', () => {
    // 100 centavos in thirds: 33.33 each, one centavo left, to the first (equal remainders).
    expect(ratear(asCentavos(100), [1, 1, 1])).toEqual([34, 33, 33]);
    // R$ 10,01 at 50/30/20: 500.5 / 300.3 / 200.2 → 501 / 300 / 200.
    expect(ratear(asCentavos(1001), [50, 30, 20])).toEqual([501, 300, 200]);
    // 7 centavos at 10/45/45: 0.7 / 3.15 / 3.15 → floors 0 / 3 / 3, the one left to the largest remainder (0.7).
    expect(ratear(asCentavos(7), [10, 45, 45])).toEqual([1, 3, 3]);
    expect(ratear(asCentavos(0), [60, 40])).toEqual([0, 0]);
    expect(ratear(asCentavos(123), [100])).toEqual([123]);
  });

  it('refuses negative or fractional amounts and empty or zero weights', () => {
    expect(() => ratear(-1 as never, [1])).toThrow(RangeError);
    expect(() => ratear(1.5 as never, [1])).toThrow(RangeError);
    expect(() => ratear(asCentavos(1), [])).toThrow(RangeError);
    expect(() => ratear(asCentavos(1), [0, 0])).toThrow(RangeError);
    expect(() => ratear(asCentavos(1), [1.5])).toThrow(RangeError);
  });
});

describe('sharing group rules (spec 3, 5.2)', () => {
  const sefaz = (id: string, convenioAtivo = true) => ({ tipo: 'SEFAZ' as const, idParticipante: id, nomeParticipante: id, percentualRateio: 0, convenioAtivo });
  const part = (id: string | null, p: number, tipo: 'PARTICIPANTE' | 'RESIDUO' = 'PARTICIPANTE', nome = id ?? '') => ({ tipo, idParticipante: id, nomeParticipante: nome, percentualRateio: p, convenioAtivo: true });

  it('answers the first failing rule', () => {
    const ok = [sefaz('sefaz-BA'), part('fatec', 30), part(null, 10, 'RESIDUO', 'Fundo')];
    expect(validarGrupoRateio('Grupo', 60, ok)).toBeNull();
    expect(validarGrupoRateio('  ', 60, ok)).toEqual({ erro: 'campoObrigatorio', field: 'Nome do Grupo' });
    expect(validarGrupoRateio('x'.repeat(101), 60, ok)).toEqual({ erro: 'campoObrigatorio', field: 'Nome do Grupo' });
    expect(validarGrupoRateio('Grupo', 60, ok.slice(0, 2))).toEqual({ erro: 'residuoObrigatorio' });
    expect(validarGrupoRateio('Grupo', 59, ok)).toEqual({ erro: 'percentualNaoTotaliza' });
    expect(validarGrupoRateio('Grupo', 0, ok)).toEqual({ erro: 'percentualInvalido' });
    expect(validarGrupoRateio('Grupo', 60, [ok[1]!, ok[2]!])).toEqual({ erro: 'minimoSefaz' });
    expect(validarGrupoRateio('Grupo', 60, [sefaz('sefaz-BA', false), ok[1]!, ok[2]!])).toEqual({ erro: 'minimoSefazAtivo' });
    expect(validarGrupoRateio('Grupo', 60, [...ok, part('fatec', 1)])).toEqual({ erro: 'participanteExistente' });
    expect(validarGrupoRateio('Grupo', 60, [ok[0]!, ok[1]!, part(null, 10, 'RESIDUO', ' ')])).toEqual({ erro: 'participanteNomeObrigatorio' });
    // SEFAZ beneficiaries share the group's percentage: counted once.
    expect(validarGrupoRateio('Grupo', 60, [sefaz('sefaz-BA'), sefaz('sefaz-PE'), ok[1]!, ok[2]!])).toBeNull();
  });

  it('clamps percentages to 1-100 with their errors, and guards removals, agreements, types and check digits', () => {
    expect(ajustarPercentual(0)).toEqual({ valor: 1, erro: 'percentualMenorUm' });
    expect(ajustarPercentual(101)).toEqual({ valor: 100, erro: 'percentualMaiorCem' });
    expect(ajustarPercentual(40)).toEqual({ valor: 40, erro: null });
    const lista = [sefaz('a'), sefaz('b', false), part('c', 10, 'RESIDUO')];
    expect(podeRemover(lista, 0)).toBe(true);
    expect(podeRemover([sefaz('a'), part('c', 10)], 0)).toBe(false);
    expect(podeDesativarConvenio(lista, 0)).toBe(false);
    expect(podeDesativarConvenio([sefaz('a'), sefaz('b')], 0)).toBe(true);
    expect(tiposOferecidos(lista)).toEqual(['SEFAZ', 'PARTICIPANTE']);
    expect(tiposOferecidos([sefaz('a')])).toEqual(['SEFAZ', 'PARTICIPANTE', 'RESIDUO']);
    expect(dvValido('1')).toBe(true);
    expect(dvValido('X')).toBe(true);
    expect(dvValido('12')).toBe(false);
    expect(dvValido('')).toBe(false);
    expect(situacaoGrupoRateio('2026-12', null, '2026-11')).toBe('ELABORACAO');
    expect(situacaoGrupoRateio('2026-01', '2026-10', '2026-11')).toBe('DESATIVADO');
    expect(situacaoGrupoRateio('2026-01', '2026-11', '2026-11')).toBe('VIGENTE');
  });
});

describe('the UF of each amount of an invoice (issue 37 item 3: one rule for the screen, the files and the orders)', () => {
  it('by its lines’ values; evenly when all are zero; under no UF without lines', () => {
    expect(pesosPorUf([{ uf: 'SP', valor: 200 }, { uf: 'BA', valor: 100 }, { uf: 'BA', valor: 0 }])).toEqual({ ufs: ['BA', 'SP'], pesos: [100, 200] });
    expect(partesPorUf(10, [{ uf: 'SP', valor: 200 }, { uf: 'BA', valor: 100 }])).toEqual([{ uf: 'BA', valor: 3 }, { uf: 'SP', valor: 7 }]);
    expect(partesPorUf(750_01, [{ uf: 'RO', valor: 0 }, { uf: 'BA', valor: 0 }])).toEqual([{ uf: 'BA', valor: 375_01 }, { uf: 'RO', valor: 375_00 }]);
    expect(partesPorUf(500_00, [])).toEqual([{ uf: '', valor: 500_00 }]);
  });
});

describe('calcularRepasse', () => {
  const bens = [
    { beneficiadoId: 'ba', nome: 'SEFAZ BA', tipo: 'SEFAZ' as const, uf: 'BA', percentual: 60, ativoNoMes: true },
    { beneficiadoId: 'sp', nome: 'SEFAZ SP', tipo: 'SEFAZ' as const, uf: 'SP', percentual: 60, ativoNoMes: false },
    { beneficiadoId: 'fatec', nome: 'FATEC', tipo: 'PARTICIPANTE' as const, uf: null, percentual: 30, ativoNoMes: true },
    { beneficiadoId: 'res', nome: 'Resíduo', tipo: 'RESIDUO' as const, uf: null, percentual: 10, ativoNoMes: true },
  ];

  it('splits per origin UF; the SEFAZ share of a UF without an active agreement goes to the Resíduo', () => {
    const linhas = calcularRepasse([{ faturaId: 'f1', cnpj: '1', razaoSocial: 'A', valorTotal: 100_001, itens: [{ uf: 'BA', valor: 50_000 }, { uf: 'SP', valor: 50_000 }] }], 60, bens);
    const de = (uf: string, id: string) => linhas.find((l) => l.uf === uf && l.beneficiadoId === id)?.valor;
    expect(linhas.filter((l) => l.uf === 'BA').reduce((s, l) => s + l.valor, 0)).toBe(50_001);
    expect(de('BA', 'ba')).toBe(30_001);
    expect(de('SP', 'res')).toBeGreaterThan(30_000 - 1);
    expect(linhas.some((l) => l.beneficiadoId === 'sp')).toBe(false);
    expect(linhas.reduce((s, l) => s + l.valor, 0)).toBe(100_001);
    expect(ordensDeTransferencia(linhas, bens).map((o) => o.beneficiadoId)).toEqual(['ba', 'fatec', 'res']);
  });

  it('for random invoices the shares are whole, non-negative and add up to each invoice exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ valorTotal: fc.integer({ min: 0, max: 10_000_000 }), itens: fc.array(fc.record({ uf: fc.constantFrom('BA', 'SP', 'PE', 'RO'), valor: fc.integer({ min: 0, max: 1_000_000 }) }), { maxLength: 6 }) }), { maxLength: 8 }),
        (fs) => {
          const faturas = fs.map((f, i) => ({ ...f, faturaId: `f${i}`, cnpj: '1', razaoSocial: 'A' }));
          const linhas = calcularRepasse(faturas, 60, bens);
          for (const f of faturas) {
            const minhas = linhas.filter((l) => l.faturaId === f.faturaId);
            expect(minhas.every((l) => Number.isInteger(l.valor) && l.valor >= 0)).toBe(true);
            expect(minhas.reduce((s, l) => s + l.valor, 0)).toBe(f.valorTotal);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the split kept with the SEFAZ share by UF, its beneficiary chosen when read, is calcularRepasse’s for either state of an agreement (issue 38)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ valorTotal: fc.integer({ min: 0, max: 10_000_000 }), itens: fc.array(fc.record({ uf: fc.constantFrom('BA', 'SP', 'PE'), valor: fc.integer({ min: 0, max: 1_000_000 }) }), { maxLength: 6 }) }), { maxLength: 8 }),
        fc.boolean(),
        (fs, spAtivo) => {
          const faturas = fs.map((f, i) => ({ ...f, faturaId: `f${i}`, cnpj: '1', razaoSocial: 'A' }));
          // Written when paid (the agreement as it was then: SP off), read later (SP on or off).
          const outros = bens.filter((b) => b.tipo !== 'SEFAZ');
          const guardado = new Map<string, number>();
          for (const f of faturas) {
            for (const { uf, sefaz, resto } of partesDoRepasse(f, 60, bens)) {
              guardado.set(`${uf}|S`, (guardado.get(`${uf}|S`) ?? 0) + sefaz);
              outros.forEach((b, j) => guardado.set(`${uf}|${b.beneficiadoId}`, (guardado.get(`${uf}|${b.beneficiadoId}`) ?? 0) + resto[j]!));
            }
          }
          const agora = bens.map((b) => (b.beneficiadoId === 'sp' ? { ...b, ativoNoMes: spAtivo } : b));
          const lido = new Map<string, number>();
          for (const [k, v] of guardado) {
            const [uf, id] = k.split('|') as [string, string];
            const quem = id === 'S' ? destinoDaParteSefaz(uf, agora).beneficiadoId : id;
            lido.set(quem, (lido.get(quem) ?? 0) + v);
          }
          const esperado = new Map<string, number>();
          for (const l of calcularRepasse(faturas, 60, agora)) esperado.set(l.beneficiadoId, (esperado.get(l.beneficiadoId) ?? 0) + l.valor);
          expect(new Map([...lido].filter(([, v]) => v !== 0))).toEqual(new Map([...esperado].filter(([, v]) => v !== 0)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
