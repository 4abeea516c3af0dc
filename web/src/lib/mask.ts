/**
 * Progressive masks for typed input (CNPJ and telephone): the text is
 * formatted as the user types, whatever was pasted.
 */

/**
 * ##.###.###/####-## accepting the alphanumeric CNPJ (IN RFB 2.229/2024): letters or digits in the
 * first 12 places, upper-cased; the two check digits are digits.
 */
export function maskCnpj(text: string): string {
  let chars = '';
  for (const c of text.toUpperCase()) {
    if (chars.length >= 14) break;
    if (chars.length < 12 ? /[0-9A-Z]/.test(c) : /[0-9]/.test(c)) chars += c;
  }
  let out = chars.slice(0, 2);
  if (chars.length > 2) out += `.${chars.slice(2, 5)}`;
  if (chars.length > 5) out += `.${chars.slice(5, 8)}`;
  if (chars.length > 8) out += `/${chars.slice(8, 12)}`;
  if (chars.length > 12) out += `-${chars.slice(12)}`;
  return out;
}

/** (##) ####-#### for 10 digits, (##) #####-#### for 11. */
export function maskTelefone(text: string): string {
  const d = text.replace(/\D/g, '').slice(0, 11);
  if (d.length === 0) return '';
  if (d.length <= 2) return `(${d}`;
  const split = d.length === 11 ? 7 : 6;
  if (d.length <= split) return `(${d.slice(0, 2)}) ${d.slice(2)}`;
  return `(${d.slice(0, 2)}) ${d.slice(2, split)}-${d.slice(split)}`;
}

/** How many significant (letter or digit) characters a text has. */
export function significantCount(text: string): number {
  return text.replace(/[^0-9A-Za-z]/g, '').length;
}

/** The caret position just after the n-th significant character of a masked text. */
export function caretAfter(masked: string, n: number): number {
  if (n <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < masked.length; i++) {
    if (/[0-9A-Za-z]/.test(masked[i]!)) seen++;
    if (seen === n) return i + 1;
  }
  return masked.length;
}
