import * as z from 'zod';
import { cnpjSchema } from '../domain/cnpj';
import { isValidTelefone, onlyDigits } from '../domain/masks';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, emailSchema, isoDateTime, messageResponse } from './common';
import { defineContract } from './define';
import { fateViewSchema, type FateView } from './fate-view';

/**
 * The trial area (degustação): trial registration, token authorisation, the trial look-up and the staff
 * list (docs/degustacao.md). A trial client is not a platform client: it has its own entity and its own
 * credential. Authorisation answers a trial access token that the trial routes read from the
 * DEGUSTACAO_HEADER header (never the Authorization bearer), so it opens nothing but those routes; they
 * are 'public' for API Gateway and the degustacao service checks the header itself.
 */

/** The header that carries the trial access token to the trial look-up routes. */
export const DEGUSTACAO_HEADER = 'x-plac-degustacao';

/** PENDENTE: registered, token e-mailed, never authorised; ATIVO: authorised (or activated by staff); DESATIVADO: by staff. */
export const DEGUSTACAO_SITUACOES = ['PENDENTE', 'ATIVO', 'DESATIVADO'] as const;
export type DegustacaoSituacao = (typeof DEGUSTACAO_SITUACOES)[number];
/** ours: the pt-BR labels of the trial client status. */
export const DEGUSTACAO_SITUACAO_LABELS: Record<DegustacaoSituacao, string> = {
  PENDENTE: 'Pendente',
  ATIVO: 'Ativo',
  DESATIVADO: 'Desativado',
};

const text = (max: number, title: string) => z.string().trim().min(1).max(max).meta({ title });
const telefone = z
  .string()
  .transform(onlyDigits)
  .refine(isValidTelefone, { error: message('telefoneInvalido') })
  .meta({ title: 'Telefone' });

/** An access key as the trial screen takes it: 44 digits (the trial keys come from a numeric-CNPJ issuer). */
export const chaveDegustacaoSchema = z
  .string({ error: message('degustacaoChaveObrigatoria') })
  .trim()
  .min(1, { error: message('degustacaoChaveObrigatoria') })
  .regex(/^\d{44}$/, { error: message('degustacaoChaveInvalida') })
  .meta({ title: 'Chave de Acesso' });

export const clienteTesteSchema = z.object({
  id: z.string(),
  cnpj: z.string(),
  razao_social: z.string(),
  nome_responsavel: z.string(),
  email: z.string(),
  telefone: z.string(),
  situacao: z.enum(DEGUSTACAO_SITUACOES),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  /** Who changed it last: a staff user's name, or the registration / authorisation itself. */
  nome_usuario: z.string().nullable(),
});

/** A Fat-e as the trial look-up shows it (a JSON tree on the screen). */
export const fateDegustacaoSchema = fateViewSchema;
export type FateDegustacao = FateView;

const sessaoErrors = ['degustacaoNaoAutorizado', 'degustacaoExpirado', 'degustacaoDesativado'] as const;

// ---- Public: registration and authorisation ------------------------------------------------------

export const registerClienteTeste = defineContract({
  id: 'degustacao.register',
  context: 'degustacao',
  method: 'POST',
  path: '/api/v1/cliente-teste',
  summary: 'Cadastro público para a degustação (com captcha): o token de acesso para testes é enviado por e-mail.',
  access: 'public',
  body: z.object({
    cnpj: cnpjSchema,
    razao_social: text(150, 'Razão Social'),
    nome_responsavel: text(100, 'Nome do Responsável'),
    email: emailSchema,
    telefone,
    /** The trial consent, whose text names the company and its CNPJ. */
    aceite_termo: z.literal(true, { error: message('degustacaoTermoObrigatorio') }),
    recaptcha: z.string().min(1, { error: message('captchaInvalido') }).max(4000),
  }),
  response: messageResponse,
  status: 201,
  errors: ['recursoDuplicado', 'captchaInvalido', 'muitasRequisicoes', 'degustacaoTermoObrigatorio'],
});

export const validateTokenTeste = defineContract({
  id: 'degustacao.validateToken',
  context: 'degustacao',
  method: 'POST',
  path: '/api/v1/cliente-teste/validate-token',
  summary: `Autorização da degustação por e-mail e token: devolve o cliente com o token de acesso para testes (24 horas), a enviar no cabeçalho ${DEGUSTACAO_HEADER}.`,
  access: 'public',
  body: z.object({
    email: emailSchema,
    token: z.string().trim().min(1).max(64).meta({ title: 'Token' }),
  }),
  response: z.object({
    message: z.string(),
    cliente: z.object({ email: z.string(), token: z.string(), razao_social: z.string(), expira_em: isoDateTime }),
  }),
  errors: ['credenciaisInvalidas', 'degustacaoDesativado', 'degustacaoTokenVencido', 'muitasRequisicoes'],
});

// ---- Trial look-ups (the trial access token in DEGUSTACAO_HEADER) -------------------------------

export const chavesDegustacao = defineContract({
  id: 'degustacao.chaves',
  context: 'degustacao',
  method: 'GET',
  path: '/api/v1/degustacao/obter-chavesNFe',
  summary: `As chaves de acesso disponíveis para testes (cabeçalho ${DEGUSTACAO_HEADER}).`,
  access: 'public',
  response: z.array(z.object({ chave: z.string(), emissao: z.string(), emitente: z.string(), valorNota: z.number().int() })),
  errors: [...sessaoErrors],
});

export const consultarFaturaDegustacao = defineContract({
  id: 'degustacao.consultar',
  context: 'degustacao',
  method: 'GET',
  path: '/api/v1/degustacao/consultar-fatura/{chave}',
  summary: `Consulta de testes de uma Fat-e por chave de acesso, entre as disponíveis (não tarifada; limitada por cliente; cabeçalho ${DEGUSTACAO_HEADER}).`,
  access: 'public',
  params: z.object({ chave: chaveDegustacaoSchema }),
  response: fateDegustacaoSchema,
  errors: [...sessaoErrors, 'degustacaoChaveIndisponivel', 'muitasRequisicoes'],
});

// ---- Staff: the trial client list (sefaz_admin) ---------------------------------------------------

export const listClientesTeste = defineContract({
  id: 'degustacao.list',
  context: 'degustacao',
  method: 'GET',
  path: '/api/v1/cliente-teste/clientes',
  summary: 'Os clientes em degustação, os mais recentes primeiro, uma página por vez (nextCursor → cursor).',
  access: ['sefaz_admin'],
  query: z.object({ ...cursorQuery(25) }),
  response: cursorPageOf(clienteTesteSchema),
  errors: ['cursorInvalido'],
});

export const updateClienteTeste = defineContract({
  id: 'degustacao.update',
  context: 'degustacao',
  method: 'PUT',
  path: '/api/v1/cliente-teste/{id}',
  summary: 'Ativa ou desativa um cliente em degustação (desativado, o seu token de testes deixa de valer na hora).',
  access: ['sefaz_admin'],
  params: z.object({ id: z.string().min(1).max(64) }),
  body: z.object({ situacao: z.enum(['ATIVO', 'DESATIVADO'], { error: message('situacaoNaoPermitida') }) }),
  response: clienteTesteSchema,
  errors: ['recursoNaoEncontrado', 'recursoDuplicado'],
});
