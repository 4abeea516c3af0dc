import * as z from 'zod';
import type { Role } from '../access/roles';
import { formatCnpj, isValidCnpj, isValidCnpjBase, normalizeCnpj } from '../domain/cnpj';
import { isValidCpf } from '../domain/cpf';
import { parseBrDate } from '../domain/dates';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, emailSchema, isoDateTime, ufSchema } from './common';
import { defineContract } from './define';

/**
 * The issuer's consent (spec 1 sections 3, 4, 7; spec 3 sections 2.16–2.18, 3.17, 4.3, 5.7, 7.10) and
 * the consent lists. An issuer (role emissor, logged in with its e-CNPJ) consents to sharing its
 * monthly billing with the financial institutions it names, for the branches it names; every change is
 * a new version kept as evidence (docs/consentimento.md). The lists are read by the authority and by
 * client users, who see only the consents naming an institution their client is authorised for (an
 * AUTORIZADO ESF authorisation). The NF-e / NFC-e billing look-ups answer only while such a consent is
 * active (functions/consulta: `semConsentimento`).
 */

/** The three consent pages (spec 1 section 6; spec 3 section 6). */
export const CONSENT_READERS: readonly Role[] = ['sefaz_admin', 'avaliacao', 'cliente_web', 'cliente'];
const EMISSOR: readonly Role[] = ['emissor'];

/** At most this many branches and institutions in one consent (one DynamoDB transaction holds every change). */
export const MAX_FILIAIS = 50;
export const MAX_INSTITUICOES = 40;

// ---- domain: texts, status, codes ----------------------------------------------------------------------

/** ours: the consent texts of step 1, with the company's name and CNPJ (the product does not show its wording). */
export function termoFaturaMensalTexto(razaoSocial: string, cnpj: string): string {
  return (
    `A empresa ${razaoSocial}, inscrita no CNPJ ${formatCnpj(cnpj)}, autoriza a Plataforma PLAC Fat-e a compartilhar com as ` +
    'instituições financeiras por ela indicadas o seu faturamento mensal (quantidade e valor total das NF-e e NFC-e emitidas ' +
    'pelas filiais indicadas), para fins de análise de crédito e antecipação de recebíveis. O consentimento vale até ser ' +
    'removido pela empresa, e cada alteração fica registrada com data, hora, CNPJ do certificado digital e usuário.'
  );
}

export function termoCompartNfeTexto(razaoSocial: string, cnpj: string): string {
  return (
    `A empresa ${razaoSocial}, inscrita no CNPJ ${formatCnpj(cnpj)}, autoriza o compartilhamento dos dados das suas NF-e com as ` +
    'instituições financeiras indicadas, exclusivamente para a confirmação da existência dos recebíveis (Fat-e) nelas ' +
    'registrados.'
  );
}

/** Spec 1, 4: not registered (both values null), removed (null or false), authorised (monthly billing true). */
export const ESTADOS_CONSENTIMENTO = ['NAO_CADASTRADO', 'REMOVIDO', 'AUTORIZADO'] as const;
export type EstadoConsentimento = (typeof ESTADOS_CONSENTIMENTO)[number];

export function estadoConsentimento(termoFatMensal: boolean | null, termoCompartNfe: boolean | null): EstadoConsentimento {
  if (termoFatMensal === true) return 'AUTORIZADO';
  if (termoFatMensal === null && termoCompartNfe === null) return 'NAO_CADASTRADO';
  return 'REMOVIDO';
}

/** Spec 3, 4.3: an issuer is Ativo with no final validity date or one in the future; otherwise Desativado. */
export function situacaoEmissor(dataVigenciaFinal: string | null | undefined, agora: Date = new Date()): 'Ativo' | 'Desativado' {
  return !dataVigenciaFinal || Date.parse(dataVigenciaFinal) > agora.getTime() ? 'Ativo' : 'Desativado';
}

/** Spec 3, 4.3: a branch or institution is Desativado when its monthly billing is off, otherwise Ativo. */
export const situacaoItem = (termoFatMensal: boolean | null | undefined): 'Ativo' | 'Desativado' => (termoFatMensal ? 'Ativo' : 'Desativado');

/** Status filter codes: 1 Ativo, 0 Desativado (issuers); 1 Ativo, 2 Desativado (carriers). */
export const SITUACAO_FILTRO_EMISSOR = [
  { value: 1, label: 'Ativo' },
  { value: 0, label: 'Desativado' },
] as const;
export const SITUACAO_FILTRO_TRANSPORTE = [
  { value: 1, label: 'Ativo' },
  { value: 2, label: 'Desativado' },
] as const;

