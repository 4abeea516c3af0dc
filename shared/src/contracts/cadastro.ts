import * as z from 'zod';
import { message } from '../messages';
import { cnpjSchema } from '../domain/cnpj';
import { endereco, clienteId } from './clientes';
import { messageResponse } from './common';
import { defineContract } from './define';

/**
 * A client's onboarding (spec 1, "Cadastro de Cliente"; spec 2, "Liberar"): the public registration,
 * behind its captcha, creates the client as Novo with its responsible person as its first user; the
 * Sefaz administrator's unlock makes it Ativo and e-mails its users their access. Served by its own
 * function (functions/cadastro), which composes the clients and users contexts: the only public write
 * of the portal runs apart from the administration's routes.
 */

export const captchaChallenge = defineContract({
  id: 'cadastro.captcha',
  context: 'cadastro',
  method: 'GET',
  path: '/api/v1/captcha',
  summary: 'Desafio do captcha (prova de trabalho ALTCHA) do cadastro público.',
  access: 'public',
  // ALTCHA v2 challenge: key-derivation parameters and the server's HMAC signature.
  response: z.looseObject({ parameters: z.record(z.string(), z.unknown()), signature: z.string().optional() }),
  errors: [],
});

export const registerCliente = defineContract({
  id: 'cadastro.register',
  context: 'cadastro',
  method: 'POST',
  path: '/api/v1/cliente',
  summary: 'Cadastro público de cliente (ESF ou IMF), criado como Novo com o seu primeiro usuário.',
  access: 'public',
  body: z
    .object({
      cnpj: cnpjSchema,
      ...endereco,
      tipo_cliente: z.enum(['ESF', 'IMF'], { error: message('tipoCadastroInvalido') }),
      confirmacao_email: z.string().trim().toLowerCase(),
      recaptcha: z.string().min(1, { error: message('captchaInvalido') }).max(4000),
    })
    .refine((b) => b.email === b.confirmacao_email, { error: message('confirmacaoEmail'), path: ['confirmacao_email'] }),
  response: messageResponse,
  status: 201,
  errors: ['recursoDuplicado', 'captchaInvalido'],
});

export const liberarCliente = defineContract({
  id: 'cadastro.liberar',
  context: 'cadastro',
  method: 'PUT',
  path: '/api/v1/cliente/{id}/liberar',
  summary: 'Libera um cliente Novo: passa a Ativo e os seus usuários recebem o e-mail de acesso.',
  access: ['sefaz_admin'],
  params: clienteId,
  response: messageResponse,
  errors: ['recursoNaoEncontrado', 'clienteNaoNovo'],
});
