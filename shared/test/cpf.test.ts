import { describe, expect, it } from 'vitest';
import { cpfSchema, formatCpf, isValidCpf, normalizeCpf } from '../src/domain/cpf';

describe('isValidCpf', () => {
  it.each([
    '529.982.247-25',
    '52998224725',
    '111.444.777-35',
    '11144477735',
    '123.456.789-09',
    '935.411.347-80',
    '390.533.447-05',
    // leading zeros are part of the number, not padding to drop
    '000.000.001-91',
    ' 529 982 247 25 ',
  ])('accepts %j', (input) => {
    expect(isValidCpf(input)).toBe(true);
  });

  it.each([
    ['wrong second check digit', '529.982.247-26'],
    ['wrong first check digit', '529.982.247-15'],
    ['swapped check digits', '529.982.247-52'],
    ['a digit changed', '529.982.248-25'],
    ['10 digits', '5299822472'],
    ['12 digits', '529982247250'],
    ['empty', ''],
    ['all zeros', '00000000000'],
    ['all ones', '111.111.111-11'],
    ['all nines', '99999999999'],
    ['a letter', '529.982.24A-25'],
    ['a CNPJ', '11.222.333/0001-81'],
    ['slash instead of dash', '529.982.247/25'],
    ['input-mask placeholder', '529.982.247-2_'],
    ['leading zero dropped', '1.91'],
  ])('rejects %s (%j)', (_name, input) => {
    expect(isValidCpf(input)).toBe(false);
  });

  it.each([null, undefined, 52998224725, {}])('rejects the non-string %j', (input) => {
    expect(isValidCpf(input)).toBe(false);
  });
});

describe('normalizeCpf and formatCpf', () => {
  it.each([
    ['529.982.247-25', '52998224725'],
    [' 529 982 247 25', '52998224725'],
    ['529a', '529a'],
  ])('normalizeCpf(%j) → %j', (input, out) => {
    expect(normalizeCpf(input)).toBe(out);
  });

  it.each([
    ['52998224725', '529.982.247-25'],
    ['529.982.247-25', '529.982.247-25'],
    ['00000000191', '000.000.001-91'],
    ['5299822', '5299822'],
    ['', ''],
  ])('formatCpf(%j) → %j', (input, out) => {
    expect(formatCpf(input)).toBe(out);
  });
});

describe('cpfSchema', () => {
  it('normalizes a valid CPF to its digits', () => {
    expect(cpfSchema.parse('529.982.247-25')).toBe('52998224725');
  });

  it.each(['529.982.247-26', '111.111.111-11', '', 52998224725])('answers the catalogue message for %j', (input) => {
    const result = cpfSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['O campo CPF é inválido.']);
  });

  it('leaves a missing value to the form’s required message', () => {
    const result = cpfSchema.safeParse(undefined);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).not.toBe('O campo CPF é inválido.');
  });
});
