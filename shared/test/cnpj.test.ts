import { describe, expect, it } from 'vitest';
import {
  cnpjBase,
  cnpjBaseSchema,
  cnpjCheckDigits,
  cnpjSchema,
  formatCnpj,
  formatCnpjBase,
  isValidCnpj,
  isValidCnpjBase,
  normalizeCnpj,
} from '../src/domain/cnpj';

/** An independent spelling of the RFB rule (explicit weight tables) to cross-check the module. */
function referenceDigits(first12: string): string {
  const value = (c: string) => c.charCodeAt(0) - 48;
  const dv = (chars: string, weights: number[]) => {
    const rest = [...chars].reduce((sum, c, i) => sum + value(c) * weights[i]!, 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const d1 = dv(first12, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = dv(first12 + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}`;
}

describe('isValidCnpj', () => {
  it.each([
    // RFB's published example of the alphanumeric CNPJ
    '12.ABC.345/01DE-35',
    '12ABC34501DE35',
    '12.abc.345/01de-35',
    '12abc34501de35',
    ' 12 ABC 345 01DE 35 ',
    // numeric CNPJs of well-known companies and the classic example
    '11.222.333/0001-81',
    '11222333000181',
    '45.997.418/0001-53',
    '00.000.000/0001-91',
    '00.360.305/0001-04',
    '33.000.167/0001-01',
    '60.746.948/0001-12',
    '60.701.190/0001-04',
    '33.592.510/0001-54',
    '07.526.557/0001-00',
  ])('accepts %j', (input) => {
    expect(isValidCnpj(input)).toBe(true);
  });

  it.each([
    ['wrong second check digit', '11.222.333/0001-82'],
    ['wrong first check digit', '11.222.333/0001-71'],
    ['swapped check digits', '11.222.333/0001-18'],
    ['alphanumeric, wrong check digit', '12.ABC.345/01DE-36'],
    ['alphanumeric, a digit changed', '12.ABC.346/01DE-35'],
    ['letter in the last position', '12ABC34501DE3A'],
    ['letter in the first check position', '12ABC34501DEA5'],
    ['13 characters', '1122233300018'],
    ['15 characters', '112223330001810'],
    ['12 characters', '12ABC34501DE'],
    ['empty', ''],
    ['only punctuation', '..///--'],
    ['all zeros', '00000000000000'],
    ['all ones', '11111111111111'],
    ['all nines, masked', '99.999.999/9999-99'],
    ['all letters', 'AAAAAAAAAAAAAA'],
    ['accented letter', '12ÁBC34501DE35'],
    ['symbol worth 16 (@)', '12@BC34501DE35'],
    ['input-mask placeholder', '11.222.333/0001-8_'],
    ['underscore in the middle', '11.222_333/0001-81'],
  ])('rejects %s (%j)', (_name, input) => {
    expect(isValidCnpj(input)).toBe(false);
  });

  it.each([null, undefined, 11222333000181, {}, ['11222333000181']])('rejects the non-string %j', (input) => {
    expect(isValidCnpj(input)).toBe(false);
  });
});

describe('cnpjCheckDigits', () => {
  it.each([
    ['12ABC34501DE', '35'],
    ['112223330001', '81'],
    ['459974180001', '53'],
    ['000000000001', '91'],
    ['12.ABC.345/01DE', '35'],
    ['12abc34501de', '35'],
  ])('%s → %s', (first12, digits) => {
    expect(cnpjCheckDigits(first12)).toBe(digits);
  });

  it.each([
    ['remainder 0', '075265570001', '0'],
    ['remainder 1 (A is worth 17: 17 × 2 = 34 ≡ 1)', '00000000000A', '0'],
  ])('first check digit is 0 for %s', (_name, root, first) => {
    expect(cnpjCheckDigits(root)[0]).toBe(first);
  });

  it('agrees with an independent implementation on 500 pseudo-random alphanumeric roots', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let seed = 2229;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let zeros = 0;
    for (let n = 0; n < 500; n++) {
      const root = Array.from({ length: 12 }, () => alphabet[next() % alphabet.length]).join('');
      const digits = cnpjCheckDigits(root);
      expect(digits).toBe(referenceDigits(root));
      expect(isValidCnpj(root + digits)).toBe(true);
      if (digits.startsWith('0')) zeros++;
    }
    expect(zeros).toBeGreaterThan(0); // the remainder-below-2 branch was exercised
  });

  it.each(['12ABC34501D', '12ABC34501DE3', '12ABC34501D!', ''])('throws on %j', (bad) => {
    expect(() => cnpjCheckDigits(bad)).toThrow(RangeError);
  });
});

describe('normalizeCnpj and formatting', () => {
  it.each([
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    ['11.222.333/0001-81', '11222333000181'],
    [' 11 222 333 0001 81 ', '11222333000181'],
    ['11_222', '11_222'],
  ])('normalizeCnpj(%j) → %j', (input, out) => {
    expect(normalizeCnpj(input)).toBe(out);
  });

  it.each([
    ['11222333000181', '11.222.333/0001-81'],
    ['12abc34501de35', '12.ABC.345/01DE-35'],
    ['12.ABC.345/01DE-35', '12.ABC.345/01DE-35'],
    ['1122233300', '1122233300'],
    ['', ''],
  ])('formatCnpj(%j) → %j', (input, out) => {
    expect(formatCnpj(input)).toBe(out);
  });

  it('takes the base of a masked or unmasked CNPJ', () => {
    expect(cnpjBase('11.222.333/0001-81')).toBe('11222333');
    expect(cnpjBase('12.abc.345/01de-35')).toBe('12ABC345');
  });

  it.each([
    ['11222333', '11.222.333'],
    ['12abc345', '12.ABC.345'],
    ['1122233', '1122233'],
    ['11222333000181', '11222333000181'],
  ])('formatCnpjBase(%j) → %j', (input, out) => {
    expect(formatCnpjBase(input)).toBe(out);
  });
});

describe('isValidCnpjBase', () => {
  // A base has no check digit: any 8 characters 0-9/A-Z are a base, Banco do Brasil's 00000000 included.
  it.each(['11222333', '11.222.333', '12ABC345', '12.abc.345', '00000001', '00000000', '00.000.000', '11.111.111', 'AAAAAAAA'])('accepts %j', (input) => {
    expect(isValidCnpjBase(input)).toBe(true);
  });

  it.each(['1122233', '112223334', '12ÁBC345', '1122 2333x', '', '11222333000181', null])(
    'rejects %j',
    (input) => {
      expect(isValidCnpjBase(input)).toBe(false);
    },
  );
});

describe('cnpjSchema and cnpjBaseSchema', () => {
  it('normalizes valid input', () => {
    expect(cnpjSchema.parse('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(cnpjBaseSchema.parse('12.abc.345')).toBe('12ABC345');
    expect(cnpjBaseSchema.parse('00.000.000')).toBe('00000000');
  });

  it.each(['11.222.333/0001-82', '00000000000000', 123])('answers the catalogue message for %j', (input) => {
    const result = cnpjSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['O Cnpj informado é inválido.']);
  });

  it.each(['1122233', '1122233X9', 5])('answers the base message for %j', (input) => {
    const result = cnpjBaseSchema.safeParse(input);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['O CNPJ Base informado é inválido.']);
  });

  it('leaves a missing value to the form’s required message', () => {
    const result = cnpjSchema.safeParse(undefined);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).not.toBe('O Cnpj informado é inválido.');
  });
});
