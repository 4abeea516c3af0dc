/**
 * The FEBRABAN arrecadação barcode (the "código de barras" of a DAE, a utility bill, a tax slip) and its
 * linha digitável, after FEBRABAN's "Layout Padrão de Arrecadação/Recebimento com Utilização do Código
 * de Barras" (sections 3–5 the layout, 7–10 the check digits; docs/faturamento.md "DAE"). Pure.
 *
 * The 44 digits:
 *
 * | pos.  | size | content                                                                          |
 * |-------|------|----------------------------------------------------------------------------------|
 * | 1     | 1    | product: 8 (arrecadação)                                                         |
 * | 2     | 1    | segment: 5 = Órgãos Governamentais (1 prefeituras, 2 saneamento, 3 energia…)     |
 * | 3     | 1    | value identifier: 6 / 7 → check digits by modulo 10; 8 / 9 → by modulo 11        |
 * |       |      | (6 and 8: an effective value in reais; 7 and 9: a quantity of a currency)        |
 * | 4     | 1    | the general check digit, over the other 43 digits                               |
 * | 5–15  | 11   | the value, in centavos, zero-padded                                              |
 * | 16–19 | 4    | the issuing body's code (the company's or body's FEBRABAN code)                  |
 * | 20–44 | 25   | the free field, the body's own (here: what identifies the DAE, see dae/config)   |
 *
 * The linha digitável cuts the 44 digits into four blocks of 11, each followed by its own check digit
 * by the same modulo as the general one: 48 digits, shown `NNNNNNNNNNN-D NNNNNNNNNNN-D …`.
 */

export const TAMANHO_CODIGO_BARRAS = 44;
export const TAMANHO_LINHA_DIGITAVEL = 48;
/** Position 1: the arrecadação product. */
export const PRODUTO_ARRECADACAO = '8';

export type Modulo = 10 | 11;

/** Position 3: 6 and 7 take modulo 10; 8 and 9 modulo 11; any other digit is not an arrecadação barcode. */
export function moduloDoIdentificador(identificadorValor: string): Modulo {
  if (identificadorValor === '6' || identificadorValor === '7') return 10;
  if (identificadorValor === '8' || identificadorValor === '9') return 11;
  throw new Error(`identificador de valor inválido: ${identificadorValor}`);
}

/**
 * Modulo 10: from the rightmost digit leftwards, multiply by 2, 1, 2, 1…; add the DIGITS of each product
 * (16 counts 1 + 6); the check digit is 10 minus the sum's remainder by 10, and 0 when that remainder is 0.
 */
export function modulo10(digitos: string): number {
  let soma = 0;
  for (let i = digitos.length - 1, peso = 2; i >= 0; i--, peso = peso === 2 ? 1 : 2) {
    const produto = Number(digitos[i]) * peso;
    soma += produto > 9 ? produto - 9 : produto; // the sum of a two-digit product's digits (10..18 → 1..9)
  }
  const resto = soma % 10;
  return resto === 0 ? 0 : 10 - resto;
}

/**
 * Modulo 11 (arrecadação): from the rightmost digit leftwards, multiply by 2, 3, …, 9, then 2 again; the
 * check digit is 11 minus the sum's remainder by 11, except that a remainder of 0 or 1 gives 0 (11 − 0
 * and 11 − 1 are not digits) — and so a remainder of 10 gives 1. This is the arrecadação rule; the
 * boleto's (cobrança) modulo 11 differs (it uses 1 where this uses 0).
 */
export function modulo11(digitos: string): number {
  let soma = 0;
  for (let i = digitos.length - 1, peso = 2; i >= 0; i--, peso = peso === 9 ? 2 : peso + 1) soma += Number(digitos[i]) * peso;
  const resto = soma % 11;
  return resto === 0 || resto === 1 ? 0 : 11 - resto;
}

const dv = (modulo: Modulo, digitos: string) => (modulo === 10 ? modulo10(digitos) : modulo11(digitos));

