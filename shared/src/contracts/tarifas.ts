import * as z from 'zod';
import { isBusinessMonth } from '../domain/dates';
import {
  MAX_ASSINATURA_CENTAVOS,
  MAX_FAIXAS,
  MAX_NOME_GRUPO,
  MAX_QUANTIDADE_FAIXA,
  MAX_VALOR_MILESIMOS,
  TIPOS_VERSAO,
} from '../domain/tarifas';
import { message } from '../messages';
import { isoDateTime, MES_META, MES_SEGUINTE_EXEMPLO, messageResponse } from './common';
import { defineContract } from './define';

/**
 * Bands and tariffs (spec 3, sections 2.1, 2.2, 3.1-3.5, 4.1, 5.1, 7.1, 7.2): the versioned band
 * groups (grupoFaixa) and tariff groups (grupoTarifa) — current (Vigentes), draft (Elaboração, at most
 * one, starting in the future) and history (Histórico) — and their changes. sefaz_admin only.
 *
 * Months are business months 'YYYY-MM'; the subscription is in centavos and unit values in
 * thousandths of a real (integers, never floats). Create and update answer the spec's array whose
 * first item true means success, with the message as the second item.
 */

const ADMIN = ['sefaz_admin'] as const;

const mes = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? message('campoObrigatorio', { field }) : message('campoInvalido', { field })) })
    .refine(isBusinessMonth, { error: message('campoInvalido', { field }) })
    .meta({ title: field, ...MES_META });

const nomeGrupo = (field: string) =>
  z
    .string({ error: message('campoObrigatorioCurto') })
    .trim()
    .min(1, { error: message('campoObrigatorioCurto') })
    .max(MAX_NOME_GRUPO)
    .meta({ title: field });

const inteiro = (field: string, min: number, max: number) => z.number({ error: message('campoNumeroInteiro', { field }) }).int().min(min).max(max).meta({ title: field });

const id = z.string().trim().min(1).max(64);

export const faixaEntradaSchema = z.object({
  qtdMinima: inteiro('Quantidade mínima', 1, MAX_QUANTIDADE_FAIXA),
  /** null: open-ended (only the last band). */
  qtdMaxima: inteiro('Quantidade máxima', 1, MAX_QUANTIDADE_FAIXA).nullable(),
  /** A band removed on the edit screen (spec 3, 3.4); only the last may be. */
  excluir: z.boolean().optional(),
});

/** One service's unit values, one per band in the order of `faixas` (removed bands included). */
export const tarifaEntradaSchema = z.object({
  servId: inteiro('Serviço', 1, 100_000),
  valores: z.array(inteiro('Valor', 0, MAX_VALOR_MILESIMOS)).max(MAX_FAIXAS + 5),
});

const faixaEntrada = z.object({
  nomeGrupoFaixa: nomeGrupo('Nome do Grupo Faixa'),
  /** The promotional band's position (1-based), or null for none. The key is required: a choice. */
  faixaPromocional: inteiro('Faixa promocional', 1, MAX_FAIXAS + 5).nullable(),
  vigenciaInicial: mes('Vigência inicial').meta(MES_SEGUINTE_EXEMPLO),
  /** The current group's end month (required when a current group exists). */
  vigenciaFinalFaixaAtual: mes('Vigência final').nullable().optional(),
  faixas: z.array(faixaEntradaSchema).max(MAX_FAIXAS + 5),
});

const tarifaEntrada = z.object({
  nomeGrupoTarifa: nomeGrupo('Nome do Grupo Tarifa'),
  assinaturaMinima: inteiro('Assinatura mínima', 0, MAX_ASSINATURA_CENTAVOS),
  tarifas: z.array(tarifaEntradaSchema).max(50),
});

// ---- views ------------------------------------------------------------------------------------------

const audit = {
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};

export const faixaSchema = z.object({
  faixaId: z.string(),
  /** 'Faixa N'. */
  faixa: z.string(),
  qtdMinima: z.number().int(),
  qtdMaxima: z.number().int().nullable(),
  /** 'min - max' (the column header). */
  intervalo: z.string(),
});

