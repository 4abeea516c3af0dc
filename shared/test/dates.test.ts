import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  formatDate,
  formatDateForFile,
  formatDateTime,
  formatMonth,
  isBusinessMonth,
  monthOf,
  nextMonth,
  parseBrDate,
  previousMonth,
  toTransportDate,
  validateDateRange,
} from '../src/domain/dates';
import { MESSAGES } from '../src/messages';

describe('formatDate', () => {
  it.each([
    ['2026-11-21', '21/11/2026'], // a calendar day is not shifted by the zone
    ['2026-01-01', '01/01/2026'],
    ['2026-11-21T12:00:00Z', '21/11/2026'],
    ['2026-11-21T02:59:59Z', '20/11/2026'], // 23:59 of the 20th in Bahia
    ['2026-11-21T03:00:00Z', '21/11/2026'],
    ['2026-11-21T00:30:00-03:00', '21/11/2026'],
    ['2026-11-21T00:30:00.123+01:00', '20/11/2026'],
    [new Date('2026-11-21T03:00:00Z'), '21/11/2026'],
  ])('%s → %s', (value, text) => {
    expect(formatDate(value)).toBe(text);
  });

  it.each([null, undefined, '', 'garbage', '2026-02-30', '2026-13-01', '21/11/2026', '2026-11-21T10:00', new Date('x')])(
    'is empty for %j',
    (value) => {
      expect(formatDate(value)).toBe('');
    },
  );
});

describe('formatDateForFile', () => {
  it.each([
    ['2026-11-25T03:11:05.000Z', '25/11/2026 00:11:05'],
    ['2026-11-21T15:04:09-05:00', '21/11/2026 17:04:09'],
    ['2027-01-01T03:00:00Z', '01/01/2027 00:00:00'],
    ['2026-11-25', '25/11/2026'],
    ['', ''],
    ['não é data', 'não é data'],
    ['2026-02-30', '2026-02-30'],
  ])('%j → %j', (value, text) => {
    expect(formatDateForFile(value)).toBe(text);
  });
});

describe('formatDateTime', () => {
  it.each([
    ['2026-11-21T15:04:00Z', '21/11/2026 12:04'],
    ['2026-11-21T02:30:00Z', '20/11/2026 23:30'],
    ['2026-12-31T23:59:59.999Z', '31/12/2026 20:59'],
    ['2027-01-01T03:00:00Z', '01/01/2027 00:00'], // midnight is 00, never 24
    ['2026-11-21T12:00:00-05:00', '21/11/2026 14:00'],
    [new Date(Date.UTC(2026, 6, 1, 12, 0)), '01/07/2026 09:00'], // no daylight saving today
    // Intl knows the zone's history: Bahia kept daylight saving (UTC-2) in the 2011-2012 summer
    ['2012-01-01T12:00:00Z', '01/01/2012 10:00'],
  ])('%s → %s', (value, text) => {
    expect(formatDateTime(value)).toBe(text);
  });

  it.each([null, undefined, '', 'garbage', '2026-11-21', '2026-11-21T10:00', '2026-02-30T10:00:00Z', new Date('x')])(
    'is empty for %j',
    (value) => {
      expect(formatDateTime(value)).toBe('');
    },
  );
});

describe('toTransportDate and monthOf', () => {
  it.each([
    [new Date('2026-11-21T03:00:00Z'), '2026-11-21'], // a picker's local midnight in Brasília or Bahia
    [new Date('2026-11-21T05:00:00Z'), '2026-11-21'], // local midnight in Acre (UTC-5)
    [new Date('2026-11-21T01:00:00Z'), '2026-11-20'], // a Lambda's "now" before midnight in Bahia
    ['2026-11-21', '2026-11-21'],
    ['2026-11-21T02:00:00Z', '2026-11-20'],
  ])('toTransportDate(%s) → %s', (value, day) => {
    expect(toTransportDate(value)).toBe(day);
  });

  it.each(['', 'garbage', '2026-02-29', new Date('x')])('toTransportDate throws on %j', (value) => {
    expect(() => toTransportDate(value)).toThrow(RangeError);
  });

  it.each([
    ['2026-12-01T02:00:00Z', '2026-11'], // still November in Bahia
    ['2026-12-01T03:00:00Z', '2026-12'],
    ['2027-01-01T02:59:59Z', '2026-12'],
    ['2026-11-30', '2026-11'],
    [new Date('2026-06-15T12:00:00Z'), '2026-06'],
  ])('monthOf(%s) → %s', (value, month) => {
    expect(monthOf(value)).toBe(month);
  });
});

