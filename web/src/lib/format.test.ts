import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatIntervalo, formatMoney, formatQuantidade, toTransportDate } from './format';

describe('pt-BR formatting', () => {
  it('quantities and band intervals with thousands separators', () => {
    expect(formatQuantidade(50_000_000)).toBe('50.000.000');
    expect(formatQuantidade(5001)).toBe('5.001');
    expect(formatQuantidade(0)).toBe('0');
    expect(formatQuantidade(null)).toBe('');
    expect(formatIntervalo(5001, 50_000)).toBe('5.001 - 50.000');
    expect(formatIntervalo(50_001, null)).toBe('50.001 -');
  });

  it('shows calendar dates as DD/MM/YYYY without shifting them', () => {
    expect(formatDate('2025-03-01')).toBe('01/03/2025');
  });

  it('shows instants in America/Bahia (UTC-3)', () => {
    // 02:30 UTC on 1 March is still 28 February in Bahia.
    expect(formatDate('2025-03-01T02:30:00Z')).toBe('28/02/2025');
    expect(formatDateTime('2025-03-01T02:30:00Z')).toBe('28/02/2025 23:30');
    expect(formatDateTime('2025-03-01T15:05:00Z')).toBe('01/03/2025 12:05');
  });

  it('gives an empty text for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDateTime('ontem')).toBe('');
    expect(formatMoney(undefined)).toBe('');
  });

  it('formats integer centavos as reais', () => {
    expect(formatMoney(123456).replace(/\s/g, ' ')).toBe('R$ 1.234,56');
    expect(formatMoney(5).replace(/\s/g, ' ')).toBe('R$ 0,05');
  });

  it('sends picked dates as YYYY-MM-DD', () => {
    expect(toTransportDate(new Date(2025, 11, 9))).toBe('2025-12-09');
  });
});
