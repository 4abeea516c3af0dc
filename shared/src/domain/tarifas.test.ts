import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asCentavos, asMilesimos, type Milesimos } from './money';
import { faixaDaQuantidade, intervaloFaixa, precificar, tipoVersao, validarFaixas, type FaixaPreco, type TabelaPreco } from './tarifas';

const UFS = ['BA', 'SP', 'MG', 'PE'] as const;

/** Contiguous bands from 1: a list of widths, the last open-ended or capped. */
const faixasArb = fc
  .tuple(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 6 }), fc.boolean())
  .map(([larguras, aberta]): FaixaPreco[] => {
    let minimo = 1;
    return larguras.map((largura, i) => {
      const ultima = i === larguras.length - 1;
      const f = { faixaId: String(i + 1), qtdMinima: minimo, qtdMaxima: ultima && aberta ? null : minimo + largura };
      minimo += largura + 1;
      return f;
    });
  });

function tabelaArb(opts: { naoDecrescente?: boolean } = {}) {
  return faixasArb.chain((faixas) =>
    fc
      .record({
        assinatura: fc.integer({ min: 0, max: 10_000_000 }),
        promo: fc.option(fc.integer({ min: 0, max: faixas.length - 1 }), { nil: null }),
        valores: fc.array(fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: faixas.length, maxLength: faixas.length }), {
          minLength: 3,
          maxLength: 3,
        }),
      })
      .map(({ assinatura, promo, valores }): TabelaPreco => ({
        faixas,
        faixaPromocionalId: promo === null ? null : faixas[promo]!.faixaId,
        assinatura: asCentavos(assinatura),
        valores: new Map(
          valores.map((porFaixa, s) => {
            const v = opts.naoDecrescente ? [...porFaixa].sort((a, b) => a - b) : porFaixa;
            return [s + 1, new Map(faixas.map((f, i) => [f.faixaId, asMilesimos(v[i]!)]))] as const;
          }),
        ),
      })),
  );
}

const consumoArb = fc.array(
  fc.record({ servId: fc.integer({ min: 1, max: 4 }), uf: fc.constantFrom(...UFS), quantidade: fc.integer({ min: 0, max: 40_000 }) }),
  { maxLength: 12 },
);

