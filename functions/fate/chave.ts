/**
 * The 44-character access key of an NF-e: cUF (2) AAMM (4) issuer CNPJ (14, alphanumeric since July
 * 2026) modelo (2) série (3) número (9) tpEmis (1) código numérico (8) and one check digit. The check
 * digit is modulo 11 over the first 43 characters, each worth its character code minus 48 (so digits
 * keep their value), with weights 2..9 from the right restarting at 2; a remainder of 0 or 1 gives 0.
 */

const FORM = /^[0-9A-Z]{43}[0-9]$/;

/** The check digit of the first 43 characters. */
export function chaveCheckDigit(first43: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = first43.length - 1; i >= 0; i--) {
    sum += (first43.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** 44 characters 0-9/A-Z, the last a digit equal to the modulo-11 check digit of the others. */
export function isValidChave(value: unknown): value is string {
  return typeof value === 'string' && FORM.test(value) && chaveCheckDigit(value.slice(0, 43)) === Number(value[43]);
}

/** The fields an access key carries, so that they can be compared with the document's own. */
export function chaveParts(chave: string) {
  return {
    cUF: chave.slice(0, 2),
    aamm: chave.slice(2, 6),
    cnpj: chave.slice(6, 20),
    modelo: chave.slice(20, 22),
    serie: chave.slice(22, 25),
    numero: chave.slice(25, 34),
    tpEmis: chave.slice(34, 35),
    codigo: chave.slice(35, 43),
  };
}
