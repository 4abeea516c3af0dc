import * as z from 'zod';
import { message } from '../messages';
import { cpfSchema } from '../domain/cpf';
import { sessionUserSchema } from './auth';
import { cursorPageOf, cursorQuery, emailSchema, isoDateTime, newPasswordSchema, roleSchema, ufSchema } from './common';
import { defineContract } from './define';

/** The profile of the signed-in user and the administration of users (list, form, roles, removal). */

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  cpf: z.string(),
  telefone: z.string().nullable(),
  situacao: z.enum(['A', 'I']),
  tipo_usuario: z.enum(['C', 'S']),
  roles: z.array(z.object({ slug: roleSchema, label: z.string() })),
  uf: z.string().nullable(),
  cliente_id: z.string().nullable(),
  cliente: z.object({ id: z.string(), cnpj: z.string(), razao_social: z.string() }).nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  updated_by: z.string().nullable(),
});

const userBody = z.object({
  name: z.string().trim().min(1).max(100).meta({ title: 'Nome' }),
  email: emailSchema,
  cpf: cpfSchema,
  telefone: z.string().trim().max(20).optional(),
  tipo_usuario: z.enum(['C', 'S']),
  roles: z.array(roleSchema).min(1, { error: message('permissaoObrigatoria') }),
  uf: ufSchema.optional(),
  cliente_id: z.string().min(1).optional(),
});

const id = z.object({ id: z.string().min(1).max(64) });

export const profile = defineContract({
  id: 'users.profile',
  context: 'users',
  method: 'GET',
  path: '/api/v1/profile',
  summary: 'Dados do usuário autenticado.',
  access: 'authenticated',
  response: sessionUserSchema,
  errors: [],
  paraCadastroSegundoFator: true,
});

export const updateProfile = defineContract({
  id: 'users.updateProfile',
  context: 'users',
  method: 'PUT',
  path: '/api/v1/profile',
  summary:
    'Altera nome e avatar (png ou jpeg até 3 MB, em base64); e-mail e senha (quando permitida) pedem a senha atual. O novo e-mail só vale depois de confirmado pelo link enviado a ele; o endereço antigo é avisado. A troca de senha é avisada por e-mail e encerra as outras sessões.',
  access: 'authenticated',
  body: z
    .object({
      name: z.string().trim().min(1).max(100).meta({ title: 'Nome' }),
      email: emailSchema,
      password: newPasswordSchema.optional(),
      password_confirmation: z.string().optional(),
      /** Needed to change the e-mail or the password. */
      current_password: z.string().max(100).optional(),
      /** data:image/png;base64,… or the bare base64; null removes the avatar; absent keeps it. */
      image: z.string().max(5_000_000).nullable().optional(),
    })
    .refine((b) => !b.password || b.password === b.password_confirmation, {
      error: message('senhaConfirmacao'),
      path: ['password_confirmation'],
    }),
  response: sessionUserSchema,
  errors: ['recursoDuplicado', 'senhaNaoAlteravel', 'senhaAtualObrigatoria', 'senhaAtualIncorreta', 'emailNaoAlteravel', 'imagemTipoInvalido', 'imagemGrandeDemais'],
  paraCadastroSegundoFator: true,
});

export const confirmEmail = defineContract({
  id: 'users.confirmEmail',
  context: 'users',
  method: 'POST',
  path: '/api/v1/profile/email/confirmacao',
  summary: 'Confirma o novo e-mail de acesso com o token do link enviado a ele; encerra as sessões do usuário e avisa o endereço antigo.',
  access: 'public',
  body: z.object({ token: z.string().min(1).max(200) }),
  response: z.object({ message: z.string() }),
  errors: ['emailConfirmacaoInvalida', 'recursoDuplicado'],
});

export const listUsers = defineContract({
  id: 'users.list',
  context: 'users',
  method: 'GET',
  path: '/api/v1/users',
  summary:
    'Usuários (Sefaz e clientes) em ordem de nome, com os filtros da tela user-list, uma página por vez (nextCursor → cursor); ' +
    'notUsers exclui ids (separados por vírgula).',
  access: ['sefaz_admin'],
  query: z.object({
    cpf: z.string().trim().max(14).optional(),
    name: z.string().trim().max(100).optional(),
    email: z.string().trim().max(100).optional(),
    situacao: z.enum(['A', 'I']).optional(),
    tipo: z.enum(['C', 'S']).optional(),
    notUsers: z.string().max(4000).optional(),
    ...cursorQuery(25),
  }),
  response: cursorPageOf(userSchema),
  errors: ['cursorInvalido'],
});

export const getUser = defineContract({
  id: 'users.get',
  context: 'users',
  method: 'GET',
  path: '/api/v1/users/{id}',
  summary: 'Um usuário.',
  access: ['sefaz_admin'],
  params: id,
  response: userSchema,
  errors: ['recursoNaoEncontrado'],
});

export const createUser = defineContract({
  id: 'users.create',
  context: 'users',
  method: 'POST',
  path: '/api/v1/users',
  summary: 'Cadastra um usuário e envia por e-mail o link para definir a senha.',
  access: ['sefaz_admin'],
  body: userBody,
  response: userSchema,
  status: 201,
  errors: ['recursoDuplicado', 'clienteObrigatorio', 'permissaoIncompativel'],
});

export const updateUser = defineContract({
  id: 'users.update',
  context: 'users',
  method: 'PUT',
  path: '/api/v1/users/{id}',
  summary: 'Altera um usuário (o CPF não muda; a situação só na edição).',
  access: ['sefaz_admin'],
  params: id,
  body: userBody.omit({ cpf: true }).extend({ situacao: z.enum(['A', 'I']) }),
  response: userSchema,
  errors: ['recursoNaoEncontrado', 'recursoDuplicado', 'clienteObrigatorio', 'permissaoIncompativel'],
});

export const deleteUser = defineContract({
  id: 'users.delete',
  context: 'users',
  method: 'DELETE',
  path: '/api/v1/users/{id}',
  summary: 'Remove um usuário (não o próprio).',
  access: ['sefaz_admin'],
  params: id,
  response: z.object({ message: z.string() }),
  errors: ['recursoNaoEncontrado', 'removerProprioUsuario'],
});

export const listRoles = defineContract({
  id: 'users.roles',
  context: 'users',
  method: 'GET',
  path: '/api/v1/roles',
  summary: 'As permissões (perfis) e os seus rótulos.',
  access: ['sefaz_admin'],
  response: z.array(z.object({ slug: roleSchema, label: z.string(), tipo_usuario: z.enum(['C', 'S']) })),
  errors: [],
});
