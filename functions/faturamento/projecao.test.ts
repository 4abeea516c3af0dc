import { describe, expect, it } from 'vitest';
import { asCentavos, asMilesimos, type TabelaPreco } from '@plac/shared/domain';
import { diasDoMes, faixasDoServico, projecao, projetar } from './projecao';

const tabela: TabelaPreco = {
  faixas: [
    { faixaId: 'f1', qtdMinima: 1, qtdMaxima: 100 },
    { faixaId: 'f2', qtdMinima: 101, qtdMaxima: 1000 },
    { faixaId: 'f3', qtdMinima: 1001, qtdMaxima: null },
  ],
  faixaPromocionalId: null,
  assinatura: asCentavos(10_000),
  valores: new Map([[9, new Map([['f1', asMilesimos(150)], ['f2', asMilesimos(125)], ['f3', asMilesimos(100)]])]]),
};
const servicos = [{ idModuloServico: 9, descricao: 'Consulta Fat-e' }];

describe('the days of the month', () => {
  it('counts today as elapsed, in calendar days', () => {
    expect(diasDoMes('2026-11', '2026-11-01')).toEqual({ dia: 1, diasNoMes: 30 });
    expect(diasDoMes('2026-11', '2026-11-23')).toEqual({ dia: 23, diasNoMes: 30 });
    expect(diasDoMes('2028-02', '2028-02-29')).toEqual({ dia: 29, diasNoMes: 29 });
  });
});

describe('the pace', () => {
  it('extrapolates linearly by day and rounds to whole requests', () => {
    expect(projetar(10, 10, 30)).toBe(30);
    expect(projetar(7, 3, 31)).toBe(72); // 7 × 31 / 3 = 72.33
    expect(projetar(0, 5, 30)).toBe(0);
  });

  it('is the usage itself on the last day', () => {
    expect(projetar(1234, 30, 30)).toBe(1234);
  });
});

describe('the bands of a service', () => {
  it('names the band reached, the next and how many requests it is away', () => {
    expect(faixasDoServico(tabela, 9, 40, 120)).toEqual({
      faixa: { nome: 'Faixa 1', qtdMinima: 1, qtdMaxima: 100, valorUnitario: 150 },
      proximaFaixa: { nome: 'Faixa 2', qtdMinima: 101, qtdMaxima: 1000, valorUnitario: 125 },
      faltamParaProximaFaixa: 61,
      faixaProjetada: { nome: 'Faixa 2', qtdMinima: 101, qtdMaxima: 1000, valorUnitario: 125 },
    });
  });

  it('has no next band once the last is reached, and the first is next before any request', () => {
    expect(faixasDoServico(tabela, 9, 5000, 9000)).toMatchObject({ faixa: { nome: 'Faixa 3' }, proximaFaixa: null, faltamParaProximaFaixa: null });
    expect(faixasDoServico(tabela, 9, 0, 0)).toMatchObject({ faixa: null, proximaFaixa: { nome: 'Faixa 1' }, faltamParaProximaFaixa: 1 });
  });
});

describe('the projected bill', () => {
  it('prices the month so far and at its end with the billing rule (volume band, half-up, subscription)', () => {
    // Day 10 of 30: 40 + 20 = 60 requests so far (band 1, R$ 0,150) → 180 at the end (band 2, R$ 0,125).
    const p = projecao(
      tabela,
      [
        { servico: 9, uf: 'SP', requisicoes: 40 },
        { servico: 9, uf: 'BA', requisicoes: 20 },
      ],
      servicos,
      'A',
      { dia: 10, diasNoMes: 30 },
    );
    expect(p.tarifacao).toBe(true);
    expect(p.faturavel).toBe(true);
    // So far: 60 × 0,150 = R$ 9,00, topped up to the R$ 100,00 subscription.
    expect(p.atual).toEqual({ valorServicos: 900, valorAssinatura: 9_100, valorTotal: 10_000 });
    // Projected: 180 × 0,125 = R$ 22,50 (120 × 0,125 = 15,00 BA-first order: BA 60 → 7,50; SP 120 → 15,00).
    expect(p.projetada).toEqual({ valorServicos: 2_250, valorAssinatura: 7_750, valorTotal: 10_000 });
    expect(p.itens.map((i) => [i.sgUf, i.requisicoes, i.valorUnitario, i.valorConsumo, i.requisicoesProjetadas, i.valorUnitarioProjetado, i.valorConsumoProjetado])).toEqual([
      ['BA', 20, 150, 300, 60, 125, 750],
      ['SP', 40, 150, 600, 120, 125, 1_500],
    ]);
    expect(p.servicos).toEqual([
      {
        idModuloServico: 9,
        descricao: 'Consulta Fat-e',
        requisicoes: 60,
        requisicoesProjetadas: 180,
        faixa: { nome: 'Faixa 1', qtdMinima: 1, qtdMaxima: 100, valorUnitario: 150 },
        proximaFaixa: { nome: 'Faixa 2', qtdMinima: 101, qtdMaxima: 1000, valorUnitario: 125 },
        faltamParaProximaFaixa: 41,
        faixaProjetada: { nome: 'Faixa 2', qtdMinima: 101, qtdMaxima: 1000, valorUnitario: 125 },
      },
    ]);
  });

  it('is never billable for a client in evaluation, and prices nothing without a tariff version', () => {
    expect(projecao(tabela, [{ servico: 9, uf: 'SP', requisicoes: 3 }], servicos, 'E', { dia: 1, diasNoMes: 30 }).faturavel).toBe(false);
    expect(projecao(null, [{ servico: 9, uf: 'SP', requisicoes: 3 }], servicos, 'A', { dia: 1, diasNoMes: 30 })).toMatchObject({
      tarifacao: false,
      requisicoes: 3,
      atual: null,
      projetada: null,
    });
  });
});
