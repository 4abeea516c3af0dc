import * as z from 'zod';
import { cnpjBaseSchema, cnpjSchema } from '../domain/cnpj';
import { AUTORIZACAO_STATUS, INSTITUICAO_SITUACOES, INSTITUICAO_TIPOS } from '../domain/instituicoes';
import { UF_SIGLAS } from '../domain/uf';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, isoDateTime, messageResponse, pageOf, pageQuery, ufSchema } from './common';
import { defineContract } from './define';

/**
 * The registry of financial institutions (list and form), the ESF authorisations that clients give
 * them (list and form), and the issuer's institution calls of the consent wizard. Clients reach only
 * their own client's authorisations (object-level checks in the service); an issuer changes only the
 * NOVO institutions it created.
 */

/** 'O campo {field} é obrigatório.' for a missing value of a schema whose own check would speak first. */
const obrigatorio = (field: string) => (issue: { input: unknown }) => (issue.input === undefined ? message('campoObrigatorio', { field }) : undefined);

const situacao = z.enum(INSTITUICAO_SITUACOES, { error: obrigatorio('Status') });
const tipo = z.enum(INSTITUICAO_TIPOS, { error: obrigatorio('Tipo') });
const status = z.enum(AUTORIZACAO_STATUS);
const razaoSocial = z.string().trim().min(1).max(150).meta({ title: 'Razão Social' });
const cnpjBase = cnpjBaseSchema.meta({ title: 'CNPJ Base' });
const uf = z
  .string({ error: obrigatorio('UF') })
  .transform((v) => v.toUpperCase())
  .refine((v) => (UF_SIGLAS as readonly string[]).includes(v), { error: message('ufInvalida') });
/** A YYYY-MM-DD calendar day. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: message('dataInvalida') });

export const instituicaoSchema = z.object({
  id: z.string(),
  razaoSocial: z.string(),
  /** The base CNPJ: 8 characters, unmasked. */
  cnpj: z.string(),
  uf: z.string(),
  tipo: tipo.nullable(),
  situacao,
  regulada: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  /** Who created it: a user's name, or for an issuer its certificate's CNPJ. */
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
});

export const instituicaoResumoSchema = z.object({
  id: z.string(),
  razaoSocial: z.string(),
  cnpj: z.string(),
  uf: z.string(),
  situacao,
});

const instituicaoId = z.string().min(1).max(64);

// ---- Registry (sefaz_admin) -------------------------------------------------------------------

export const filtrarInstituicoes = defineContract({
  id: 'instituicoes.filtrar',
  context: 'instituicoes',
  method: 'POST',
  path: '/api/v1/instituicao-financeira/filtro',
  summary:
    'Instituições financeiras pelos filtros (ao menos um: CNPJ base (o início), tipo, UF ou status), em ordem de nome, uma página por vez (nextCursor → cursor).',
  access: ['sefaz_admin'],
  body: z.object({
    cnpjBaseEsf: z.string().trim().max(12).optional(),
    tipo: tipo.optional(),
    uf: ufSchema.optional(),
    situacao: situacao.optional(),
    ...cursorQuery(25),
  }),
  response: cursorPageOf(instituicaoSchema),
  errors: ['filtroObrigatorio', 'cursorInvalido'],
});

export const getInstituicao = defineContract({
  id: 'instituicoes.get',
  context: 'instituicoes',
  method: 'GET',
  path: '/api/v1/instituicao-financeira/admin/{id}',
  summary: 'Uma instituição financeira (formulário de edição).',
  access: ['sefaz_admin'],
  params: z.object({ id: instituicaoId }),
  response: instituicaoSchema,
  errors: ['recursoNaoEncontrado'],
});

export const createInstituicaoAdmin = defineContract({
  id: 'instituicoes.adminCreate',
  context: 'instituicoes',
  method: 'POST',
  path: '/api/v1/instituicao-financeira/admin/create',
  summary: 'Cadastra uma instituição financeira, já ATIVA.',
  access: ['sefaz_admin'],
  body: z.object({ razaoSocial, cnpj: cnpjBase, uf, tipo, regulada: z.boolean().default(false) }),
  response: instituicaoSchema,
  status: 201,
  errors: ['recursoDuplicado'],
});

export const updateInstituicaoAdmin = defineContract({
  id: 'instituicoes.adminUpdate',
  context: 'instituicoes',
  method: 'PUT',
  path: '/api/v1/instituicao-financeira/admin/update',
  summary: 'Altera uma instituição (o CNPJ não muda; o status segue as transições da especificação).',
  access: ['sefaz_admin'],
  body: z.object({
    id: instituicaoId,
    razaoSocial,
    uf,
    tipo,
    regulada: z.boolean(),
    situacao,
  }),
  response: instituicaoSchema,
  errors: ['recursoNaoEncontrado', 'statusNaoPermitido'],
});

