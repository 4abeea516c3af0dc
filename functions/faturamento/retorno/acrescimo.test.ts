import { describe, expect, it } from 'vitest';
import { acrescimoDevido, taxasConfiguradas, TAXAS_PADRAO } from './acrescimo';

describe('the late-payment surcharge', () => {
  it('is nothing on or before the due date', () => {
    expect(acrescimoDevido(750_00, '2026-11-15', '2026-11-15')).toBe(0);
    expect(acrescimoDevido(750_00, '2026-11-15', '2026-11-10')).toBe(0);
  });

  it('adds 0,33% a day (capped at 20%) and 1% per month or part of a month', () => {
    // Due Tuesday 10/11/2026, paid Friday 13/11: 3 days, 0,99% of R$ 750,00 = 7,425 → 7,43; 1 month started: 7,50.
    expect(acrescimoDevido(750_00, '2026-11-10', '2026-11-13')).toBe(7_43 + 7_50);
    // 61 days: 20,13% → capped at 20% = 150,00; 3 months started: 22,50.
    expect(acrescimoDevido(750_00, '2026-10-15', '2026-12-15')).toBe(150_00 + 22_50);
  });

  it('lets a due date on a non-business day be paid on the next business day, and counts the delay from it', () => {
    // The bug: due Sunday 29/11/2026, paid at face value on Monday 30/11 was charged R$ 9,98.
    expect(acrescimoDevido(750_00, '2026-11-29', '2026-11-30')).toBe(0);
    // Paid Tuesday 01/12: one day late counted from Monday 30/11: 0,33% = 2,475 → 2,48; 1 month: 7,50.
    expect(acrescimoDevido(750_00, '2026-11-29', '2026-12-01')).toBe(2_48 + 7_50);
    // Due Sunday 15/11/2026 (also a holiday), paid Wednesday 18/11: two days late from Monday 16/11.
    expect(acrescimoDevido(750_00, '2026-11-15', '2026-11-18')).toBe(4_95 + 7_50);
    // Due Friday 20/11/2026, a national holiday: payable until Monday 23/11.
    expect(acrescimoDevido(750_00, '2026-11-20', '2026-11-23')).toBe(0);
    expect(acrescimoDevido(750_00, '2026-11-20', '2026-11-24')).toBe(2_48 + 7_50);
    // Due Saturday 14/02/2026, before Carnival Monday and Tuesday: payable until Ash Wednesday 18/02.
    expect(acrescimoDevido(750_00, '2026-02-14', '2026-02-18')).toBe(0);
    expect(acrescimoDevido(750_00, '2026-02-14', '2026-02-19')).toBe(2_48 + 7_50);
    // Due on Bahia's own holiday (Thursday 02/07/2026): payable on Friday 03/07; in São Paulo it is a business day.
    expect(acrescimoDevido(750_00, '2026-07-02', '2026-07-03')).toBe(0);
    expect(acrescimoDevido(750_00, '2026-07-02', '2026-07-03', TAXAS_PADRAO, 'SP')).toBe(2_48 + 7_50);
  });

  it('reads its rates from the configuration, and refuses nonsense', () => {
    expect(taxasConfiguradas()).toEqual(TAXAS_PADRAO);
    process.env.DAE_JUROS_MENSAIS_PERCENTUAL = '2';
    expect(taxasConfiguradas().jurosMensais).toBe(2);
    process.env.DAE_JUROS_MENSAIS_PERCENTUAL = 'muito';
    expect(() => taxasConfiguradas()).toThrow(/DAE_JUROS_MENSAIS_PERCENTUAL/);
    delete process.env.DAE_JUROS_MENSAIS_PERCENTUAL;
  });
});