describe('parseBrDate', () => {
  it.each([
    ['21/11/2026', '2026-11-21'],
    ['01/01/2026', '2026-01-01'],
    ['31/12/2026', '2026-12-31'],
    ['29/02/2024', '2024-02-29'], // leap year
    ['29/02/2000', '2000-02-29'], // divisible by 400
    [' 21/11/2026 ', '2026-11-21'],
  ])('%j → %j', (text, day) => {
    expect(parseBrDate(text)).toBe(day);
  });

  it.each([
    '29/02/2026', // not a leap year
    '29/02/1900', // divisible by 100, not by 400
    '31/04/2026',
    '32/01/2026',
    '00/01/2026',
    '10/00/2026',
    '10/13/2026',
    '01/01/0000',
    '1/1/2026',
    '21-11-2026',
    '2026-11-21',
    '21/11/26',
    '',
    'dd/mm/aaaa',
    '__/__/____',
  ])('rejects %j', (text) => {
    expect(parseBrDate(text)).toBeNull();
  });
});

describe('business months', () => {
  it.each(['2026-11', '2026-01', '2026-12', '1999-06'])('%j is a business month', (value) => {
    expect(isBusinessMonth(value)).toBe(true);
  });

  it.each(['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', '11/2026', '0000-01', '', null, 202611])(
    '%j is not',
    (value) => {
      expect(isBusinessMonth(value)).toBe(false);
    },
  );

  it.each([
    ['2026-11', '11/2026'],
    ['2026-01', '01/2026'],
    ['2026-13', ''],
    ['garbage', ''],
  ])('formatMonth(%j) → %j', (month, text) => {
    expect(formatMonth(month)).toBe(text);
  });

  it.each([
    ['2026-11', '2026-10', '2026-12'],
    ['2026-01', '2025-12', '2026-02'],
    ['2026-12', '2026-11', '2027-01'],
    ['2000-02', '2000-01', '2000-03'],
  ])('around %s: %s and %s', (month, previous, next) => {
    expect(previousMonth(month)).toBe(previous);
    expect(nextMonth(month)).toBe(next);
  });

  it('previous and next months refuse what is not a month', () => {
    expect(() => previousMonth('2026-13')).toThrow(RangeError);
    expect(() => nextMonth('')).toThrow(RangeError);
  });
});

describe('daysBetween and addDays', () => {
  it.each([
    ['2026-11-21', '2026-11-21', 0],
    ['2026-11-21', '2026-11-22', 1],
    ['2026-11-22', '2026-11-21', -1],
    ['2026-01-01', '2026-04-01', 90],
    ['2024-02-28', '2024-03-01', 2], // leap year
    ['2026-02-28', '2026-03-01', 1],
    ['2025-12-31', '2026-01-01', 1],
    ['2026-01-01', '2027-01-01', 365],
    ['2026-11-21T02:00:00Z', '2026-11-21T04:00:00Z', 1], // the 20th and the 21st in Bahia
    ['2026-11-21T03:00:00Z', '2026-11-21T23:00:00Z', 0],
  ])('%s to %s is %i days', (a, b, days) => {
    expect(daysBetween(a, b)).toBe(days);
  });

  it('throws on an unreadable date', () => {
    expect(() => daysBetween('2026-11-21', 'amanhã')).toThrow(RangeError);
  });

  it.each([
    ['2026-11-21', 1, '2026-11-22'],
    ['2026-11-30', 1, '2026-12-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-01-01', 90, '2026-04-01'],
    ['2026-11-21', 0, '2026-11-21'],
    ['2026-11-21T01:00:00Z', 1, '2026-11-21'], // an instant counts from its Bahia day, the 20th
  ])('addDays(%s, %i) → %s', (day, n, result) => {
    expect(addDays(day, n)).toBe(result);
  });

  it('refuses fractional days', () => {
    expect(() => addDays('2026-11-21', 1.5)).toThrow(RangeError);
  });
});

describe('validateDateRange', () => {
  it.each([
    ['2026-01-01', '2026-01-01', null],
    ['2026-01-01', '2026-04-01', null], // exactly 90 days
    ['2026-01-01', '2026-04-02', 'periodoMaximo'],
    ['2026-01-02', '2026-01-01', 'dataInicioMaiorDataFim'],
    ['2027-01-01', '2026-01-01', 'dataInicioMaiorDataFim'], // both wrong: the order is reported first
    ['2026-11-21T02:00:00Z', '2026-11-20', null], // the start is the 20th in Bahia
    [null, '2026-01-01', null],
    ['2026-01-01', undefined, null],
    ['', '', null],
  ] as const)('%s to %s → %s', (start, end, result) => {
    expect(validateDateRange(start, end)).toBe(result);
  });

  it('takes another limit', () => {
    expect(validateDateRange('2026-01-01', '2026-01-31', { maxDays: 30 })).toBeNull();
    expect(validateDateRange('2026-01-01', '2026-02-01', { maxDays: 30 })).toBe('periodoMaximo');
  });

  it('answers keys of the catalogue', () => {
    expect(MESSAGES[validateDateRange('2026-01-02', '2026-01-01')!]).toBe('Data Início maior que Data Fim.');
    expect(MESSAGES[validateDateRange('2026-01-01', '2026-12-01')!]).toContain('90 dias');
  });
});