/** Client types as the consent filters code them: 1 ESF, 2 IMF, 3 SHOPPING. */
export const TIPO_CLIENTE_CODIGOS = [
  { value: 1, label: 'ESF' },
  { value: 2, label: 'IMF' },
  { value: 3, label: 'SHOPPING' },
] as const;

/** Carrier type codes of the list: 0 MERCADORIA, 1 ETC, 2 MEI, 3 TAC, anything else blank. */
export const TIPO_TRANSPORTADOR_LABELS: Readonly<Record<number, string>> = { 0: 'MERCADORIA', 1: 'ETC', 2: 'MEI', 3: 'TAC' };
export const tipoTransportadorLabel = (tipo: number | null | undefined): string => (tipo == null ? '' : (TIPO_TRANSPORTADOR_LABELS[tipo] ?? ''));

/** Carrier filter types: Todos (-1), MERCADORIA (-2, code 0), ETC (1), MEI (2), TAC (3). */
export const TIPO_TRANSPORTADOR_FILTRO = [
  { value: -1, label: 'Todos' },
  { value: -2, label: 'MERCADORIA' },
  { value: 1, label: 'ETC' },
  { value: 2, label: 'MEI' },
  { value: 3, label: 'TAC' },
] as const;

/** The stored code a filter type selects (MERCADORIA is -2 in the filter, 0 in the rows); null: every type. */
export function codigoTipoTransportador(filtro: number | undefined): number | null {
  if (filtro === undefined || filtro === -1) return null;
  return filtro === -2 ? 0 : filtro;
}

/**
 * Spec 3, 5.7: at least one filter ('erroFiltro'), an end date when a start date is given
 * ('dataFimMandatoria'), the start not after the end ('dataInicioMaiorDataFim'). The portal and the
 * service run the same rule.
 */
export function validarFiltroConsentimento(f: Record<string, unknown>): 'erroFiltro' | 'dataFimMandatoria' | 'dataInicioMaiorDataFim' | null {
  const ignorados = new Set(['page', 'perPage', 'cursor', 'isAdminSefaz', 'isCliente']);
  const preenchido = Object.entries(f).some(([k, v]) => !ignorados.has(k) && v !== undefined && v !== null && v !== '' && !(k === 'transportador' && v === -1));
  if (!preenchido) return 'erroFiltro';
  const inicio = typeof f.dataInicial === 'string' ? f.dataInicial : '';
  const fim = typeof f.dataFinal === 'string' ? f.dataFinal : '';
  if (inicio && !fim) return 'dataFimMandatoria';
  if (inicio && fim && inicio > fim) return 'dataInicioMaiorDataFim';
  return null;
}

// ---- schemas ------------------------------------------------------------------------------------------

/** YYYY-MM-DD, a real day. */
const dia = (title: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: message('dataInvalida') })
    .refine((v) => parseBrDate(`${v.slice(8, 10)}/${v.slice(5, 7)}/${v.slice(0, 4)}`) !== null, { error: message('dataInvalida') })
    .meta({ title, example: '2026-11-23' });

const cnpjFilial = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : message('cnpjInvalido')) })
  .overwrite(normalizeCnpj)
  .refine(isValidCnpj, { error: message('cnpjInvalido') })
  .meta({ title: 'CNPJ', description: '14 caracteres, a forma alfanumérica incluída.' });
/** The issuer's base CNPJ in a path: 8 characters. */
const cnpjEmissorBase = z
  .string()
  .overwrite(normalizeCnpj)
  .refine(isValidCnpjBase, { error: message('cnpjBaseInvalido') })
  .meta({ title: 'CNPJ base do emissor' });
const texto = (title: string, max: number) => z.string().trim().min(1).max(max).meta({ title });
const opcional = (title: string, max: number) => z.string().trim().max(max).meta({ title }).optional();

