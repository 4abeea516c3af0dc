import * as z from 'zod';
import type { Role } from '../access/roles';
import { cnpjSchema } from '../domain/cnpj';
import { parseBrDate } from '../domain/dates';
import { message } from '../messages';
import { chaveAcessoSchema, isoDateTime } from './common';
import { defineContract } from './define';

/**
 * 'Registro de Cessão' (service 8; functions/cessao, docs/cessao.md): the bookkeeper (escriturador)
 * of a Fat-e, the IMF client named by its drawer's consent, registers that one of its instalments
 * (duplicata, by its nDup) was assigned to someone, and reads the assignments registered on the
 * Fat-e. An instalment is assigned at most once: the registry is keyed by (key, nDup) and written by
 * a conditional create. Each registration is metered once. Integrators only: the mutual-TLS domain,
 * with the token of a certificate login of a `cliente_imf` user.
 */

export const REGISTRO_CESSAO: readonly Role[] = ['cliente_imf'];

export const chaveCessaoSchema = chaveAcessoSchema.meta({ title: 'chave de acesso', description: 'Os 44 caracteres da chave de acesso da Fat-e.', example: '29261112345678000195550010000012341123456784' });

/** At most this many characters in nDup (the NF-e's own limit for <dup><nDup>). */
export const NDUP_MAXIMO = 60;

const nDupSchema = z
  .string({ error: message('campoObrigatorio', { field: 'número da parcela' }) })
  .trim()
  .min(1, { error: message('campoObrigatorio', { field: 'número da parcela' }) })
  .max(NDUP_MAXIMO, { error: message('campoInvalido', { field: 'número da parcela' }) })
  .meta({ title: 'número da parcela', description: 'O nDup da duplicata, como na Fat-e (<dup><nDup>).', example: '001' });

/** AAAA-MM-DD, a real day. */
const dataCessaoSchema = z
  .string({ error: message('campoObrigatorio', { field: 'data da cessão' }) })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: message('dataInvalida') })
  .refine((v) => parseBrDate(`${v.slice(8, 10)}/${v.slice(5, 7)}/${v.slice(0, 4)}`) !== null, { error: message('dataInvalida') })
  .meta({ title: 'data da cessão', description: 'AAAA-MM-DD; não futura (horário da Bahia) nem anterior à emissão da Fat-e.', example: '2026-11-23' });

const valorSchema = z
  .number({ error: (issue) => message(issue.input === undefined ? 'campoObrigatorio' : 'campoNumeroInteiro', { field: 'valor' }) })
  .int({ error: message('campoNumeroInteiro', { field: 'valor' }) })
  .min(1, { error: message('campoInvalido', { field: 'valor' }) })
  .max(100_000_000_000, { error: message('campoInvalido', { field: 'valor' }) })
  .meta({ title: 'valor', description: 'Em centavos; no máximo o valor da parcela.', example: 150000 });

export const cessaoView = z
  .object({
    chave: z.string(),
    nDup: z.string(),
    cnpjCessionario: z.string(),
    dataCessao: z.string(),
    /** Centavos. */
    valor: z.number().int(),
    registradaEm: isoDateTime,
  })
  .meta({ title: 'cessão' });

export const registrarCessao = defineContract({
  id: 'cessao.registrar',
  context: 'cessao',
  method: 'POST',
  path: '/api/v1/registro-cessao',
  summary:
    'Registra a cessão de uma parcela (duplicata) de uma Fat-e pelo seu escriturador (cliente IMF indicado no consentimento do sacador). ' +
    'Uma parcela só pode ser cedida uma vez (409); a mesma requisição repetida pelo mesmo cliente responde 200 com o registro existente, ' +
    'sem nova cobrança. Cobrado como Registro de Cessão, uma vez por parcela.',
  access: REGISTRO_CESSAO,
  channel: 'mtls',
  body: z.object({
    chave: chaveCessaoSchema,
    nDup: nDupSchema,
    cnpjCessionario: cnpjSchema.meta({ title: 'CNPJ do cessionário', example: '11222333000181' }),
    dataCessao: dataCessaoSchema,
    valor: valorSchema,
  }),
  response: z.object({ message: z.string(), cessao: cessaoView }),
  status: 201,
  // The same registration repeated by its client (an idempotent retry): 200 with the registration.
  alsoStatus: [200],
  errors: [
    'cotaExcedida',
    'fateNaoEncontrada',
    'cessaoNaoPermitida',
    'cessaoFateCancelada',
    'cessaoParcelaInexistente',
    'cessaoValorAcimaDaParcela',
    'cessaoDataFutura',
    'cessaoDataAnteriorEmissao',
    'cessaoParcelaJaCedida',
  ],
});

export const listarCessoes = defineContract({
  id: 'cessao.listar',
  context: 'cessao',
  method: 'GET',
  path: '/api/v1/registro-cessao/{chave}',
  summary: 'As cessões registradas nas parcelas de uma Fat-e, por quem quer que as tenha registrado; somente para o escriturador da Fat-e.',
  access: REGISTRO_CESSAO,
  channel: 'mtls',
  params: z.object({ chave: chaveCessaoSchema }),
  response: z.object({ chave: z.string(), cessoes: z.array(cessaoView) }),
  errors: ['cotaExcedida', 'fateNaoEncontrada', 'cessaoNaoPermitida'],
});
