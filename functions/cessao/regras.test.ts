import { describe, expect, it } from 'vitest';
import { avaliarCessao, mesmaCessao, parcelaDe, type FateParaCessao } from './regras';

/** The pure rules of the 'Registro de Cessão' (functions/cessao/regras.ts, docs/cessao.md). */

const fate: FateParaCessao = {
  status: 'ATIVA',
  // 2026-11-10 00:30 in Bahia (UTC-3): issued on the 10th there, the 10th in UTC too.
  emissao: '2026-11-10T03:30:00.000Z',
  duplicatas: [
    { numero: '001', vencimento: '2026-12-10', valor: 100_00 },
    { numero: '002', vencimento: '2027-01-10', valor: 250_00 },
    { numero: 'A-3', vencimento: '2027-02-10', valor: 50_00 },
  ],
};
// 2026-11-23 22:00 in Bahia = 2026-11-24 01:00 UTC: still the 23rd in Bahia.
const agora = new Date('2026-11-24T01:00:00.000Z');
const pedido = { nDup: '001', cnpjCessionario: '11222333000181', dataCessao: '2026-11-20', valor: 100_00 };

describe('parcelaDe', () => {
  it('finds the instalment written exactly so, else the one of the same number', () => {
    expect(parcelaDe(fate.duplicatas, '002')?.numero).toBe('002');
    expect(parcelaDe(fate.duplicatas, '2')?.numero).toBe('002');
    expect(parcelaDe(fate.duplicatas, '0002')?.numero).toBe('002');
    expect(parcelaDe(fate.duplicatas, 'A-3')?.numero).toBe('A-3');
    expect(parcelaDe(fate.duplicatas, 'a-3')).toBeUndefined();
    expect(parcelaDe(fate.duplicatas, '3')).toBeUndefined();
    expect(parcelaDe(fate.duplicatas, '004')).toBeUndefined();
    expect(parcelaDe([], '1')).toBeUndefined();
  });
});

describe('avaliarCessao', () => {
  it('accepts a valid assignment and answers the Fat-e’s own instalment', () => {
    expect(avaliarCessao(fate, pedido, agora)).toEqual({ parcela: fate.duplicatas[0] });
    // Part of the instalment, nDup without its zeros, dated on the issue day and on today (Bahia).
    expect(avaliarCessao(fate, { ...pedido, nDup: '2', valor: 1, dataCessao: '2026-11-10' }, agora)).toEqual({ parcela: fate.duplicatas[1] });
    expect(avaliarCessao(fate, { ...pedido, dataCessao: '2026-11-23' }, agora)).toEqual({ parcela: fate.duplicatas[0] });
  });

  it('refuses a cancelled Fat-e before anything else', () => {
    expect(avaliarCessao({ ...fate, status: 'CANCELADA' }, { ...pedido, nDup: '999', valor: 1e9 }, agora)).toEqual({ recusa: { key: 'cessaoFateCancelada', vars: {} } });
  });

  it('refuses an instalment the Fat-e does not have', () => {
    expect(avaliarCessao(fate, { ...pedido, nDup: '004' }, agora)).toEqual({ recusa: { key: 'cessaoParcelaInexistente', vars: { nDup: '004' } } });
    expect(avaliarCessao({ ...fate, duplicatas: [] }, pedido, agora)).toMatchObject({ recusa: { key: 'cessaoParcelaInexistente' } });
  });

  it('refuses a date after today in Bahia (even when it is already that day in UTC)', () => {
    expect(avaliarCessao(fate, { ...pedido, dataCessao: '2026-11-24' }, agora)).toEqual({ recusa: { key: 'cessaoDataFutura', vars: {} } });
    expect(avaliarCessao(fate, { ...pedido, dataCessao: '2030-01-01' }, agora)).toMatchObject({ recusa: { key: 'cessaoDataFutura' } });
  });

  it('refuses a date before the Fat-e’s issue day in Bahia', () => {
    expect(avaliarCessao(fate, { ...pedido, dataCessao: '2026-11-09' }, agora)).toEqual({ recusa: { key: 'cessaoDataAnteriorEmissao', vars: { data: '10/11/2026' } } });
    // Issued at 01:00 UTC on the 11th is still the 10th in Bahia: the 10th is allowed.
    const tarde = { ...fate, emissao: '2026-11-11T01:00:00.000Z' };
    expect(avaliarCessao(tarde, { ...pedido, dataCessao: '2026-11-10' }, agora)).toMatchObject({ parcela: { numero: '001' } });
    expect(avaliarCessao(tarde, { ...pedido, dataCessao: '2026-11-09' }, agora)).toMatchObject({ recusa: { key: 'cessaoDataAnteriorEmissao' } });
  });

  it('refuses a value above the instalment’s, one centavo is enough', () => {
    expect(avaliarCessao(fate, { ...pedido, valor: 100_01 }, agora)).toEqual({ recusa: { key: 'cessaoValorAcimaDaParcela', vars: { nDup: '001', valor: 'R$ 100,00' } } });
    expect(avaliarCessao(fate, { ...pedido, nDup: '002', valor: 250_00 }, agora)).toMatchObject({ parcela: { numero: '002' } });
  });
});

describe('mesmaCessao', () => {
  const registrada = { clienteId: 'c1', cnpjCessionario: pedido.cnpjCessionario, dataCessao: pedido.dataCessao, valor: pedido.valor };
  it('is an idempotent retry only for the same client and the same data', () => {
    expect(mesmaCessao(registrada, 'c1', pedido)).toBe(true);
    expect(mesmaCessao(registrada, 'c2', pedido)).toBe(false);
    expect(mesmaCessao(registrada, 'c1', { ...pedido, valor: pedido.valor - 1 })).toBe(false);
    expect(mesmaCessao(registrada, 'c1', { ...pedido, dataCessao: '2026-11-21' })).toBe(false);
    expect(mesmaCessao(registrada, 'c1', { ...pedido, cnpjCessionario: '11444777000161' })).toBe(false);
  });
});
