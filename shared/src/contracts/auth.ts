import * as z from 'zod';
import { message } from '../messages';
import { defineContract } from './define';
import { emailSchema, isoDateTime, loginPasswordSchema, messageResponse, newPasswordSchema, roleSchema } from './common';

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
  /** A Sefaz user who logged in by password without the second factor: the portal opens the profile to enrol it (issue 42). */
  segundoFatorObrigatorio: z.boolean().optional(),
});

const sessionResponse = z.object({ user: sessionUserSchema, token: z.string() });
/**
 * A password login of a user with the second factor active (issue 42) answers no session yet: the
 * challenge that `POST /authenticate/segundo-fator` answers with the app's code, within five minutes.
 */
export const desafioSchema = z.object({
  segundoFator: z.object({ desafio: z.string().meta({ description: 'Uso único; válido até expiraEm.' }), expiraEm: isoDateTime }),
});
const loginResponse = z.union([sessionResponse, desafioSchema]);

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
  response: sessionResponse,
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
  response: sessionResponse,
  errors: [...certificateErrors, 'usuarioInativo'],
});

const codigoSchema = z.string().trim().min(1).max(20).meta({ title: 'Código', description: '6 dígitos do aplicativo autenticador, ou um código de recuperação (XXXXX-XXXXX).', example: '123456' });

/** The second step of a password login whose user has the second factor active. */
export const loginSegundoFator = defineContract({
  id: 'auth.loginSegundoFator',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/authenticate/segundo-fator',
  summary: 'Segunda etapa do login por senha: o código do aplicativo autenticador (ou um código de recuperação, de uso único) para o desafio recebido. Cinco códigos inválidos bloqueiam a etapa por 15 minutos.',
  access: 'public',
  body: z.object({ desafio: z.string().min(20).max(100), codigo: codigoSchema }),
  response: sessionResponse,
  errors: ['codigoInvalido', 'codigoJaUtilizado', 'desafioExpirado', 'segundoFatorBloqueado', 'usuarioInativo', 'prazoSemCertificadoEncerrado', ...clientStateErrors],
});

const situacaoFatorSchema = z.object({
  /** Password users may have one; issuers (certificate only) may not. */
  permitido: z.boolean(),
  ativo: z.boolean(),
  ativadoEm: isoDateTime.nullable(),
  codigosRestantes: z.number().int(),
});

export const segundoFator = defineContract({
  id: 'auth.segundoFator',
  context: 'auth',
  method: 'GET',
  path: '/api/v1/profile/segundo-fator',
  summary: 'Situação da verificação em duas etapas do usuário autenticado.',
  access: 'authenticated',
  response: situacaoFatorSchema,
  errors: [],
  paraCadastroSegundoFator: true,
});

export const iniciarSegundoFator = defineContract({
  id: 'auth.iniciarSegundoFator',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/profile/segundo-fator',
  summary: 'Inicia o cadastro da verificação em duas etapas (pede a senha atual): um novo segredo, como QR code, URI otpauth e texto base32. O fator ativo continua valendo até o novo ser confirmado.',
  access: 'authenticated',
  body: z.object({ senha: loginPasswordSchema.meta({ title: 'Senha atual' }) }),
  response: z.object({ segredo: z.string(), otpauthUrl: z.string(), qrCode: z.string().meta({ description: 'data:image/svg+xml;base64,…' }) }),
  errors: ['segundoFatorNaoPermitido', 'dadosNaoEncontrados'],
  paraCadastroSegundoFator: true,
});

export const confirmarSegundoFator = defineContract({
  id: 'auth.confirmarSegundoFator',
  context: 'auth',
  method: 'POST',
  path: '/api/v1/profile/segundo-fator/confirmacao',
  summary: 'Confirma o cadastro com o primeiro código do aplicativo e ativa a verificação em duas etapas; responde, uma única vez, os 10 códigos de recuperação.',
  access: 'authenticated',
  body: z.object({ codigo: codigoSchema }),
  response: z.object({ codigosRecuperacao: z.array(z.string()), message: z.string() }),
  errors: ['segundoFatorSemCadastro', 'dadosNaoEncontrados'],
  paraCadastroSegundoFator: true,
});

const idUsuario = z.object({ id: z.string().min(1).max(64) });

export const segundoFatorDoUsuario = defineContract({
  id: 'auth.segundoFatorDoUsuario',
  context: 'auth',
  method: 'GET',
  path: '/api/v1/users/{id}/segundo-fator',
  summary: 'Situação da verificação em duas etapas de um usuário, com a sua auditoria (cadastro, códigos de recuperação usados, redefinições).',
  access: ['sefaz_admin'],
  params: idUsuario,
  response: situacaoFatorSchema.extend({
    historico: z.array(z.object({ acao: z.enum(['CADASTRADO', 'RECUPERACAO_USADA', 'REDEFINIDO']), em: isoDateTime, por: z.string() })),
  }),
  errors: ['dadosNaoEncontrados'],
});

export const redefinirSegundoFator = defineContract({
  id: 'auth.redefinirSegundoFator',
  context: 'auth',
  method: 'DELETE',
  path: '/api/v1/users/{id}/segundo-fator',
  summary: 'Redefine (remove) a verificação em duas etapas de um usuário que perdeu o aplicativo; fica na auditoria e encerra as sessões do usuário.',
  access: ['sefaz_admin'],
  params: idUsuario,
  response: messageResponse,
  errors: ['segundoFatorInativo', 'dadosNaoEncontrados'],
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
  paraCadastroSegundoFator: true,
});
