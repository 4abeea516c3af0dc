import { describe, expect, it } from 'vitest';
import { buildChaveAcesso, chaveAcessoCheckDigit, isValidChaveAcesso, splitChaveAcesso } from '../src/domain/chave-acesso';
import * as domain from '../src/domain';

describe('chave de acesso', () => {
  // Worked by hand: the weights 2..9 from the right over
  // 29 2611 11222333000181 55 001 000000123 1 12345678 give a sum of 496; 496 mod 11 = 1 → cDV 0.
  const numeric = '29261111222333000181550010000001231123456780';
  // The alphanumeric CNPJ 12.ABC.345/01DE-35: letters are worth charCode − 48 (A = 17, B = 18, …);
  // the sum is 708; 708 mod 11 = 4 → cDV 11 − 4 = 7.
  const alphanumeric = '35260712ABC34501DE35550010000000421000000017';

  it('builds a numeric key whose remainder is 1 with check digit 0', () => {
    expect(buildChaveAcesso({ cUF: 29, aamm: '2611', cnpj: '11.222.333/0001-81', mod: '55', serie: 1, nNF: 123, cNF: 12345678 })).toBe(numeric);
  });

  it('builds a key with an alphanumeric CNPJ, the characters as they are', () => {
    expect(buildChaveAcesso({ cUF: '35', aamm: '2607', cnpj: '12.abc.345/01de-35', mod: '55', serie: '001', nNF: 42, tpEmis: 1, cNF: 1 })).toBe(alphanumeric);
    expect(chaveAcessoCheckDigit(alphanumeric.slice(0, 43))).toBe('7');
  });

  it('validates and splits a key into its parts', () => {
    expect(isValidChaveAcesso(numeric)).toBe(true);
    expect(isValidChaveAcesso('2926 1111 2223 3300 0181 5500 1000 0001 2311 2345 6780')).toBe(true);
    expect(splitChaveAcesso(alphanumeric)).toEqual({
      cUF: '35', aamm: '2607', cnpj: '12ABC34501DE35', mod: '55', serie: '001', nNF: '000000042', tpEmis: '1', cNF: '00000001', cDV: '7',
    });
  });

  it('refuses a wrong check digit, a wrong length, an unknown UF, month or model, an invalid CNPJ', () => {
    expect(isValidChaveAcesso(numeric.slice(0, 43) + '1')).toBe(false);
    expect(isValidChaveAcesso(alphanumeric.slice(0, 43) + '8')).toBe(false);
    expect(isValidChaveAcesso(numeric.slice(0, 43))).toBe(false);
    expect(isValidChaveAcesso(undefined)).toBe(false);
    const withFirst43 = (first43: string) => first43 + chaveAcessoCheckDigit(first43);
    expect(isValidChaveAcesso(withFirst43('10' + numeric.slice(2, 43)))).toBe(false); // no UF 10
    expect(isValidChaveAcesso(withFirst43('292613' + numeric.slice(6, 43)))).toBe(false); // month 13
    expect(isValidChaveAcesso(withFirst43(numeric.slice(0, 20) + '56' + numeric.slice(22, 43)))).toBe(false); // model 56
    expect(isValidChaveAcesso(withFirst43(numeric.slice(0, 19) + '2' + numeric.slice(20, 43)))).toBe(false); // CNPJ check digit
    expect(() => buildChaveAcesso({ cUF: 29, aamm: '2611', cnpj: '11222333000182', mod: '55', serie: 1, nNF: 1, cNF: 1 })).toThrow(RangeError);
    expect(() => buildChaveAcesso({ cUF: 29, aamm: '2611', cnpj: '11222333000181', mod: '55', serie: 1, nNF: 1_000_000_000, cNF: 1 })).toThrow(RangeError);
  });

  it('is exported from the domain index', () => {
    expect(domain).toHaveProperty('buildChaveAcesso');
    expect(domain).toHaveProperty('isValidChaveAcesso');
  });
});