export const grupoFaixaSchema = z.object({
  id: z.string(),
  descricao: z.string(),
  dtVigenciaInicial: z.string(),
  dtVigenciaFinal: z.string().nullable(),
  faixaPromocionalId: z.string().nullable(),
  faixas: z.array(faixaSchema),
  /** Every version of the group is past (the edit button is hidden). */
  desativado: z.boolean(),
  ...audit,
});

export const tarifaLinhaSchema = z.object({
  servId: z.number().int(),
  serv: z.string(),
  /** One per band, in the band order; valor in thousandths of a real. */
  valores: z.array(z.object({ idFaixa: z.string(), valor: z.number().int() })),
});

export const grupoTarifaSchema = z.object({
  id: z.string(),
  grupoFaixaId: z.string(),
  descricao: z.string(),
  /** The minimum subscription, in centavos. */
  assinatura: z.number().int(),
  dtVigenciaInicial: z.string(),
  dtVigenciaFinal: z.string().nullable(),
  rows: z.array(tarifaLinhaSchema),
  ...audit,
});

export const versaoSchema = z.object({
  tipo: z.enum(TIPOS_VERSAO),
  grupoFaixa: grupoFaixaSchema,
  grupoTarifa: grupoTarifaSchema,
});

export const tarifacaoSchema = z.object({
  /** The business month the kinds are computed for (Bahia). */
  mesAtual: z.string(),
  /** The timeline's revision: an update may send it back to refuse a stale form. */
  revisao: z.number().int(),
  vigente: versaoSchema.nullable(),
  elaboracao: versaoSchema.nullable(),
  /** Newest first. */
  historico: z.array(versaoSchema),
  /** A new group may be created (spec 3, 4.1: no draft exists, and the current group has no end). */
  novoPermitido: z.boolean(),
});

const resultado = z.tuple([z.boolean(), z.string()]);

// ---- calls -----------------------------------------------------------------------------------------

export const getTarifacao = defineContract({
  id: 'tarifas.tarifacao',
  context: 'tarifas',
  method: 'GET',
  path: '/api/v1/faixa-cobranca',
  summary: 'As faixas de cobrança e tarifas: a versão vigente, a em elaboração e o histórico.',
  access: ADMIN,
  response: tarifacaoSchema,
  errors: [],
});

export const getVigente = defineContract({
  id: 'tarifas.vigente',
  context: 'tarifas',
  method: 'GET',
  path: '/api/v1/faixa-cobranca/tarifas/vigente',
  summary: 'A versão vigente (grupo de faixas e grupo de tarifas).',
  access: ADMIN,
  response: versaoSchema,
  errors: ['semTarifacaoVigente'],
});

export const getVersao = defineContract({
  id: 'tarifas.versao',
  context: 'tarifas',
  method: 'GET',
  path: '/api/v1/faixa-cobranca/{idGrupoFaixa}/tarifas/{idGrupoTarifa}',
  summary: 'Uma versão: o grupo de faixas com um de seus grupos de tarifas.',
  access: ADMIN,
  params: z.object({ idGrupoFaixa: id, idGrupoTarifa: id }),
  response: versaoSchema,
  errors: ['recursoNaoEncontrado'],
});

export const verificarDesativado = defineContract({
  id: 'tarifas.desativado',
  context: 'tarifas',
  method: 'GET',
  path: '/api/v1/faixa-cobranca/verificar/desativado/{id}',
  summary: 'Se o grupo de faixas está desativado (todas as suas versões são histórico): primeiro item true.',
  access: ADMIN,
  params: z.object({ id }),
  response: z.tuple([z.boolean()]),
  errors: ['recursoNaoEncontrado'],
});

export const verificarElaboracao = defineContract({
  id: 'tarifas.verificarElaboracao',
  context: 'tarifas',
  method: 'GET',
  path: '/api/v1/grupo-tarifa/verificar/elaboracao',
  summary: 'Se existe tarifação em elaboração: primeiro item true.',
  access: ADMIN,
  response: z.tuple([z.boolean()]),
  errors: [],
});

