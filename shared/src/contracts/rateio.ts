import * as z from 'zod';
import { message } from '../messages';
import { defineContract } from './define';

/**
 * Revenue sharing (rateio) and its transfers (repasse): spec 3, sections 2.3-2.6, 3.6-3.10, 4.2,
 * 5.2, 7.3, 7.4; issue 15. This module: the banks of the beneficiaries' accounts (beneficiado-rateio-
 * bancos). sefaz_admin only (spec 3, 6).
 */

const ADMIN = ['sefaz_admin'] as const;

// ---- banks ------------------------------------------------------------------------------------------

/** Bank code (COMPE): 3 digits. */
export const codigoBancoSchema = z
  .string({ error: message('campoObrigatorio', { field: 'Código' }) })
  .trim()
  .regex(/^\d{3}$/, { error: message('bancoCodigoInvalido') })
  .meta({ title: 'Código' });

/**
 * ISPB: 8 digits, as the Central Bank publishes it (the spec's mask says 10; docs/repasse.md).
 */
export const ispbSchema = z
  .string({ error: message('campoObrigatorio', { field: 'ISPB' }) })
  .trim()
  .regex(/^\d{8}$/, { error: message('bancoIspbInvalido') })
  .meta({ title: 'ISPB' });

export const nomeBancoSchema = z
  .string({ error: message('campoObrigatorio', { field: 'Nome' }) })
  .trim()
  .min(1, { error: message('campoObrigatorio', { field: 'Nome' }) })
  .max(200)
  .meta({ title: 'Nome' });

export const bancoSchema = z.object({ codigo: z.string(), nome: z.string(), ispb: z.string() });

const bancoBody = z.object({ codigo: codigoBancoSchema, nome: nomeBancoSchema, ispb: ispbSchema });

/** The answer of a bank save: its name (spec 3, 7.4) and the toast's text. */
const bancoSalvo = z.object({ nome: z.string(), message: z.string() });

export const listBancos = defineContract({
  id: 'rateio.bancos',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/beneficiado/bancos',
  summary: 'Os bancos, pelo código.',
  access: ADMIN,
  response: z.array(bancoSchema),
  errors: [],
});

export const searchBancos = defineContract({
  id: 'rateio.bancosBusca',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/beneficiado/bancos/{search}',
  summary: 'Os bancos cujo código começa pelo termo ou cujo nome o contém (2 caracteres ou menos: todos).',
  access: ADMIN,
  params: z.object({ search: z.string().trim().max(100) }),
  response: z.array(bancoSchema),
  errors: [],
});

export const createBanco = defineContract({
  id: 'rateio.bancoCreate',
  context: 'rateio',
  method: 'POST',
  path: '/api/v1/beneficiado/bancos',
  summary: 'Cadastra um banco (código de 3 dígitos e ISPB de 8, únicos).',
  access: ADMIN,
  body: bancoBody,
  response: bancoSalvo,
  status: 201,
  errors: ['bancoCodigoDuplicado', 'bancoIspbDuplicado'],
});

export const updateBanco = defineContract({
  id: 'rateio.bancoUpdate',
  context: 'rateio',
  method: 'PUT',
  path: '/api/v1/beneficiado/bancos',
  summary: 'Altera o nome e o ISPB de um banco, pelo código.',
  access: ADMIN,
  body: bancoBody,
  response: bancoSalvo,
  errors: ['bancoIspbDuplicado', 'recursoNaoEncontrado'],
});
