/**
 * CNPJ rules, numeric and alphanumeric (IN RFB 2.229/2024, issued from July 2026): 12 characters 0-9 or
 * A-Z followed by two numeric check digits. Each character is worth its ASCII code minus 48, so digits
 * keep their value and a numeric CNPJ is simply the special case. Stored unmasked and upper-case.
 *
 * Plain functions only, without zod or the message catalogue, so the portal's entry can mask a CNPJ
 * without carrying either (cnpj.ts adds the schemas and re-exports these).
 */

const FIRST_12 = /^[0-9A-Z]{12}$/;
const FULL = /^[0-9A-Z]{12}[0-9]{2}$/;
const BASE = /^[0-9A-Z]{8}$/;
/** Repeated characters pass the modulo-11 check (00000000000000) yet are not real numbers. */
const ALL_SAME = /^(.)\1*$/;

/** Strips the mask punctuation and upper-cases letters; anything else is kept so that it fails validation. */
export function normalizeCnpj(input: string): string {
  return input.replace(/[./\-\s]/g, '').toUpperCase();
}

/**
 * Modulo 11 with weights 2..9 from the right, restarting at 2 after 9; each character is worth its
 * ASCII code minus 48 (digits keep their value, letters count from 17); a remainder of 0 or 1 gives 0.
 * The rule of the CNPJ's check digits and of the NF-e access key's (chave-acesso.ts).
 */
export function mod11CheckDigit(chars: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = chars.length - 1; i >= 0; i--) {
    sum += (chars.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The two check digits of the first 12 characters (masked or not). Throws on anything else. */
export function cnpjCheckDigits(first12: string): string {
  const value = normalizeCnpj(first12);
  if (!FIRST_12.test(value)) throw new RangeError(`cnpjCheckDigits needs 12 characters 0-9 or A-Z, got "${first12}"`);
  const d1 = mod11CheckDigit(value);
  const d2 = mod11CheckDigit(value + String(d1));
  return `${d1}${d2}`;
}

/** Accepts masked or unmasked input, lower-case letters included. */
export function isValidCnpj(input: unknown): boolean {
  if (typeof input !== 'string') return false;
  const value = normalizeCnpj(input);
  if (!FULL.test(value) || ALL_SAME.test(value)) return false;
  return cnpjCheckDigits(value.slice(0, 12)) === value.slice(12);
}

/** ##.###.###/####-##; input that is not 14 characters 0-9/A-Z is returned as given (e.g. half typed). */
export function formatCnpj(value: string): string {
  const v = normalizeCnpj(value);
  if (!/^[0-9A-Z]{14}$/.test(v)) return value;
  return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}`;
}

/** The first 8 characters (the company root shared by all its branches), normalized. */
export function cnpjBase(value: string): string {
  return normalizeCnpj(value).slice(0, 8);
}

/**
 * A base has no check digits, so only its form can be checked: 8 characters 0-9/A-Z. Repeated
 * characters are real bases (Banco do Brasil's is 00000000), unlike a full CNPJ's.
 */
export function isValidCnpjBase(input: unknown): boolean {
  return typeof input === 'string' && BASE.test(normalizeCnpj(input));
}

/** ##.###.###; input that is not 8 characters 0-9/A-Z is returned as given. */
export function formatCnpjBase(value: string): string {
  const v = normalizeCnpj(value);
  if (!BASE.test(v)) return value;
  return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5)}`;
}
