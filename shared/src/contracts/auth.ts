import * as z from 'zod';
import { message } from '../messages';
import { defineContract } from './define';
import { emailSchema, loginPasswordSchema, messageResponse, newPasswordSchema, roleSchema } from './common';

/**
 * Logins, sessions and the password reset. Certificate logins are served
 * only on the mutual-TLS domain, where the client certificate travels with the request.
 */

/** The signed-in user as the portal keeps it in its session. */
export const sessionUserSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  tipo: z.enum(['S', 'C']),
  roles: z.array(roleSchema),
  clienteId: z.string().optional(),
  /** Client users: the company's razão social (what the portal shows for 'the own client'). */
  razaoSocial: z.string().optional(),
  uf: z.string().optional(),
  /** Issuers: the CNPJ of the certificate; clients: the company's CNPJ. */
  cnpj: z.string().optional(),
  /** Presigned URL of the avatar, valid for a few minutes. */
  image: z.string().nullable(),
  /** Client users: the last day of the period in which a password login is allowed (YYYY-MM-DD). */
  prazoSemCertificado: z.string().nullable(),
  /** Sefaz users, and client users inside their period without certificate; never issuers. */
  podeAlterarSenha: z.boolean(),
  /** A new login e-mail waiting for the link sent to it; `email` logs in until then. */
  emailPendente: z.string().nullable().optional(),
});

const loginResponse = z.object({ user: sessionUserSchema, token: z.string() });

const loginErrors = ['credenciaisInvalidas', 'usuarioInativo', 'loginBloqueado'] as const;
const clientStateErrors = ['clienteDescredenciado', 'clienteSuspenso', 'clienteCancelado', 'clienteNaoLiberado', 'clienteDesativado'] as const;
const certificateErrors = ['certificadoAusente', 'certificadoInvalido', 'raizNaoIcpBrasil', 'certificadoRevogado', 'revogacaoIndisponivel', 'dadosNaoEncontrados'] as const;

export const loginSefaz = defineContract({
  id: 'auth.loginSefaz',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/authenticate/sefaz',
  summary: 'Login de usuário da Sefaz por e-mail e senha.',
  access: 'public',
  body: z.object({ email: emailSchema, password: loginPasswordSchema }),
  response: loginResponse,
  errors: [...loginErrors],
});

export const clientLoginType = defineContract({
  id: 'auth.clientLoginType',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/authenticate/client/type',
  summary: 'Como o cliente entra: 209 por certificado digital, 210 por senha (dentro do prazo sem certificado).',
  access: 'public',
  body: z.object({ email: emailSchema }),
  response: z.object({ tipo: z.enum(['certificado', 'senha']) }),
  status: 209,
  alsoStatus: [210],
  errors: ['muitasRequisicoes'],
});

export const loginCliente = defineContract({
  id: 'auth.loginCliente',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/authenticate/cliente',
  summary: 'Login de usuário de cliente por senha, permitido apenas no prazo sem certificado digital.',
  access: 'public',
  body: z.object({ email: emailSchema, password: loginPasswordSchema }),
  response: loginResponse,
  errors: [...loginErrors, 'prazoSemCertificadoEncerrado', ...clientStateErrors],
});

export const loginCertificadoCliente = defineContract({
  id: 'auth.loginCertificadoCliente',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/authenticate/certificate/cliente',
  summary: 'Login de usuário de cliente com o e-CNPJ ICP-Brasil da empresa (domínio com TLS mútuo).',
  access: 'public',
  channel: 'mtls',
  body: z.object({ email: emailSchema }),
  response: loginResponse,
  errors: [...certificateErrors, 'usuarioInativo', 'loginBloqueado', ...clientStateErrors],
});

export const loginCertificadoEmissor = defineContract({
  id: 'auth.loginCertificadoEmissor',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/authenticate/certificate/emissor',
  summary: 'Login do emissor com o seu e-CNPJ ICP-Brasil (domínio com TLS mútuo).',
  access: 'public',
  channel: 'mtls',
  response: loginResponse,
  errors: [...certificateErrors, 'usuarioInativo'],
});

export const passwordEmail = defineContract({
  id: 'auth.passwordEmail',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/password/email',
  summary: 'Envia o link de redefinição de senha (a resposta é a mesma exista ou não o e-mail).',
  access: 'public',
  body: z.object({ email: emailSchema }),
  response: messageResponse,
  errors: ['muitasRequisicoes'],
});

export const passwordReset = defineContract({
  id: 'auth.passwordReset',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/password/reset',
  summary: 'Redefine a senha com o token recebido por e-mail (uso único, validade curta).',
  access: 'public',
  body: z
    .object({ email: emailSchema, password: newPasswordSchema, password_confirmation: z.string(), token: z.string().min(20).max(200) })
    .refine((b) => b.password === b.password_confirmation, { error: message('senhaConfirmacao'), path: ['password_confirmation'] }),
  response: messageResponse,
  errors: ['senhaReinicioFalhou'],
});

export const logout = defineContract({
  id: 'auth.logout',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/logout',
  summary: 'Encerra a sessão do token apresentado.',
  access: 'authenticated',
  channel: 'both',
  response: messageResponse,
  errors: [],
});
