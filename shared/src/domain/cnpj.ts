import * as z from 'zod';
import { MESSAGES } from '../messages';
import { isValidCnpj, isValidCnpjBase, normalizeCnpj } from './cnpj-regras';

export { cnpjBase, cnpjCheckDigits, formatCnpj, formatCnpjBase, isValidCnpj, isValidCnpjBase, mod11CheckDigit, normalizeCnpj } from './cnpj-regras';

/** The CNPJ's schemas and messages; its rules are in cnpj-regras.ts (re-exported here). */

export const CNPJ_INVALIDO = MESSAGES.cnpjInvalido;
export const CNPJ_BASE_INVALIDO = MESSAGES.cnpjBaseInvalido;

/**
 * Masked or unmasked text in, the normalized 14 characters out. `overwrite` (not `transform`) keeps the
 * schema a plain string, so it still converts to JSON Schema for the OpenAPI document. A missing value
 * falls through to the app's error map: the "obrigatório" message belongs to the form, not to this rule.
 */
export const cnpjSchema = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : CNPJ_INVALIDO) })
  .overwrite(normalizeCnpj)
  .refine(isValidCnpj, { error: CNPJ_INVALIDO });

/** Masked or unmasked text in, the normalized 8 characters out. */
export const cnpjBaseSchema = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : CNPJ_BASE_INVALIDO) })
  .overwrite(normalizeCnpj)
  .refine(isValidCnpjBase, { error: CNPJ_BASE_INVALIDO });
