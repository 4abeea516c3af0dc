import { nomeDoEstado, UF_EMISSORA_DAE, type Uf } from '@plac/shared/domain';

/**
 * The DAE's barcode settings, in one place (docs/faturamento.md "DAE"). The segment and the value
 * identifier are FEBRABAN's codes; the issuing body's code is the one the collecting banks register for
 * the Sefaz (4 digits, positions 16–19 of the barcode): DAE_CODIGO_ORGAO in the environment, else the
 * placeholder below (a deployment sets the real one; the twin and the tests use the placeholder).
 */
/** Position 2: '5' = Órgãos Governamentais (FEBRABAN's segment of government bodies). */
export const SEGMENTO_ORGAOS_GOVERNAMENTAIS = '5';

/**
 * Position 3: '6' = an effective value in reais, check digits by modulo 10 (the usual choice of state
 * DAEs). '8' would be the same by modulo 11; febraban.ts handles both.
 */
export const IDENTIFICADOR_VALOR = '6';

/** Placeholder issuing body's code until the banks' registration gives the real one. */
export const CODIGO_ORGAO_PADRAO = '0001';

/** Positions 16–19: DAE_CODIGO_ORGAO (4 digits) or the placeholder; anything else is a deployment error. */
export function codigoOrgao(): string {
  const codigo = process.env.DAE_CODIGO_ORGAO ?? CODIGO_ORGAO_PADRAO;
  if (!/^\d{4}$/.test(codigo)) throw new Error('DAE_CODIGO_ORGAO must be 4 digits');
  return codigo;
}

/**
 * The DAE's issuer as printed: the issuing state (UF_EMISSORA_DAE) and its Secretaria da Fazenda,
 * 'Estado da Bahia — Secretaria da Fazenda (SEFAZ-BA)'.
 */
export function emissorDae(uf: Uf = UF_EMISSORA_DAE): string {
  return `${nomeDoEstado(uf)} — Secretaria da Fazenda (SEFAZ-${uf})`;
}

/**
 * Positions 20–44, the free field (25 digits), what lets the bank-return import find the DAE (and a
 * person read it): the due date YYYYMMDD (8), the invoice's reference month YYYYMM (6) and the DAE's
 * own number (11, a platform-wide sequence). The record is also indexed by the whole barcode.
 */
export function campoLivre(dtVencimento: string, mes: string, numero: number): string {
  if (!Number.isSafeInteger(numero) || numero < 1 || numero > 99_999_999_999) throw new Error('número do DAE fora da faixa');
  return `${dtVencimento.replaceAll('-', '')}${mes.replace('-', '')}${String(numero).padStart(11, '0')}`;
}

/**
 * A DAE's number and due date back from its 44-digit barcode: the free field (positions 20–44) is
 * campoLivre's due date YYYYMMDD, reference month YYYYMM and number (11 digits).
 */
export function daeDoCodigoBarras(codigoBarras: string): { numero: number; dtVencimento: string } {
  const livre = codigoBarras.slice(19);
  return { numero: Number(livre.slice(14)), dtVencimento: `${livre.slice(0, 4)}-${livre.slice(4, 6)}-${livre.slice(6, 8)}` };
}