export interface CamposCodigoBarras {
  /** Position 2, e.g. '5' (Órgãos Governamentais). */
  segmento: string;
  /** Position 3: '6' | '7' | '8' | '9'. */
  identificadorValor: string;
  /** Centavos (at most 11 digits). */
  valorCentavos: number;
  /** Positions 16–19: 4 digits. */
  codigoOrgao: string;
  /** Positions 20–44: 25 digits. */
  campoLivre: string;
}

/** The 44 digits, with the general check digit (position 4) computed over the other 43. */
export function montarCodigoBarras(c: CamposCodigoBarras): string {
  if (!/^\d$/.test(c.segmento)) throw new Error('segmento inválido');
  const modulo = moduloDoIdentificador(c.identificadorValor);
  if (!Number.isSafeInteger(c.valorCentavos) || c.valorCentavos < 0 || c.valorCentavos > 99_999_999_999) throw new Error('valor inválido');
  if (!/^\d{4}$/.test(c.codigoOrgao)) throw new Error('código do órgão inválido');
  if (!/^\d{25}$/.test(c.campoLivre)) throw new Error('campo livre inválido');
  const inicio = `${PRODUTO_ARRECADACAO}${c.segmento}${c.identificadorValor}`;
  const resto = `${String(c.valorCentavos).padStart(11, '0')}${c.codigoOrgao}${c.campoLivre}`;
  return `${inicio}${dv(modulo, inicio + resto)}${resto}`;
}

/** True when the 44 digits are an arrecadação barcode whose general check digit verifies. */
export function codigoBarrasValido(codigo: string): boolean {
  if (!/^8\d{43}$/.test(codigo)) return false;
  let modulo: Modulo;
  try {
    modulo = moduloDoIdentificador(codigo[2]!);
  } catch {
    return false;
  }
  return dv(modulo, codigo.slice(0, 3) + codigo.slice(4)) === Number(codigo[3]);
}

/** The four blocks of 11 digits, each followed by its check digit (the barcode's modulo): 48 digits. */
export function linhaDigitavel(codigo: string): string {
  if (!codigoBarrasValido(codigo)) throw new Error('código de barras inválido');
  const modulo = moduloDoIdentificador(codigo[2]!);
  let linha = '';
  for (let i = 0; i < TAMANHO_CODIGO_BARRAS; i += 11) {
    const bloco = codigo.slice(i, i + 11);
    linha += bloco + String(dv(modulo, bloco));
  }
  return linha;
}

/** The 48 digits as printed: `85800000001-2 23450000202-3 …`. */
export function formatarLinhaDigitavel(linha: string): string {
  return (linha.match(/\d{12}/g) ?? []).map((b) => `${b.slice(0, 11)}-${b.slice(11)}`).join(' ');
}

/** The barcode back from a linha digitável (every block's check digit and the general one verified), else null. */
export function codigoBarrasDaLinha(linha: string): string | null {
  const digitos = linha.replace(/\D/g, '');
  if (digitos.length !== TAMANHO_LINHA_DIGITAVEL || digitos[0] !== PRODUTO_ARRECADACAO) return null;
  let modulo: Modulo;
  try {
    modulo = moduloDoIdentificador(digitos[2]!);
  } catch {
    return null;
  }
  let codigo = '';
  for (let i = 0; i < TAMANHO_LINHA_DIGITAVEL; i += 12) {
    const bloco = digitos.slice(i, i + 11);
    if (dv(modulo, bloco) !== Number(digitos[i + 11])) return null;
    codigo += bloco;
  }
  return codigoBarrasValido(codigo) ? codigo : null;
}

/** The value in centavos of a barcode whose identifier says "effective value" (6 or 8); null for a quantity of currency. */
export function valorDoCodigo(codigo: string): number | null {
  return codigo[2] === '6' || codigo[2] === '8' ? Number(codigo.slice(4, 15)) : null;
}