describe('the price rule (precificar)', () => {
  it('never answers a negative amount, only whole centavos, and its lines sum to the services total', () => {
    fc.assert(
      fc.property(tabelaArb(), consumoArb, (tabela, consumo) => {
        const preco = precificar(tabela, consumo);
        const amounts = [preco.valorServicos, preco.valorAssinatura, preco.total, ...preco.linhas.map((l) => l.valor)];
        for (const amount of amounts) {
          expect(Number.isSafeInteger(amount)).toBe(true);
          expect(amount).toBeGreaterThanOrEqual(0);
        }
        expect(preco.linhas.reduce((sum, l) => sum + l.valor, 0)).toBe(preco.valorServicos);
        expect(preco.total).toBe(preco.valorServicos + preco.valorAssinatura);
        expect(preco.total).toBe(Math.max(preco.valorServicos, tabela.assinatura));
      }),
    );
  });

  it('prices every request of a service at the band of its month total, all UFs together', () => {
    fc.assert(
      fc.property(tabelaArb(), consumoArb, (tabela, consumo) => {
        const preco = precificar(tabela, consumo);
        for (const linha of preco.linhas) {
          const total = consumo.filter((c) => c.servId === linha.servId).reduce((s, c) => s + c.quantidade, 0);
          const faixa = faixaDaQuantidade(tabela.faixas, total);
          expect(linha.faixaId).toBe(faixa?.faixaId ?? null);
          expect(linha.promocional).toBe(faixa !== null && faixa.faixaId === tabela.faixaPromocionalId);
          // quantity × thousandths, half-up to centavos, computed here in BigInt as a second opinion
          const milesimos = BigInt(linha.quantidade) * BigInt(linha.valorUnitario);
          expect(BigInt(linha.valor)).toBe((milesimos + 5n) / 10n);
        }
      }),
    );
  });

  it('is monotonic in quantity while a service stays in its band, and always when unit values do not fall from band to band', () => {
    const mais = fc.record({ servIndex: fc.nat(), extra: fc.integer({ min: 1, max: 20_000 }) });
    const check = (tabela: TabelaPreco, consumo: { servId: number; uf: string; quantidade: number }[], { servIndex, extra }: { servIndex: number; extra: number }, sempre: boolean) => {
      if (consumo.length === 0) return;
      const i = servIndex % consumo.length;
      const maior = consumo.map((c, j) => (j === i ? { ...c, quantidade: c.quantidade + extra } : c));
      const antes = precificar(tabela, consumo);
      const depois = precificar(tabela, maior);
      const mesmaFaixa = antes.linhas[i]!.faixaId === depois.linhas[i]!.faixaId;
      if (sempre || mesmaFaixa) {
        expect(depois.valorServicos).toBeGreaterThanOrEqual(antes.valorServicos);
        expect(depois.total).toBeGreaterThanOrEqual(antes.total);
      }
    };
    fc.assert(fc.property(tabelaArb(), consumoArb, mais, (t, c, m) => check(t, c, m, false)));
    fc.assert(fc.property(tabelaArb({ naoDecrescente: true }), consumoArb, mais, (t, c, m) => check(t, c, m, true)));
  });

  it('the worked example of docs/tarifas.md', () => {
    const faixas: FaixaPreco[] = [
      { faixaId: '1', qtdMinima: 1, qtdMaxima: 10_000 },
      { faixaId: '2', qtdMinima: 10_001, qtdMaxima: 100_000 },
      { faixaId: '3', qtdMinima: 100_001, qtdMaxima: null },
    ];
    const v = (a: number, b: number, c: number) => new Map<string, Milesimos>([['1', asMilesimos(a)], ['2', asMilesimos(b)], ['3', asMilesimos(c)]]);
    const tabela: TabelaPreco = { faixas, faixaPromocionalId: '1', assinatura: asCentavos(150_000), valores: new Map([[1, v(150, 125, 95)], [5, v(900, 750, 600)]]) };
    const preco = precificar(tabela, [
      { servId: 1, uf: 'BA', quantidade: 8_000 },
      { servId: 1, uf: 'SP', quantidade: 4_503 },
      { servId: 5, uf: 'BA', quantidade: 1_237 },
    ]);
    expect(preco.linhas.map((l) => [l.faixaId, l.valorUnitario, l.valor])).toEqual([
      ['2', 125, 100_000], // 8.000 × R$ 0,125 = R$ 1.000,00
      ['2', 125, 56_288], // 4.503 × R$ 0,125 = R$ 562,875 → R$ 562,88
      ['1', 900, 111_330], // 1.237 × R$ 0,900 = R$ 1.113,30 (promotional band)
    ]);
    expect(preco.linhas[2]!.promocional).toBe(true);
    expect(preco.valorServicos).toBe(267_618);
    expect(preco.valorAssinatura).toBe(0);
    expect(precificar(tabela, [{ servId: 5, uf: 'BA', quantidade: 100 }])).toMatchObject({ valorServicos: 9_000, valorAssinatura: 141_000, total: 150_000 });
    // Volume pricing: crossing into a cheaper band can lower the bill (the cliff the doc explains).
    expect(precificar(tabela, [{ servId: 1, uf: 'BA', quantidade: 10_000 }]).valorServicos).toBe(150_000);
    expect(precificar(tabela, [{ servId: 1, uf: 'BA', quantidade: 10_001 }]).valorServicos).toBe(125_013);
  });

  it('prices quantities past a capped last band in the last band, and nothing for no request', () => {
    const faixas: FaixaPreco[] = [{ faixaId: '1', qtdMinima: 1, qtdMaxima: 10 }];
    expect(faixaDaQuantidade(faixas, 11)?.faixaId).toBe('1');
    expect(faixaDaQuantidade(faixas, 0)).toBeNull();
  });

  it('refuses fractional or negative quantities and negative values', () => {
    const tabela: TabelaPreco = { faixas: [{ faixaId: '1', qtdMinima: 1, qtdMaxima: null }], faixaPromocionalId: null, assinatura: asCentavos(0), valores: new Map() };
    expect(() => precificar(tabela, [{ servId: 1, uf: 'BA', quantidade: 1.5 }])).toThrow(RangeError);
    expect(() => precificar(tabela, [{ servId: 1, uf: 'BA', quantidade: -1 }])).toThrow(RangeError);
    expect(() => precificar({ ...tabela, valores: new Map([[1, new Map([['1', -1 as Milesimos]])]]) }, [])).toThrow(RangeError);
  });
});

describe('band grid and version kinds', () => {
  it('accepts contiguous bands from 1 and names each refusal', () => {
    expect(validarFaixas([{ qtdMinima: 1, qtdMaxima: 100 }, { qtdMinima: 101, qtdMaxima: null }])).toBeNull();
    expect(validarFaixas([])).toEqual({ erro: 'faixaMinimaObrigatoria' });
    expect(validarFaixas([{ qtdMinima: 2, qtdMaxima: 100 }])).toEqual({ erro: 'faixaSequenciaInvalida', posicao: 1 });
    expect(validarFaixas([{ qtdMinima: 1, qtdMaxima: 1 }])).toEqual({ erro: 'faixaMaximaInvalida', posicao: 1 });
    expect(validarFaixas([{ qtdMinima: 1, qtdMaxima: 10 }, { qtdMinima: 12, qtdMaxima: 20 }])).toEqual({ erro: 'faixaSequenciaInvalida', posicao: 2 });
    expect(validarFaixas([{ qtdMinima: 1, qtdMaxima: null }, { qtdMinima: 2, qtdMaxima: 20 }])).toEqual({ erro: 'faixaAbertaSomenteUltima', posicao: 1 });
    expect(intervaloFaixa({ qtdMinima: 1001, qtdMaxima: null })).toBe('1001 -');
    expect(intervaloFaixa({ qtdMinima: 1, qtdMaxima: 1000 })).toBe('1 - 1000');
  });

  it('kinds by month', () => {
    expect(tipoVersao('2026-08', null, '2026-07')).toBe('ELABORACAO');
    expect(tipoVersao('2026-01', '2026-07', '2026-07')).toBe('VIGENTE');
    expect(tipoVersao('2026-01', null, '2026-07')).toBe('VIGENTE');
    expect(tipoVersao('2025-01', '2026-06', '2026-07')).toBe('HISTORICO');
  });
});