export const servicosTarifa = defineContract({
  id: 'tarifas.servicos',
  context: 'tarifas',
  method: 'GET',
  path: '/api/v1/grupo-tarifa/servicos',
  summary: 'Os serviços da grade de tarifas (todos os do catálogo, na ordem de exibição).',
  access: ADMIN,
  response: z.array(z.object({ id: z.number().int(), descricao: z.string() })),
  errors: [],
});

const erros = [
  'tarifacaoEmElaboracao',
  'faixaMaximaInvalida',
  'faixaMinimaObrigatoria',
  'faixaSequenciaInvalida',
  'faixaAbertaSomenteUltima',
  'faixasDemais',
  'dadosIncorretos',
  'vigenciaInicialInvalida',
  'vigenciaFinalInvalida',
  'servicoDesconhecido',
  'tarifacaoAlterada',
] as const;

export const createFaixas = defineContract({
  id: 'tarifas.create',
  context: 'tarifas',
  method: 'POST',
  path: '/api/v1/faixa-cobranca',
  summary: 'Cadastra um grupo de faixas com seu grupo de tarifas, em elaboração; a vigente termina no mês anterior ao início.',
  access: ADMIN,
  body: z.object({ faixa: faixaEntrada, tarifa: tarifaEntrada }),
  response: resultado,
  status: 201,
  errors: [...erros],
});

export const createTarifa = defineContract({
  id: 'tarifas.createTarifa',
  context: 'tarifas',
  method: 'POST',
  path: '/api/v1/faixa-cobranca/tarifas',
  summary: 'Cadastra um novo grupo de tarifas sobre as faixas vigentes, em elaboração; a tarifa vigente termina no mês anterior.',
  access: ADMIN,
  body: z.object({
    idGrupoFaixa: id,
    idGrupoTarifaVigente: id,
    vigenciaInicial: mes('Vigência inicial').meta(MES_SEGUINTE_EXEMPLO),
    vigenciaFinalGrupoTarifaAtual: mes('Vigência final'),
    nomeGrupoTarifa: nomeGrupo('Nome do Grupo Tarifa'),
    assinaturaMinima: inteiro('Assinatura mínima', 0, MAX_ASSINATURA_CENTAVOS),
    tarifas: z.array(tarifaEntradaSchema).max(50),
  }),
  response: resultado,
  status: 201,
  errors: [...erros, 'semTarifacaoVigente'],
});

export const updateFaixas = defineContract({
  id: 'tarifas.update',
  context: 'tarifas',
  method: 'PUT',
  path: '/api/v1/faixa-cobranca',
  summary: 'Altera a tarifação em elaboração (faixas, tarifas, nomes, assinatura, mês de início); a vigente só tem o fim movido.',
  access: ADMIN,
  body: z.object({
    idGrupoFaixa: id,
    idGrupoTarifa: id,
    /** The revision the form was loaded at (GET faixa-cobranca): a stale form is refused. */
    revisao: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    faixa: faixaEntrada,
    tarifa: tarifaEntrada,
  }),
  response: resultado,
  errors: [...erros, 'semTarifacaoElaboracao', 'tarifacaoImutavel', 'faixasVigentesSomenteLeitura'],
});

export const removeElaboracao = defineContract({
  id: 'tarifas.removeElaboracao',
  context: 'tarifas',
  method: 'DELETE',
  path: '/api/v1/faixa-cobranca/tarifas/elaboracao/{idGrupoTarifa}',
  summary: 'Remove a tarifação em elaboração (a do grupo de tarifas informado); a vigente volta a não ter fim.',
  access: ADMIN,
  /** The draft's id: a page that shows an older draft cannot remove a newer one. */
  params: z.object({ idGrupoTarifa: id }),
  response: messageResponse,
  errors: ['semTarifacaoElaboracao', 'tarifacaoAlterada'],
});
