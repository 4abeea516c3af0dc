/** CEP and telephone rules, and the InputMask patterns the forms use. */

/**
 * PrimeReact InputMask patterns ('9' = a digit). Note that `cnpj` and `cnpjBase` accept digits only;
 * the alphanumeric CNPJ (July 2026) needs the `*` variants, which accept letters in the first 12 places.
 */
export const MASKS = {
  cnpj: '99.999.999/9999-99',
  cnpjBase: '99.999.999',
  cnpjAlfanumerico: '**.***.***/****-99',
  cnpjBaseAlfanumerico: '**.***.***',
  cep: '99.999-999',
  cpf: '999.999.999-99',
  telefone10: '(99) 9999-9999',
  telefone11: '(99) 99999-9999',
} as const;

/** Every digit of the text, nothing else. For cleaning values whose shape is checked afterwards. */
export function onlyDigits(text: string): string {
  return text.replace(/\D/g, '');
}

/** Mask punctuation only, so that stray letters still make a value invalid. */
function stripMask(text: string): string {
  return text.replace(/[.\-()/\s]/g, '');
}

export function isValidCep(input: unknown): boolean {
  return typeof input === 'string' && /^\d{8}$/.test(stripMask(input));
}

/** ##.###-### (the portal's CEP mask); input that is not 8 digits is returned as given. */
export function formatCep(value: string): string {
  const v = stripMask(value);
  if (!/^\d{8}$/.test(v)) return value;
  return `${v.slice(0, 2)}.${v.slice(2, 5)}-${v.slice(5)}`;
}

/** Area code 11..99 then 8 digits (landline) or 9 digits starting with 9 (mobile). */
export function isValidTelefone(input: unknown): boolean {
  if (typeof input !== 'string') return false;
  const v = stripMask(input);
  if (!/^\d{10,11}$/.test(v) || Number(v.slice(0, 2)) < 11) return false;
  return v.length === 10 || v[2] === '9';
}

/** (##) ####-#### or (##) #####-####; any other length is returned as given. */
export function formatTelefone(value: string): string {
  const v = stripMask(value);
  if (!/^\d{10,11}$/.test(v)) return value;
  const split = v.length - 4;
  return `(${v.slice(0, 2)}) ${v.slice(2, split)}-${v.slice(split)}`;
}
