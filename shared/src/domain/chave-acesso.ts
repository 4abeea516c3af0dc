import { isValidCnpj, mod11CheckDigit, normalizeCnpj } from './cnpj';
import { UFS } from './uf';

/**
 * The 44-character access key (chave de acesso) of an NF-e, NFC-e or CT-e:
 *
 *   cUF(2) AAMM(4) CNPJ(14) mod(2) serie(3) nNF(9) tpEmis(1) cNF(8) cDV(1)
 *
 * Since July 2026 the emitter's CNPJ may be alphanumeric; it sits in the key as it is (upper-case),
 * so a key is 0-9 except for the 12 first CNPJ characters. The check digit cDV is modulo 11 over the
 * first 43 characters with weights 2..9 from the right (restarting at 2 after 9), each character worth
 * its ASCII code minus 48 (digits keep their value, as in the CNPJ's own check digits); a remainder of
 * 0 or 1 gives 0, anything else 11 − remainder.
 */

/** Document models that carry an access key: NF-e, NFC-e, CT-e. */
export const MODELOS_DOCUMENTO = ['55', '65', '57'] as const;
export type ModeloDocumento = (typeof MODELOS_DOCUMENTO)[number];

export interface ChaveAcessoParts {
  /** IBGE code of the UF, 2 digits (11..53). */
  cUF: string;
  /** Year and month of issue, AAMM. */
  aamm: string;
  /** Emitter's CNPJ, 14 characters, numeric or alphanumeric. */
  cnpj: string;
  mod: ModeloDocumento;
  /** 3 digits, 000..999. */
  serie: string;
  /** 9 digits. */
  nNF: string;
  /** 1 digit (1 = normal issue). */
  tpEmis: string;
  /** 8 digits, the random code of the document. */
  cNF: string;
}

/** The parts plus the check digit, as `splitChaveAcesso` returns them. */
export interface ChaveAcessoSplit extends ChaveAcessoParts {
  cDV: string;
}

const SHAPE = /^(\d{2})(\d{4})([0-9A-Z]{12}\d{2})(\d{2})(\d{3})(\d{9})(\d)(\d{8})(\d)$/;
const UF_CODES = new Set<string>(UFS.map((u) => String(u.codigo)));

/** The key's check digit: the CNPJ's modulo-11 rule (cnpj.ts mod11CheckDigit) over the first 43 characters. */
export function chaveAcessoCheckDigit(first43: string): string {
  if (!/^[0-9A-Z]{43}$/.test(first43)) throw new RangeError(`chaveAcessoCheckDigit needs 43 characters 0-9/A-Z, got "${first43}"`);
  return String(mod11CheckDigit(first43));
}

const pad = (value: string | number, size: number) => String(value).padStart(size, '0');

/** Builds the key from its parts (numbers are zero-padded); throws RangeError on a part that does not fit. */
export function buildChaveAcesso(parts: {
  cUF: string | number;
  aamm: string;
  cnpj: string;
  mod: ModeloDocumento;
  serie: string | number;
  nNF: string | number;
  tpEmis?: string | number;
  cNF: string | number;
}): string {
  const cUF = pad(parts.cUF, 2);
  const cnpj = normalizeCnpj(parts.cnpj);
  const fields = {
    cUF,
    aamm: parts.aamm,
    cnpj,
    mod: parts.mod,
    serie: pad(parts.serie, 3),
    nNF: pad(parts.nNF, 9),
    tpEmis: pad(parts.tpEmis ?? 1, 1),
    cNF: pad(parts.cNF, 8),
  };
  if (!UF_CODES.has(cUF)) throw new RangeError(`cUF ${cUF} is not an IBGE UF code`);
  if (!/^\d{2}(0[1-9]|1[0-2])$/.test(fields.aamm)) throw new RangeError(`AAMM "${fields.aamm}" is not a year and month`);
  if (!isValidCnpj(cnpj)) throw new RangeError(`CNPJ "${parts.cnpj}" is not valid`);
  if (!(MODELOS_DOCUMENTO as readonly string[]).includes(fields.mod)) throw new RangeError(`model "${fields.mod}" is not 55, 65 or 57`);
  if (!/^\d{3}$/.test(fields.serie) || !/^\d{9}$/.test(fields.nNF) || !/^\d$/.test(fields.tpEmis) || !/^\d{8}$/.test(fields.cNF)) {
    throw new RangeError('serie (3), nNF (9), tpEmis (1) and cNF (8) must be digits of those sizes');
  }
  const first43 = `${fields.cUF}${fields.aamm}${fields.cnpj}${fields.mod}${fields.serie}${fields.nNF}${fields.tpEmis}${fields.cNF}`;
  return first43 + chaveAcessoCheckDigit(first43);
}

/** The key's parts, or undefined when it is not a valid key (shape, UF, month, CNPJ, model, check digit). */
export function splitChaveAcesso(input: string): ChaveAcessoSplit | undefined {
  const value = input.replace(/\s/g, '').toUpperCase();
  const m = SHAPE.exec(value);
  if (!m) return undefined;
  const [, cUF, aamm, cnpj, mod, serie, nNF, tpEmis, cNF, cDV] = m as unknown as string[];
  if (!UF_CODES.has(cUF!) || !/^\d{2}(0[1-9]|1[0-2])$/.test(aamm!)) return undefined;
  if (!isValidCnpj(cnpj) || !(MODELOS_DOCUMENTO as readonly string[]).includes(mod!)) return undefined;
  if (chaveAcessoCheckDigit(value.slice(0, 43)) !== cDV) return undefined;
  return { cUF: cUF!, aamm: aamm!, cnpj: cnpj!, mod: mod as ModeloDocumento, serie: serie!, nNF: nNF!, tpEmis: tpEmis!, cNF: cNF!, cDV: cDV! };
}

/** Whether the text (spaces allowed, as keys are often printed in groups of 4) is a valid access key. */
export function isValidChaveAcesso(input: unknown): boolean {
  return typeof input === 'string' && splitChaveAcesso(input) !== undefined;
}