const busca = z.object({ razaoSocial: z.string().trim().min(3).max(150) });

export const autocompleteInstituicoes = defineContract({
  id: 'instituicoes.autocomplete',
  context: 'instituicoes',
  method: 'GET',
  path: '/api/v1/instituicao-financeira/autocomplete',
  summary: 'Até 20 instituições, em ordem de nome, com uma palavra do nome começando por cada palavra do texto, ou cujo CNPJ base começa pelo texto (3 caracteres ou mais); clientes não veem as desativadas.',
  access: ['sefaz_admin', 'cliente'],
  query: busca,
  response: z.array(instituicaoResumoSchema),
  errors: [],
});

export const top5Instituicoes = defineContract({
  id: 'instituicoes.top5',
  context: 'instituicoes',
  method: 'GET',
  path: '/api/v1/instituicao-financeira/top5',
  summary: 'As 5 primeiras instituições por nome (sugestão antes de digitar).',
  access: ['sefaz_admin', 'cliente'],
  response: z.array(instituicaoResumoSchema),
  errors: [],
});

export const createInstituicaoPendente = defineContract({
  id: 'instituicoes.createPendente',
  context: 'instituicoes',
  method: 'POST',
  path: '/api/v1/instituicao-financeira',
  summary: 'Cadastro de instituição pelo diálogo da autorização: criada PENDENTE.',
  access: ['sefaz_admin', 'cliente'],
  body: z.object({ razaoSocial, cnpj: cnpjBase, uf }),
  response: instituicaoSchema,
  status: 201,
  errors: ['recursoDuplicado'],
});

// ---- ESF authorisations (sefaz_admin and cliente) ---------------------------------------------

export const clienteOpcaoSchema = z.object({ id: z.string(), cnpj: z.string(), razaoSocial: z.string() });

export const clientesAutorizacao = defineContract({
  id: 'instituicoes.clientes',
  context: 'instituicoes',
  method: 'GET',
  path: '/api/v1/instituicao-financeira/clientes',
  summary: 'Clientes do seletor das autorizações: todos para o administrador, só o próprio para o cliente.',
  access: ['sefaz_admin', 'cliente'],
  response: z.array(clienteOpcaoSchema),
  errors: [],
});

export const autorizacaoSchema = z.object({
  cnpjCliente: z.string(),
  razaoSocialCliente: z.string(),
  cnpjInstFinanceira: z.string(),
  razaoSocialInstFinanceira: z.string(),
  status,
  /** When the client authorised the institution (the request with the signed document). */
  dataAutorizacao: isoDateTime,
  dataAtualizacao: isoDateTime,
  justificativa: z.string().nullable(),
  nomeArquivo: z.string().nullable(),
});

export const autorizacaoDetalheSchema = autorizacaoSchema.extend({
  /** A short-lived presigned GET of the signed PDF. */
  urlArquivo: z.string().nullable(),
});

export const listAutorizacoes = defineContract({
  id: 'instituicoes.autorizacoes',
  context: 'instituicoes',
  method: 'POST',
  path: '/api/v1/instituicao-financeira/autorizacoes',
  summary: 'Autorizações de um cliente (o cliente vê só as suas) pelos filtros de instituição, período e status.',
  access: ['sefaz_admin', 'cliente'],
  body: z.object({
    /** Malformed is a 400 with the field's message, never a search that finds nothing. */
    cnpjCliente: cnpjSchema.meta({ title: 'Cliente' }).optional(),
    /** The institution picked in the autocomplete (base CNPJ). */
    instituicaoFinanceira: z.string().trim().max(12).optional(),
    /** A base CNPJ typed instead. */
    cnpjBaseEsf: z.string().trim().max(12).optional(),
    status: status.optional(),
    dataInicial: day.optional(),
    dataFinal: day.optional(),
    ...pageQuery,
  }),
  response: pageOf(autorizacaoSchema),
  errors: ['clientePlacObrigatorio', 'dataInicioMaiorDataFim', 'clienteNaoPermitido'],
});

export const getAutorizacao = defineContract({
  id: 'instituicoes.autorizacao',
  context: 'instituicoes',
  method: 'GET',
  path: '/api/v1/instituicao-financeira/autorizacao',
  summary: 'Uma autorização, com o link temporário do PDF assinado.',
  access: ['sefaz_admin', 'cliente'],
  query: z.object({ cnpjCliente: cnpjSchema, cnpjInstFinanceira: cnpjBase }),
  response: autorizacaoDetalheSchema,
  errors: ['recursoNaoEncontrado', 'clienteNaoPermitido'],
});

/** The signed PDF, base64 (a data: URL prefix is accepted). */
/**
 * The PDF as base64. Its size is the service's rule ('arquivoGrandeDemais' past 4 MB); the request
 * body limit (413) bounds the text, so no generic length message can come first.
 */
