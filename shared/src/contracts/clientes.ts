import * as z from 'zod';
import { message } from '../messages';
import { cnpjSchema } from '../domain/cnpj';
import { CLIENTE_SITUACOES, OPERACOES_WEBHOOK, TIPOS_CLIENTE } from '../domain/clientes';
import { isValidCep, isValidTelefone, onlyDigits } from '../domain/masks';
import { emailSchema, isoDateTime, messageResponse, pageOf, pageQuery, ufSchema } from './common';
import { defineContract } from './define';

/**
 * Client companies: the list and form of the administration, status changes, contract, and the webhook
 * configurations of the 'Monitoramento' tab (the public registration and the unlock: cadastro.ts). A client user reaches only its own client (object-level checks in the service).
 */

const situacao = z.enum(Object.keys(CLIENTE_SITUACOES) as [keyof typeof CLIENTE_SITUACOES, ...(keyof typeof CLIENTE_SITUACOES)[]]);
const tipoCliente = z.enum(TIPOS_CLIENTE);
const text = (max: number, title: string) => z.string().trim().min(1).max(max).meta({ title });

export const clienteResumoSchema = z.object({
  id: z.string(),
  cnpj: z.string(),
  razao_social: z.string(),
  tipo_cliente: tipoCliente,
  situacao,
});

const cep = z
  .string()
  .transform(onlyDigits)
  .refine(isValidCep, { error: message('cepInvalido') })
  .meta({ title: 'CEP' });
const telefone = z
  .string()
  .transform(onlyDigits)
  .refine(isValidTelefone, { error: message('telefoneInvalido') })
  .meta({ title: 'Telefone' });

/** The client's address and responsible person, as the public registration and the admin's form take them. */
export const endereco = {
  razao_social: text(150, 'Razão Social'),
  logradouro: text(150, 'Logradouro'),
  numero: text(20, 'Número'),
  complemento: z.string().trim().max(100).nullable().optional(),
  bairro: text(100, 'Bairro'),
  uf: ufSchema,
  cidade: text(100, 'Cidade'),
  cep,
  telefone,
  nome_responsavel: text(100, 'Nome do Responsável'),
  email: emailSchema,
};

export const clienteSchema = z.object({
  id: z.string(),
  cnpj: z.string(),
  razao_social: z.string(),
  logradouro: z.string().nullable(),
  numero: z.string().nullable(),
  complemento: z.string().nullable(),
  bairro: z.string().nullable(),
  uf: z.string().nullable(),
  cidade: z.string().nullable(),
  cep: z.string().nullable(),
  tipo_cliente: tipoCliente,
  telefone: z.string().nullable(),
  nome_responsavel: z.string().nullable(),
  email: z.string(),
  situacao,
  categoria: z.enum(['PRIVADA', 'PUBLICA']).nullable(),
  /** Start of the password-login period (YYYY-MM-DD). */
  inicio_sem_certificado: z.string().nullable(),
  /** Its last day: start + the parameter's days (administrator only; null for others). */
  prazo_sem_certificado: z.string().nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  nome_usuario: z.string().nullable(),
});

export const allClientes = defineContract({
  id: 'clientes.all',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/cliente/get-all-cliente',
  summary: 'Todos os clientes (para seletores), por razão social.',
  access: ['sefaz_admin', 'sefaz_gestor'],
  response: z.array(clienteResumoSchema),
  errors: [],
});

export const listClientes = defineContract({
  id: 'clientes.list',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/cliente',
  summary: 'Clientes com os filtros da tela cliente-list, paginação e ordenação no servidor.',
  access: ['sefaz_admin', 'sefaz_gestor'],
  query: z.object({
    cnpj: z.string().trim().max(18).optional(),
    razao_social: z.string().trim().max(150).optional(),
    situacao: situacao.optional(),
    sort: z.enum(['razao_social', 'cnpj', 'tipo_cliente', 'situacao', 'created_at']).default('razao_social'),
    order: z.enum(['asc', 'desc']).default('asc'),
    ...pageQuery,
  }),
  response: pageOf(
    z.object({ id: z.string(), razao_social: z.string(), cnpj: z.string(), tipo_cliente: tipoCliente, telefone: z.string().nullable(), situacao }),
  ),
  errors: [],
});

export const clienteId = z.object({ id: z.string().min(1).max(64) });

export const getCliente = defineContract({
  id: 'clientes.get',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/cliente/{id}',
  summary: 'Um cliente: o administrador vê qualquer um; o usuário de cliente, só o seu.',
  access: ['sefaz_admin', 'cliente'],
  params: clienteId,
  response: clienteSchema,
  errors: ['recursoNaoEncontrado'],
});

export const updateCliente = defineContract({
  id: 'clientes.update',
  context: 'clientes',
  method: 'PUT',
  path: '/api/v1/cliente/{id}',
  summary: 'Altera os dados do cliente (o CNPJ não muda; situação, categoria e início do prazo só pelo administrador).',
  access: ['sefaz_admin', 'cliente'],
  params: clienteId,
  body: z.object({
    ...endereco,
    tipo_cliente: tipoCliente,
    situacao: situacao.optional(),
    categoria: z.enum(['PRIVADA', 'PUBLICA']).nullable().optional(),
    inicio_sem_certificado: z.iso.date().nullable().optional(),
  }),
  response: clienteSchema,
  errors: ['recursoNaoEncontrado', 'situacaoNaoPermitida', 'semPermissao'],
});

