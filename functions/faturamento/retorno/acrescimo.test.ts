import { describe, expect, it } from 'vitest';
import { acrescimoDevido, taxasConfiguradas, TAXAS_PADRAO } from './acrescimo';

describe('the late-payment surcharge', () => {
  it('is nothing on or before the due date', () => {
    expect(acrescimoDevido(750_00, '2026-11-15', '2026-11-15')).toBe(0);
    expect(acrescimoDevido(750_00, '2026-11-15', '2026-11-10')).toBe(0);
  });

  it('adds 0,33% a day (capped at 20%) and 1% per month or part of a month', () => {
    // 3 days: 0,99% of R$ 750,00 = 7,425 → 7,43; 1 month started: 7,50.
    expect(acrescimoDevido(750_00, '2026-11-15', '2026-11-18')).toBe(7_43 + 7_50);
    // 61 days: 20,13% → capped at 20% = 150,00; 3 months started: 22,50.
    expect(acrescimoDevido(750_00, '2026-10-15', '2026-12-15')).toBe(150_00 + 22_50);
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