const arquivo = z.string().min(1).meta({ title: 'Arquivo' });
const nomeArquivo = z.string().trim().min(1).max(200).meta({ title: 'Arquivo' });

export const createAutorizacao = defineContract({
  id: 'instituicoes.createAutorizacao',
  context: 'instituicoes',
  method: 'POST',
  path: '/api/v1/instituicao-financeira/autorizacao',
  summary: 'O cliente autoriza uma instituição financeira, com o PDF assinado (só PDF, até 4 MB); nasce PENDENTE.',
  access: ['cliente'],
  body: z.object({
    cliente: cnpjSchema.meta({ title: 'Cliente' }),
    instituicaoFinanceira: cnpjBase.meta({ title: 'Instituição Financeira' }),
    arquivo,
    nomeArquivo,
  }),
  response: z.object({ message: z.string(), autorizacao: autorizacaoSchema }),
  status: 201,
  errors: ['somentePdf', 'arquivoGrandeDemais', 'autorizacaoDuplicada', 'clienteNaoPermitido', 'instituicaoIndisponivel'],
});

export const updateAutorizacao = defineContract({
  id: 'instituicoes.updateAutorizacao',
  context: 'instituicoes',
  method: 'PUT',
  path: '/api/v1/instituicao-financeira/atualizacao',
  summary: 'O administrador altera o status (com justificativa); o cliente troca o PDF enquanto não AUTORIZADO.',
  access: ['sefaz_admin', 'cliente'],
  body: z.object({
    cnpjCliente: cnpjSchema,
    cnpjInstFinanceira: cnpjBase,
    status: status.optional(),
    justificativa: z.string().trim().max(1000).optional(),
    arquivo: arquivo.optional(),
    nomeArquivo: nomeArquivo.optional(),
  }),
  response: z.object({ message: z.string(), autorizacao: autorizacaoSchema }),
  errors: ['recursoNaoEncontrado', 'statusNaoPermitido', 'autorizacaoNaoEditavel', 'clienteNaoPermitido', 'somentePdf', 'arquivoGrandeDemais'],
});

// ---- Issuer (emissor) ---------------------------------------------------------------------------

export const emissorInstituicaoSchema = instituicaoResumoSchema.extend({
  createdAt: isoDateTime,
  updatedAt: isoDateTime.nullable(),
  /** The issuer's CNPJ for the institutions it created (NOVO), else null. */
  createdBy: z.string().nullable(),
});

export const emissorAutocomplete = defineContract({
  id: 'instituicoes.emissorAutocomplete',
  context: 'instituicoes',
  method: 'GET',
  path: '/api/v1/emissor/instituicao-financeira/autocomplete',
  summary: 'Instituições ativas e as novas deste emissor cujo nome ou CNPJ base contém o texto.',
  access: ['emissor'],
  query: busca,
  response: z.array(emissorInstituicaoSchema),
  errors: [],
});

export const emissorTop5 = defineContract({
  id: 'instituicoes.emissorTop5',
  context: 'instituicoes',
  method: 'GET',
  path: '/api/v1/emissor/instituicao-financeira/top5',
  summary: 'As 5 primeiras instituições disponíveis ao emissor.',
  access: ['emissor'],
  response: z.array(emissorInstituicaoSchema),
  errors: [],
});

export const emissorCreate = defineContract({
  id: 'instituicoes.emissorCreate',
  context: 'instituicoes',
  method: 'POST',
  path: '/api/v1/emissor/instituicao_financeira/create',
  summary: 'O emissor cadastra uma instituição: criada NOVO, em nome do CNPJ do emissor.',
  access: ['emissor'],
  body: z.object({ razaoSocial, cnpj: cnpjBase, uf }),
  response: emissorInstituicaoSchema,
  status: 201,
  errors: ['recursoDuplicado'],
});

export const emissorUpdate = defineContract({
  id: 'instituicoes.emissorUpdate',
  context: 'instituicoes',
  method: 'PUT',
  path: '/api/v1/emissor/instituicao_financeira/update',
  summary: 'O emissor altera uma instituição NOVO que ele cadastrou.',
  access: ['emissor'],
  body: z.object({ id: instituicaoId, razaoSocial, uf }),
  response: emissorInstituicaoSchema,
  errors: ['recursoNaoEncontrado', 'instituicaoNaoEditavel'],
});

export const emissorDelete = defineContract({
  id: 'instituicoes.emissorDelete',
  context: 'instituicoes',
  method: 'POST',
  path: '/api/v1/emissor/instituicao_financeira/delete',
  summary: 'O emissor remove uma instituição NOVO que ele cadastrou.',
  access: ['emissor'],
  body: z.object({ id: instituicaoId }),
  response: messageResponse,
  errors: ['recursoNaoEncontrado', 'instituicaoNaoEditavel'],
});