export const contratoCliente = defineContract({
  id: 'clientes.contrato',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/cliente/{id}/download-contrato',
  summary: 'Contrato do cliente em PDF (base64), salvo como contrato_plac.pdf; não há para SHOPPING.',
  access: ['sefaz_admin', 'sefaz_gestor'],
  params: clienteId,
  response: z.object({ nome: z.literal('contrato_plac.pdf'), arquivo: z.string() }),
  errors: ['recursoNaoEncontrado', 'contratoIndisponivel'],
});

export const prazoSemCertificado = defineContract({
  id: 'clientes.prazoSemCertificado',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/parametro/prazo-autenticacao-sem-certificado',
  summary: 'Dias do prazo para autenticar sem certificado digital (padrão 30).',
  access: 'authenticated',
  response: z.object({ dias: z.number().int() }),
  errors: [],
});

// ---- webhook configurations ('Monitoramento' tab) ------------------------------------------------

const operacao = z.enum(OPERACOES_WEBHOOK.map((o) => o.operacao) as [string, ...string[]]);

export const webhookSchema = z.object({
  id: z.string(),
  operacaoId: z.number().int().min(0).max(4),
  operacao: z.string(),
  urlWebHook: z.string(),
  emailWebHook: z.string().nullable(),
  usuarioWebHook: z.string().nullable(),
  /** Never the password itself: '' when none is set, '********' when one is stored. */
  senhaWebHook: z.string(),
  clienteId: z.string(),
  clienteCnpj: z.string(),
});

const webhookBody = z.object({
  operacao,
  urlWebHook: z.string().trim().min(1).max(500).meta({ title: 'URL' }),
  emailWebHook: z.union([emailSchema, z.literal('')]).optional().nullable(),
  usuarioWebHook: z.string().trim().max(100).optional().nullable(),
  /** base64 of the password, as the portal's payload carries it. */
  senhaWebHook: z.string().max(400).optional().nullable(),
  clienteId: z.string().min(1).max(64),
  clienteCnpj: z.string().trim().max(18),
});

export const listWebhooks = defineContract({
  id: 'clientes.webhooks',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/webhook-cliente/{cnpj}',
  summary: 'Configurações de monitoramento (webhook) do cliente, pelo CNPJ (só dígitos/letras).',
  access: ['sefaz_admin', 'cliente'],
  params: z.object({ cnpj: cnpjSchema }),
  response: z.array(webhookSchema),
  errors: ['recursoNaoEncontrado'],
});

export const segredoWebhook = defineContract({
  id: 'clientes.segredoWebhook',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/webhook-cliente/{cnpj}/segredo',
  summary: 'Quando foi gerado o segredo de assinatura dos webhooks do cliente (nunca o segredo).',
  access: ['sefaz_admin', 'cliente'],
  params: z.object({ cnpj: cnpjSchema }),
  response: z.object({ criadoEm: z.string().nullable(), criadoPor: z.string().nullable() }),
  errors: ['recursoNaoEncontrado'],
});

export const gerarSegredoWebhook = defineContract({
  id: 'clientes.gerarSegredoWebhook',
  context: 'clientes',
  method: 'POST',
  path: '/api/v1/webhook-cliente/{cnpj}/segredo',
  summary:
    'Gera um novo segredo de assinatura dos webhooks (HMAC-SHA256 no cabeçalho x-plac-signature), mostrado só nesta resposta; ' +
    'o anterior deixa de valer.',
  access: ['sefaz_admin', 'cliente'],
  params: z.object({ cnpj: cnpjSchema }),
  response: z.object({ segredo: z.string(), criadoEm: z.string() }),
  status: 201,
  errors: ['recursoNaoEncontrado'],
});

export const createWebhook = defineContract({
  id: 'clientes.createWebhook',
  context: 'clientes',
  method: 'POST',
  path: '/api/v1/webhook-cliente',
  summary: 'Cadastra a configuração de uma operação (uma por operação e cliente).',
  access: ['sefaz_admin', 'cliente'],
  body: webhookBody,
  response: webhookSchema,
  status: 201,
  errors: ['webhookUrlInvalida', 'webhookUsuarioSemSenha', 'webhookSenhaSemUsuario', 'webhookOperacaoIndisponivel', 'recursoDuplicado'],
});

export const updateWebhook = defineContract({
  id: 'clientes.updateWebhook',
  context: 'clientes',
  method: 'PUT',
  path: '/api/v1/webhook-cliente',
  summary: 'Altera uma configuração de monitoramento (senha ausente mantém a atual).',
  access: ['sefaz_admin', 'cliente'],
  body: webhookBody.extend({ id: z.string().min(1).max(64) }),
  response: webhookSchema,
  errors: ['recursoNaoEncontrado', 'webhookUrlInvalida', 'webhookUsuarioSemSenha', 'webhookSenhaSemUsuario'],
});

export const deleteWebhook = defineContract({
  id: 'clientes.deleteWebhook',
  context: 'clientes',
  method: 'DELETE',
  // The id in the query (issue 29 item 2): `/webhook-cliente/{id}` was the same path template as the
  // list's `/webhook-cliente/{cnpj}` (Redocly no-identical-paths); the configuration is the resource
  // of `/webhook-cliente`, which POST creates and PUT changes.
  path: '/api/v1/webhook-cliente',
  summary: 'Remove uma configuração (a operação fica disponível de novo).',
  access: ['sefaz_admin', 'cliente'],
  // The example is made up (<client id>.<kind>): 'demo-imf.3' named the demo IMF's TRANSPORTE_FAT
  // configuration, a real record of the twin that an administrator trying the example would remove.
  query: z.object({ id: z.string().min(1).max(64).meta({ title: 'configuração', description: 'O id da configuração (da lista do cliente).', example: 'c0a8012e-5b7d-4c1e-9f3a-2d6e8b4f7a19.3' }) }),
  response: messageResponse,
  errors: ['recursoNaoEncontrado'],
});
