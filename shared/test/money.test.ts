import { describe, expect, it } from 'vitest';
import {
  asCentavos,
  asMilesimos,
  formatBRL,
  formatDecimal,
  formatMilesimos,
  multiplyMilesimos,
  parseBRL,
  parseDecimal,
  percentOf,
  roundHalfUpToCentavos,
  sumCentavos,
  type Centavos,
  type Milesimos,
} from '../src/domain/money';

const c = asCentavos;
const m = asMilesimos;

describe('asCentavos / asMilesimos', () => {
  it.each([1.5, 0.1, Number.NaN, Infinity, -Infinity, 2 ** 53])('refuse %s', (bad) => {
    expect(() => asCentavos(bad)).toThrow(RangeError);
    expect(() => asMilesimos(bad)).toThrow(RangeError);
  });

  it('keep whole numbers as they are', () => {
    expect(asCentavos(-42)).toBe(-42);
    expect(asMilesimos(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('formatBRL', () => {
  it.each([
    [123456, 'R$ 1.234,56'],
    [0, 'R$ 0,00'],
    [1, 'R$ 0,01'],
    [10, 'R$ 0,10'],
    [100, 'R$ 1,00'],
    [99999, 'R$ 999,99'],
    [100000, 'R$ 1.000,00'],
    [123456789, 'R$ 1.234.567,89'],
    [-5, '-R$ 0,05'],
    [-123456, '-R$ 1.234,56'],
    // beyond 2^46 a float division by 100 can no longer be trusted; the decimal string keeps it exact
    [Number.MAX_SAFE_INTEGER, 'R$ 90.071.992.547.409,91'],
  ])('%i → %j', (value, text) => {
    expect(formatBRL(c(value))).toBe(text);
  });

  it('uses a plain space, not the no-break space Intl emits', () => {
    expect(formatBRL(c(100))).not.toMatch(/[\u00A0\u202F]/);
    expect(formatBRL(c(100)).charCodeAt(2)).toBe(32);
  });

  it('refuses a forged fractional amount', () => {
    expect(() => formatBRL(1.5 as Centavos)).toThrow(RangeError);
  });
});

describe('formatMilesimos', () => {
  it.each([
    [125, 'R$ 0,125'],
    [1, 'R$ 0,001'],
    [0, 'R$ 0,000'],
    [1000, 'R$ 1,000'],
    [1234567, 'R$ 1.234,567'],
    [-125, '-R$ 0,125'],
  ])('%i → %j', (value, text) => {
    expect(formatMilesimos(m(value))).toBe(text);
  });
});

describe('parseBRL', () => {
  it.each([
    ['1.234,56', 123456],
    ['R$ 1.234,56', 123456],
    ['R$1.234,56', 123456],
    ['R$\u00A01.234,56', 123456],
    ['  R$ 1.234,56  ', 123456],
    ['1234,56', 123456],
    ['0,01', 1],
    ['0,1', 10],
    ['1,5', 150],
    ['1', 100],
    ['0', 0],
    ['1.000', 100000],
    ['1.000.000,00', 100000000],
    ['-R$ 0,10', -10],
    ['R$ -0,10', -10],
    ['-1.234,56', -123456],
    ['-0,00', 0],
  ])('%j → %i', (text, value) => {
    expect(parseBRL(text)).toBe(value);
  });

  it.each([
    '',
    ' ',
    'abc',
    'R$',
    '1.234.56',
    '1234.56',
    '1,234',
    '12,345',
    '1.23,45',
    '12.34',
    ',50',
    '1,',
    '--1',
    '-R$ -1,00',
    'R$ 1,00 x',
    '1e3',
    'US$ 1,00',
    '1 234,56',
    '99999999999999999,99',
  ])('rejects %j', (text) => {
    expect(parseBRL(text)).toBeNull();
  });

  it.each([0, 1, 99, 123456, -123456, 100000000000])('reads back what formatBRL writes (%i)', (value) => {
    expect(parseBRL(formatBRL(c(value)))).toBe(value);
  });
});

describe('roundHalfUpToCentavos', () => {
  it.each([
    [0, 0],
    [4, 0],
    [5, 1], // R$ 0,005 → R$ 0,01
    [6, 1],
    [14, 1],
    [15, 2],
    [25, 3], // banker's rounding would give 2
    [1234, 123],
    [1235, 124], // R$ 1,235 → R$ 1,24
    [1245, 125], // banker's rounding would give 124
    [999995, 100000],
    [-4, 0],
    [-5, -1], // halves go away from zero
    [-15, -2],
    [-1235, -124],
  ])('%i milésimos → %i centavos', (milesimos, centavos) => {
    expect(roundHalfUpToCentavos(m(milesimos))).toBe(centavos);
  });
});

describe('multiplyMilesimos', () => {
  it.each([
    [1, 125, 13], // 0,125 → 0,13
    [2, 125, 25],
    [3, 125, 38], // 0,375 → 0,38
    [4, 125, 50],
    [1, 5, 1],
    [1, 4, 0],
    [1, 1235, 124],
    [10, 1235, 1235],
    [7, 1, 1], // 0,007 → 0,01
    [0, 125, 0],
    [1_000_000, 125, 12_500_000],
    [-3, 125, -38],
    // the product exceeds 2^53; in floats Math.round(q * u / 10) gives 1351079888211001
    [4503599627370001, 3, 1351079888211000],
  ])('%i × %i milésimos → %i centavos', (quantity, unit, centavos) => {
    expect(multiplyMilesimos(quantity, m(unit))).toBe(centavos);
  });

  it('throws when the result does not fit a safe integer', () => {
    expect(() => multiplyMilesimos(Number.MAX_SAFE_INTEGER, m(1000))).toThrow(RangeError);
  });

  it.each([1.5, Number.NaN])('refuses the quantity %s', (quantity) => {
    expect(() => multiplyMilesimos(quantity, m(125))).toThrow(RangeError);
  });

  it('refuses a forged fractional unit value', () => {
    expect(() => multiplyMilesimos(1, 0.5 as Milesimos)).toThrow(RangeError);
  });
});

describe('sumCentavos', () => {
  it.each([
    [[], 0],
    [[1, 2, 3], 6],
    [[10, -10], 0],
    [[Number.MAX_SAFE_INTEGER, -1], Number.MAX_SAFE_INTEGER - 1],
  ])('%j → %i', (values, total) => {
    expect(sumCentavos(values.map(c))).toBe(total);
  });

  it('accepts any iterable', () => {
    expect(sumCentavos(new Set([c(5), c(7)]))).toBe(12);
  });

  it('throws rather than lose a centavo past 2^53', () => {
    expect(() => sumCentavos([c(Number.MAX_SAFE_INTEGER), c(1)])).toThrow(RangeError);
  });

  it('refuses a forged fractional amount', () => {
    expect(() => sumCentavos([c(1), 0.1 as Centavos])).toThrow(RangeError);
  });
});

describe('percentOf', () => {
  it.each([
    [1000, 1000, 100], // 10% of R$ 10,00
    [1005, 1000, 101], // 100,5 → 101
    [1004, 1000, 100],
    [1000, 1250, 125], // 12,5%
    [1, 5000, 1], // 0,5 → 1
    [3, 5000, 2], // 1,5 → 2
    [5, 5000, 3], // 2,5 → 3 (banker's would give 2)
    [1, 4999, 0],
    [10000, 10000, 10000],
    [12345, 0, 0],
    [0, 1000, 0],
    [-1005, 1000, -101],
    [999, 333, 33], // 33,2667
  ])('%i × %i bp → %i', (value, bp, result) => {
    expect(percentOf(c(value), bp)).toBe(result);
  });

  it('refuses fractional basis points', () => {
    expect(() => percentOf(c(100), 12.5)).toThrow(RangeError);
  });
});

describe('parseDecimal and formatDecimal (the documents\' decimal form)', () => {
  it.each([
    ['1234.56', 123456],
    ['1234.5', 123450],
    ['0.00', 0],
    ['7', 700],
    ['0.05', 5],
  ])('parseDecimal(%j) → %i', (text, centavos) => {
    expect(parseDecimal(text)).toBe(centavos);
  });

  it.each(['1,50', '1.234', '-1.00', '01.00', ' 1.00', '1.', '', 'abc', '1e3'])('refuses %j', (text) => {
    expect(parseDecimal(text)).toBeNull();
  });

  it.each([
    [123456, '1234.56'],
    [5, '0.05'],
    [0, '0.00'],
    [-150, '-1.50'],
  ])('formatDecimal(%i) → %j', (centavos, text) => {
    expect(formatDecimal(asCentavos(centavos))).toBe(text);
  });
});