const filialSchema = z.object({
  cnpj: z.string(),
  razaoSocial: z.string(),
  email: z.string(),
  uf: z.string(),
  termoFatMensal: z.boolean(),
  termoCompartNfe: z.boolean(),
  /** When the branch entered the consent; null for none yet (never for a stored one). */
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

const instituicaoSchema = z.object({
  id: z.string(),
  razaoSocial: z.string(),
  /** The base CNPJ (8 characters). */
  cnpj: z.string(),
  uf: z.string(),
  /** The institution's registry status when it was added (NOVO for one this issuer created). */
  situacao: z.string(),
  termoFatMensal: z.boolean(),
  termoCompartNfe: z.boolean(),
  /** When the monthly billing was last switched on for it. */
  termoFaturaMensalDt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  /** The user's name and the branch CNPJ of the certificate that added it. */
  createdBy: z.string(),
});

/** What the wizard reads (spec 1, 3 "Consent data"). */
export const consentimentoEmissorSchema = z.object({
  razaoSocial: z.string(),
  /** The certificate's CNPJ: the user's own branch. */
  cnpj: z.string(),
  cnpjBase: z.string(),
  estado: z.enum(ESTADOS_CONSENTIMENTO),
  termoFaturaMensalTexto: z.string(),
  termoFaturaMensalValue: z.boolean().nullable(),
  termoFaturaMensalDt: isoDateTime.nullable(),
  termoCompartNfeTexto: z.string(),
  termoCompartNfeValue: z.boolean().nullable(),
  filiais: z.array(filialSchema),
  inst_financeiras: z.array(instituicaoSchema),
  /** The current version (0 before the first consent); sent back on save, so a stale wizard is refused. */
  versao: z.number().int(),
});

const salvarFilial = z.object({
  cnpj: cnpjFilial,
  razaoSocial: texto('Razão Social', 150),
  email: emailSchema.meta({ title: 'E-mail' }),
  uf: ufSchema.meta({ title: 'UF' }),
  termoFatMensal: z.boolean().meta({ title: 'Fatura Mensal' }),
});

const salvarInstituicao = z.object({
  id: z.string().min(1).max(64).meta({ title: 'instituição financeira' }),
  termoFatMensal: z.boolean().meta({ title: 'Fatura Mensal' }),
});

const versao = z.number().int().min(0).max(1_000_000).meta({ title: 'versão' });

export const salvarBody = z.object({
  termoFatMensal: z.boolean().meta({ title: 'termo de faturamento mensal' }),
  termoCompartNfe: z.boolean().meta({ title: 'termo de compartilhamento de NF-e' }),
  filiais: z.array(salvarFilial).min(1).max(MAX_FILIAIS).meta({ title: 'filiais' }),
  inst_financeiras: z.array(salvarInstituicao).max(MAX_INSTITUICOES).meta({ title: 'instituições financeiras' }),
  versao: versao.optional(),
});

const CONSENT_ERRORS = ['consentimentoAlterado', 'consentimentoItensDemais'] as const;

// ---- the issuer's wizard (role emissor) ------------------------------------------------------------------

export const getTermo = defineContract({
  id: 'consentimento.getTermo',
  context: 'consentimento',
  method: 'GET',
  path: '/api/v1/emissor/termo-aceite-emissor',
  summary: 'O consentimento do emissor do certificado: textos, valores, filiais e instituições financeiras.',
  access: EMISSOR,
  response: consentimentoEmissorSchema,
  errors: ['semPermissao'],
});

export const salvarTermo = defineContract({
  id: 'consentimento.salvarTermo',
  context: 'consentimento',
  method: 'POST',
  path: '/api/v1/emissor/termo-aceite-emissor',
  summary:
    'O emissor registra ou altera o consentimento (nova versão, nunca sobrescrita): filiais do mesmo CNPJ base, instituições ' +
    'financeiras e o faturamento mensal de cada uma.',
  access: EMISSOR,
  body: salvarBody,
  response: z.object({ message: z.string(), consentimento: consentimentoEmissorSchema }),
  errors: [
    ...CONSENT_ERRORS,
    'semPermissao',
    'cnpjInvalido',
    'cnpjFilialForaDoBase',
    'filialDuplicada',
    'consentimentoTermoObrigatorio',
    'consentimentoFilialPropria',
    'consentimentoFilialPersistida',
    'consentimentoInstituicaoDuplicada',
    'consentimentoInstituicaoIndisponivel',
  ],
});

export const removerTermo = defineContract({
  id: 'consentimento.removerTermo',
  context: 'consentimento',
  method: 'POST',
  path: '/api/v1/emissor/desativar-termo-aceite-emissor',
  summary: 'O emissor remove o consentimento (os dois valores falsos): as consultas de faturamento deixam de ser respondidas na consulta seguinte.',
  access: EMISSOR,
  body: z.object({
    termoFatMensal: z.literal(false).meta({ title: 'termo de faturamento mensal' }),
    termoCompartNfe: z.literal(false).meta({ title: 'termo de compartilhamento de NF-e' }),
    versao: versao.optional(),
  }),
  response: z.object({ message: z.string() }),
  errors: [...CONSENT_ERRORS, 'semPermissao', 'consentimentoInexistente'],
});

// ---- the consent lists (admin, avaliacao, cliente_web, cliente) ---------------------------------------

const situacaoCodigo = (codes: readonly number[]) =>
  z
    .number()
    .int()
    .refine((n) => codes.includes(n), { error: message('campoOpcoes', { field: 'situação', values: codes.join(', ') }) })
    .meta({ title: 'situação' });

/** The filter of spec 3, 7.10 (isAdminSefaz and isCliente are accepted and ignored: the server knows the caller). */
const filtroComum = {
  cnpjCliente: cnpjFilial.meta({ title: 'cliente' }).optional(),
  uf: ufSchema.meta({ title: 'UF' }).optional(),
  numeroContrato: opcional('número do contrato', 30),
  razaoSocialTransportadora: opcional('nome', 150),
  cnpjTransportadora: z
    .string()
    .trim()
    .overwrite(normalizeCnpj)
    .refine((v) => v === '' || /^[0-9A-Z]{1,14}$/.test(v), { error: message('campoInvalido', { field: 'CNPJ/CPF' }) })
    .meta({ title: 'CNPJ/CPF' })
    .optional(),
  dataInicial: dia('Data Início').optional(),
  dataFinal: dia('Data Fim').optional(),
  isAdminSefaz: z.boolean().optional(),
  isCliente: z.boolean().optional(),
  ...cursorQuery(25),
};

export const filtroEmissorBody = z.object({
  ...filtroComum,
  /** The company (select): an issuer's base CNPJ. */
  cnpjEmissor: cnpjEmissorBase.optional(),
  situacao: situacaoCodigo([0, 1]).optional(),
  tipoCliente: z.union([z.literal(1), z.literal(2), z.literal(3)]).meta({ title: 'tipo de cliente' }).optional(),
});

export const filtroTransporteBody = z.object({
  ...filtroComum,
  situacao: situacaoCodigo([1, 2]).optional(),
  transportador: z
    .number()
    .int()
    .refine((n) => [-1, -2, 1, 2, 3].includes(n), { error: message('campoOpcoes', { field: 'tipo', values: '-1, -2, 1, 2, 3' }) })
    .meta({ title: 'tipo' })
    .optional(),
});

const situacaoTexto = z.enum(['Ativo', 'Desativado']);

export const emissorLinhaSchema = z.object({
  /** The issuer's base CNPJ: the detail's key. */
  id: z.string(),
  razaoSocial: z.string(),
  cnpj: z.string(),
  uf: z.string(),
  /** The consent's number: base CNPJ and current version. */
  numeroContrato: z.string(),
  /** Signature date: when the current consent began. */
  createdAt: isoDateTime,
  situacao: situacaoTexto,
  termoFaturaMensal: z.boolean(),
  /** The last change. */
  updatedAt: isoDateTime,
  /** Set when the consent was removed. */
  dataVigenciaFinal: isoDateTime.nullable(),
  /** The client types (ESF, IMF) of the institutions it names that the caller may see. */
  tipoCliente: z.array(z.string()),
});

const LISTA_ERRORS = ['erroFiltro', 'dataFimMandatoria', 'dataInicioMaiorDataFim', 'clienteNaoPermitido', 'cursorInvalido'] as const;

export const filtrarEmissores = defineContract({
  id: 'consentimento.filtrarEmissores',
  context: 'consentimento',
  method: 'POST',
  path: '/api/v1/emissor-consentimento/filtro',
  summary:
    'Consentimentos de emissores, por nome, uma página por vez (nextCursor → cursor). Ao menos um filtro; Data Fim obrigatória ' +
    'com Data Início; o nome filtra pelo início da razão social. Um usuário de cliente vê apenas os consentimentos que nomeiam ' +
    'uma instituição financeira para a qual o seu cliente tem autorização ESF AUTORIZADO.',
  access: CONSENT_READERS,
  body: filtroEmissorBody,
  response: cursorPageOf(emissorLinhaSchema),
  errors: [...LISTA_ERRORS],
});

const detalheFilial = filialSchema.extend({ situacao: situacaoTexto });
const detalheInstituicao = z.object({
  instituicaoFinanceira: z.object({ razaoSocial: z.string(), cnpj: z.string() }),
  termoFaturaMensal: z.boolean(),
  situacao: situacaoTexto,
  termoFaturaMensalDt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const detalheSchema = z.object({
  emissor: emissorLinhaSchema,
  filiais: z.array(detalheFilial),
  instFinanceiras: z.array(detalheInstituicao),
});

const porEmissor = z.object({ cnpj: cnpjEmissorBase });

export const detalharEmissor = defineContract({
  id: 'consentimento.detalharEmissor',
  context: 'consentimento',
  method: 'GET',
  path: '/api/v1/emissor-consentimento/{cnpj}',
  summary: 'O consentimento de um emissor (CNPJ base): filiais e instituições financeiras (para um cliente, só as suas).',
  access: CONSENT_READERS,
  params: porEmissor,
  response: detalheSchema,
  errors: ['recursoNaoEncontrado'],
});

export const versaoSchema = z.object({
  versao: z.number().int(),
  acao: z.enum(['ACEITE', 'ALTERACAO', 'REMOCAO']),
  /** When, and who: the certificate's CNPJ and the user. */
  em: isoDateTime,
  cnpjCertificado: z.string(),
  usuario: z.string(),
  termoFatMensal: z.boolean(),
  termoCompartNfe: z.boolean(),
  filiais: z.array(z.object({ cnpj: z.string(), razaoSocial: z.string(), uf: z.string(), termoFatMensal: z.boolean() })),
  instituicoes: z.array(z.object({ cnpj: z.string(), razaoSocial: z.string(), termoFatMensal: z.boolean() })),
});

export const historicoEmissor = defineContract({
  id: 'consentimento.historicoEmissor',
  context: 'consentimento',
  method: 'GET',
  path: '/api/v1/emissor-consentimento/{cnpj}/historico',
  summary: 'Todas as versões do consentimento de um emissor, mais recente primeiro: quando, quem (CNPJ do certificado e usuário) e o quê.',
  access: CONSENT_READERS,
  params: porEmissor,
  response: z.array(versaoSchema),
  errors: ['recursoNaoEncontrado'],
});

export const opcoesSchema = z.object({
  clientes: z.array(z.object({ cnpj: z.string(), razaoSocial: z.string(), tipoCliente: z.string() })),
  emissores: z.array(z.object({ cnpj: z.string(), razaoSocial: z.string() })),
});

export const opcoes = defineContract({
  id: 'consentimento.opcoes',
  context: 'consentimento',
  method: 'GET',
  path: '/api/v1/emissor-consentimento-opcoes',
  summary:
    'As opções dos filtros: clientes (o próprio, para um usuário de cliente) e até 20 empresas emissoras visíveis ao usuário, ' +
    'por nome, cujo nome começa com o texto informado (nome).',
  access: CONSENT_READERS,
  query: z.object({ nome: z.string().trim().max(150).meta({ title: 'nome' }).optional() }),
  response: opcoesSchema,
  errors: [],
});

export const transporteLinhaSchema = z.object({
  sacadorRazaoSocial: z.string(),
  sacadorCNPJ: z.string(),
  sacadorUF: z.string(),
  consentimentoNumeroContrato: z.string(),
  consentimentoDataAssinatura: isoDateTime,
  consentimentoDataVigenciaFinal: isoDateTime.nullable(),
  situacao: situacaoTexto,
  /** 0 MERCADORIA, 1 ETC, 2 MEI, 3 TAC; null blank. */
  sacadorTipoTransportador: z.number().int().nullable(),
});

export const filtrarTransporte = defineContract({
  id: 'consentimento.filtrarTransporte',
  context: 'consentimento',
  method: 'POST',
  path: '/api/v1/emissor-consentimento-transporte/filtro',
  summary:
    'Consentimentos de transportadores e sacadores, do mais recente ao mais antigo, uma página por vez (nextCursor → cursor), com as ' +
    'mesmas regras de filtro e de visibilidade da lista de emissores.',
  access: CONSENT_READERS,
  body: filtroTransporteBody,
  response: cursorPageOf(transporteLinhaSchema),
  errors: [...LISTA_ERRORS],
});

/** Is a CNPJ/CPF filter text a whole document (then compared exactly) or a part (contained)? */
export const documentoCompleto = (v: string): boolean => isValidCnpj(v) || isValidCpf(v);
