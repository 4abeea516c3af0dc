import { describe, expect, it } from 'vitest';
import { formatCep, formatTelefone, isValidCep, isValidTelefone, MASKS, onlyDigits } from '../src/domain/masks';
import { formatCnpj, formatCnpjBase } from '../src/domain/cnpj';
import { formatCpf } from '../src/domain/cpf';

describe('onlyDigits', () => {
  it.each([
    ['(71) 3115-0000', '7131150000'],
    ['abc', ''],
    ['R$ 1.234,56', '123456'],
    ['', ''],
  ])('%j → %j', (input, out) => {
    expect(onlyDigits(input)).toBe(out);
  });
});

describe('CEP', () => {
  it.each(['40020000', '40.020-000', '40020-000', '01001000'])('accepts %j', (input) => {
    expect(isValidCep(input)).toBe(true);
  });

  it.each(['4002000', '400200000', '40.020-00A', '', 'abcdefgh', null, 40020000])('rejects %j', (input) => {
    expect(isValidCep(input)).toBe(false);
  });

  it.each([
    ['40020000', '40.020-000'],
    ['40020-000', '40.020-000'],
    ['4002', '4002'],
  ])('formatCep(%j) → %j', (input, out) => {
    expect(formatCep(input)).toBe(out);
  });
});

describe('telefone', () => {
  it.each([
    '7131150000',
    '(71) 3115-0000',
    '71987654321',
    '(71) 98765-4321',
    '11 2345 6789',
    '(99) 99999-9999',
  ])('accepts %j', (input) => {
    expect(isValidTelefone(input)).toBe(true);
  });

  it.each([
    ['area code below 11', '(10) 3115-0000'],
    ['area code 01', '0131150000'],
    ['11 digits not starting with 9', '(71) 88765-4321'],
    ['9 digits', '713115000'],
    ['12 digits', '719876543210'],
    ['a letter', '(71) 3115-000A'],
    ['empty', ''],
    ['not a string', 7131150000],
  ])('rejects %s (%j)', (_name, input) => {
    expect(isValidTelefone(input)).toBe(false);
  });

  it.each([
    ['7131150000', '(71) 3115-0000'],
    ['71987654321', '(71) 98765-4321'],
    ['(71) 98765-4321', '(71) 98765-4321'],
    ['713115', '713115'],
  ])('formatTelefone(%j) → %j', (input, out) => {
    expect(formatTelefone(input)).toBe(out);
  });
});

describe('MASKS', () => {
  it('has the product mask patterns', () => {
    expect(MASKS).toMatchObject({
      cnpj: '99.999.999/9999-99',
      cnpjBase: '99.999.999',
      cep: '99.999-999',
      cpf: '999.999.999-99',
      telefone10: '(99) 9999-9999',
      telefone11: '(99) 99999-9999',
    });
  });

  // The input masks and the formatters must draw the same picture: replace each placeholder with a digit.
  it.each([
    [MASKS.cnpj, formatCnpj('11222333000181')],
    [MASKS.cnpjAlfanumerico, formatCnpj('12ABC34501DE35')],
    [MASKS.cnpjBase, formatCnpjBase('11222333')],
    [MASKS.cnpjBaseAlfanumerico, formatCnpjBase('12ABC345')],
    [MASKS.cep, formatCep('40020000')],
    [MASKS.cpf, formatCpf('52998224725')],
    [MASKS.telefone10, formatTelefone('7131150000')],
    [MASKS.telefone11, formatTelefone('71987654321')],
  ])('%s has the shape of %s', (mask, formatted) => {
    expect(formatted.replace(/[0-9A-Z]/g, '#')).toBe(mask.replace(/[9*]/g, '#'));
  });
});
