import { describe, expect, it } from 'vitest';
import { RETENCAO_ANOS } from '../fate/store-entities';
import { DIAS_FISCAIS, expiraAposDias } from './retencao';

describe('end dates', () => {
  it('are epoch seconds N days after an ISO instant, a Date or epoch milliseconds', () => {
    const fim = Date.parse('2026-03-01T00:00:00.000Z') / 1000 + 10 * 86_400;
    expect(expiraAposDias('2026-03-01T00:00:00.000Z', 10)).toBe(fim);
    expect(expiraAposDias('2026-02-28T21:00:00-03:00', 10)).toBe(fim);
    expect(expiraAposDias(new Date('2026-03-01T00:00:00.999Z'), 10)).toBe(fim);
    expect(expiraAposDias(Date.parse('2026-03-01T00:00:00.000Z'), 10)).toBe(fim);
  });

  it('refuse an instant that is none, rather than store a record that never ends', () => {
    expect(() => expiraAposDias('ontem', 10)).toThrow(/invalid instant/);
    expect(() => expiraAposDias(Number.NaN, 10)).toThrow(/invalid instant/);
  });

  it('keep what backs an invoice five years and a month: longer than a Fat-e, so an assignment outlives its Fat-e', () => {
    expect(DIAS_FISCAIS).toBe(1858);
    expect(DIAS_FISCAIS * 86_400).toBeGreaterThan(RETENCAO_ANOS * 365.25 * 86_400 + 30 * 86_400);
  });
});
