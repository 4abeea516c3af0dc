import * as z from 'zod';
import { MESSAGES } from '../messages';

/** CPF rules: 11 digits, not all the same, two modulo-11 check digits. Stored as digits. */

export const CPF_INVALIDO = MESSAGES.cpfInvalido;

/** Strips the mask punctuation; anything else is kept so that it fails validation. */
export function normalizeCpf(input: string): string {
  return input.replace(/[.\-\s]/g, '');
}

/** Weights count down from length + 1 to 2; a remainder below 2 gives 0. */
function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (digits.length + 1 - i);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The two check digits of the first 9 digits: '390533447' → '39'. Throws on anything else. */
export function cpfCheckDigits(first9: string): string {
  if (!/^\d{9}$/.test(first9)) throw new RangeError(`cpfCheckDigits needs 9 digits, got "${first9}"`);
  const d1 = checkDigit(first9);
  return `${d1}${checkDigit(first9 + d1)}`;
}

/** Accepts masked or unmasked input. */
export function isValidCpf(input: unknown): boolean {
  if (typeof input !== 'string') return false;
  const value = normalizeCpf(input);
  // Repeated digits (111.111.111-11) pass the check-digit test yet are not issued.
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  return value.slice(9) === cpfCheckDigits(value.slice(0, 9));
}

/** ###.###.###-##; input that is not 11 digits is returned as given (e.g. half typed). */
export function formatCpf(value: string): string {
  const v = normalizeCpf(value);
  if (!/^\d{11}$/.test(v)) return value;
  return `${v.slice(0, 3)}.${v.slice(3, 6)}.${v.slice(6, 9)}-${v.slice(9)}`;
}

/** Masked or unmasked text in, 11 digits out; a missing value is left to the app's required message. */
export const cpfSchema = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : CPF_INVALIDO) })
  .overwrite(normalizeCpf)
  .refine(isValidCpf, { error: CPF_INVALIDO });
