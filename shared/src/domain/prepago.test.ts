import { describe, expect, it } from 'vitest';
import { asCentavos, asMilesimos } from './money';
import { planoDeDebito, precoDaReserva, prazoDeConsumo, repartirSaldo, SALDO_SHARDS, saldoEmCentavos, validarQuantidades, valorConsumido, vencimentoDaeReserva } from './prepago';
import type { TabelaPreco } from './tarifas';

const tabela: TabelaPreco = {
  faixas: [
    { faixaId: 'f1', qtdMinima: 1, qtdMaxima: 5_000 },
    { faixaId: 'f2', qtdMinima: 5_001, qtdMaxima: 50_000_000 },
    { faixaId: 'f3', qtdMinima: 50_000_001, qtdMaxima: null },
  ],
  faixaPromocionalId: null,
  assinatura: asCentavos(75_000),
  valores: new Map([
    [9, new Map([['f1', asMilesimos(20)], ['f2', asMilesimos(12)], ['f3', asMilesimos(10)]])],
    [6, new Map([['f2', asMilesimos(30)], ['f3', asMilesimos(25)]])],
    [8, new Map([['f2', asMilesimos(400)], ['f3', asMilesimos(350)]])],
  ]),
};

describe('prepaid reservation rules (spec 3, 5.3)', () => {
  it('needs 50.000.000 of Envio de Fat-e and in total', () => {
    expect(validarQuantidades({ qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 })).toBeNull();
    expect(validarQuantidades({ qtdEnvioFate: 49_999_999, qtdMonitoramentoDe: 1, qtdRegistroCessao: 0 })).toBe('reservaQuantidadeMinima');
  });

  it('prices every service at the band of the total, half-up per line, without the subscription', () => {
    const p = precoDaReserva(tabela, { qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 3, qtdRegistroCessao: 0 })!;
    // 50.000.003 requests fall in f3: 50M × R$ 0,010 + 3 × R$ 0,025 (= 7,5 centavos → 8) + 0.
    expect(p.faixaId).toBe('f3');
    expect(p.linhas.map((l) => [l.servico, l.valorUnitario, l.valor])).toEqual([
      [9, 10, 50_000_000],
      [6, 25, 8],
      [8, 350, 0],
    ]);
    expect(p.total).toBe(50_000_008);
    // Exactly 50M stays in f2.
    expect(precoDaReserva(tabela, { qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 })!.total).toBe(60_000_000);
  });

  it('answers null when the table has no band', () => {
    expect(precoDaReserva({ ...tabela, faixas: [] }, { qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 })).toBeNull();
  });

  it('dates: the DAE due in 10 days at most the end of next month, the deadline 12 months after the payment', () => {
    expect(vencimentoDaeReserva('2026-11-23')).toBe('2026-12-03');
    expect(prazoDeConsumo('2026-11-23')).toBe('2027-11-23');
    expect(prazoDeConsumo('2028-02-29')).toBe('2029-02-28');
  });

  it('shows the balance rounded down and a line half-up', () => {
    expect(saldoEmCentavos(499_999_245)).toBe(49_999_924);
    expect(valorConsumido(3, 25)).toBe(8);
    expect(valorConsumido(2, 350)).toBe(70);
  });
});

describe('the balance in shards', () => {
  it('splits a credit exactly, the remainder one each on the first shards', () => {
    expect(repartirSaldo(150)).toEqual([10, 10, 10, 10, 10, 10, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]);
    expect(repartirSaldo(5_000_000_000).every((x) => x === 312_500_000)).toBe(true);
    expect(repartirSaldo(7)).toEqual([1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    for (const total of [0, 1, 15, 16, 17, 999_999, 123_456_789]) {
      const partes = repartirSaldo(total);
      expect(partes).toHaveLength(SALDO_SHARDS);
      expect(partes.reduce((s, x) => s + x, 0)).toBe(total);
      expect(Math.max(...partes) - Math.min(...partes)).toBeLessThanOrEqual(1);
    }
  });

  it('debits the first shard from the start that covers the use, wrapping around', () => {
    expect(planoDeDebito([5, 20, 20, 3], 10, 2)).toEqual([{ shard: 2, milesimos: 10 }]);
    expect(planoDeDebito([5, 20, 0, 3], 10, 2)).toEqual([{ shard: 1, milesimos: 10 }]);
    expect(planoDeDebito([5, 20, 0, 3], 10, 3)).toEqual([{ shard: 1, milesimos: 10 }]);
  });

  it('splits a use no shard covers alone over the fewest shards, largest first; null when the sum is short', () => {
    expect(planoDeDebito([4, 9, 0, 7], 20, 0)).toEqual([
      { shard: 1, milesimos: 9 },
      { shard: 3, milesimos: 7 },
      { shard: 0, milesimos: 4 },
    ]);
    expect(planoDeDebito([4, 9, 0, 7], 12, 0)).toEqual([
      { shard: 1, milesimos: 9 },
      { shard: 3, milesimos: 3 },
    ]);
    expect(planoDeDebito([4, 9, 0, 6], 20, 0)).toBeNull();
    expect(planoDeDebito(Array(16).fill(0), 1, 5)).toBeNull();
  });
});
