import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand } from '../platform/aws-direto/s3';
import { ROLE_LABELS, type Principal, type Role } from '@plac/shared/access';
import { foldText, normalizeCpf } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { clienteResumo, type ClienteResumo } from '../clientes';
import { closeSessionsOf, updateSessionsOf } from '../platform/auth/sessions';
import { s3Client } from '../platform/aws';
import { config } from '../platform/env';
import { badRequest, conflict, forbidden, HttpError, invalid, notFound } from '../platform/errors';
import { checkedImage, decodeBase64Payload } from '../platform/uploads';
import { escapeHtml, portalUrl, sendMail } from '../platform/mail';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import { hashPassword } from '../platform/passwords';
import { consumeToken, issueToken, WELCOME_HOURS } from './password-tokens';
import { assertEmailChangeable, checkCurrentPassword, notifyPasswordChange, requestEmailChange } from './login-changes';
import { foreignRole, rolesForClient, rolesList } from './rules';
import { findByEmail, principalOf, sessionUser } from './sessao';
import * as store from './store';
import type { UserRecord } from './store';

export { findByEmail, principalOf, sessionUser } from './sessao';

export { rolesList };
/** The user as other contexts receive it (they read users through this service, never the store). */
export type { UserRecord };

const AVATAR_MAX_BYTES = 3 * 1024 * 1024;

export interface UserInput {
  name: string;
  email: string;
  cpf?: string;
  telefone?: string | undefined;
  tipo_usuario: 'C' | 'S';
  roles: Role[];
  uf?: string | undefined;
  cliente_id?: string | undefined;
  situacao?: 'A' | 'I';
}

// ---- reading -------------------------------------------------------------------------------------

/** A client's summary as a user view names it; a page of users passes one lookup for all its rows. */
type ResumoDoCliente = (clienteId: string) => Promise<ClienteResumo | null>;

export async function userView(u: UserRecord, resumoDoCliente: ResumoDoCliente = clienteResumo) {
  const cliente = u.clienteId ? await resumoDoCliente(u.clienteId) : null;
  return {
    id: u.userId,
    name: u.name,
    email: u.email,
    cpf: u.cpf,
    telefone: u.telefone ?? null,
    situacao: u.situacao,
    tipo_usuario: u.tipo,
    roles: (u.roles as Role[]).map((slug) => ({ slug, label: ROLE_LABELS[slug] })),
    uf: u.uf ?? null,
    cliente_id: u.clienteId ?? null,
    cliente: cliente ? { id: cliente.id, cnpj: cliente.cnpj, razao_social: cliente.razao_social } : null,
    created_at: u.createdAt,
    updated_at: u.updatedAt,
    updated_by: u.updatedBy ?? null,
  };
}

export interface UserFilter {
  cpf?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
  situacao?: 'A' | 'I' | undefined;
  tipo?: 'C' | 'S' | undefined;
  notUsers?: string | undefined;
  cursor?: string | undefined;
  perPage: number;
}

/**
 * The user list (Sefaz and client users; never the issuers), one page at a time in name order from the
 * caller's cursor (store.paginaDeUsuarios). The filters are parts of a name, e-mail or CPF (contains,
 * accent-insensitive), which no key holds: they are applied to what each bounded round reads.
 */
export async function list(filter: UserFilter, principal: Principal) {
  const excluded = new Set((filter.notUsers ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const name = filter.name ? foldText(filter.name) : '';
  const email = filter.email?.toLowerCase() ?? '';
  const cpf = filter.cpf ? normalizeCpf(filter.cpf) : '';
  const aceita = (u: UserRecord) =>
    !excluded.has(u.userId) &&
    (!name || u.nameFolded.includes(name)) &&
    (!email || u.email.includes(email)) &&
    (!cpf || u.cpf.includes(cpf)) &&
    (!filter.situacao || u.situacao === filter.situacao) &&
    (!filter.tipo || u.tipo === filter.tipo);
  const vinculo = vinculoDoCursor(principal, 'users.list', { name, email, cpf, situacao: filter.situacao, tipo: filter.tipo, notUsers: [...excluded].sort().join(','), perPage: filter.perPage });
  const pagina = await paginaComCursor(vinculo, filter.cursor, (posicao) => store.paginaDeUsuarios({ perPage: filter.perPage, posicao, aceita }));
  // A page's users are mostly of a few clients: each client is read once for the page, not once per row.
  const resumos = new Map<string, Promise<ClienteResumo | null>>();
  const resumoDoCliente: ResumoDoCliente = (clienteId) => {
    let resumo = resumos.get(clienteId);
    if (!resumo) resumos.set(clienteId, (resumo = clienteResumo(clienteId)));
    return resumo;
  };
  return { ...pagina, items: await Promise.all(pagina.items.map((u) => userView(u, resumoDoCliente))) };
}

export async function get(id: string) {
  const u = await store.findUser(id);
  if (!u) throw notFound();
  return userView(u);
}

// ---- administration ------------------------------------------------------------------------------

/** The type's rules: roles it may hold, UF for Sefaz users, a client for client users. */
async function checked(input: UserInput): Promise<Pick<UserRecord, 'roles' | 'uf' | 'clienteId'>> {
  const wrong = foreignRole(input.tipo_usuario, input.roles);
  if (wrong) throw badRequest({ roles: [message('permissaoIncompativel', { role: ROLE_LABELS[wrong] })] });
  if (input.tipo_usuario === 'S') {
    if (!input.uf) throw badRequest({ uf: [message('campoObrigatorio', { field: 'UF' })] });
    return { roles: [...new Set(input.roles)], uf: input.uf, clienteId: undefined };
  }
  if (!input.cliente_id) throw badRequest({ cliente_id: [message('clienteObrigatorio')] });
  const cliente = await clienteResumo(input.cliente_id);
  if (!cliente) throw badRequest({ cliente_id: [message('recursoNaoEncontrado')] });
  return { roles: rolesForClient(input.roles, cliente.situacao), uf: undefined, clienteId: cliente.id };
}

export async function create(input: UserInput, by: Principal, options: { notify?: boolean } = {}) {
  const rules = await checked(input);
  const now = new Date().toISOString();
  const record: UserRecord = {
    userId: randomUUID(),
    name: input.name,
    nameFolded: foldText(input.name),
    email: input.email,
    cpf: normalizeCpf(input.cpf ?? ''),
    telefone: input.telefone || undefined,
    situacao: 'A',
    tipo: input.tipo_usuario,
    ...rules,
    createdAt: now,
    updatedAt: now,
    updatedBy: by.name,
  };
  await store.createUser(record);
  if (options.notify !== false) await sendWelcome(record);
  return userView(record);
}

export async function update(id: string, input: UserInput, by: Principal) {
  const before = await store.findUser(id);
  if (!before) throw notFound();
  const rules = await checked(input);
  const after: UserRecord = {
    ...before,
    name: input.name,
    nameFolded: foldText(input.name),
    email: input.email,
    telefone: input.telefone || undefined,
    situacao: input.situacao ?? before.situacao,
    tipo: input.tipo_usuario,
    ...rules,
    updatedAt: new Date().toISOString(),
    updatedBy: by.name,
  };
  await store.updateUser(before, after);
  // Roles, client, UF and status take effect on the user's next request, not at the next login.
  if (after.situacao === 'I') await closeSessionsOf(id);
  else await updateSessionsOf(principalOf(after));
  return userView(after);
}

export async function remove(id: string, by: Principal) {
  if (id === by.userId) throw forbidden('removerProprioUsuario');
  const before = await store.findUser(id);
  if (!before) throw notFound();
  await store.deleteUser(before, by.name);
  await closeSessionsOf(id);
  return { message: message('remocaoRealizada') };
}

// ---- the signed-in user --------------------------------------------------------------------------

export async function profile(principal: Principal) {
  const u = await store.findUser(principal.userId);
  if (!u) throw notFound('dadosNaoEncontrados');
  return sessionUser(u);
}

export interface ProfileInput {
  name: string;
  email: string;
  password?: string | undefined;
  current_password?: string | undefined;
  image?: string | null | undefined;
}

/**
 * The signed-in user's own profile. Name and avatar change at once; a new e-mail waits for its
 * confirmation link and a new password takes effect at once, both only with the current password
 * (login-changes.ts). `sid` is the caller's session, which a password change keeps.
 */
export async function updateProfile(principal: Principal, input: ProfileInput, sid: string | null) {
  const before = await store.findUser(principal.userId);
  if (!before) throw notFound('dadosNaoEncontrados');
  const current = await sessionUser(before);
  if (input.password && !current.podeAlterarSenha) throw badRequest({ password: [message('senhaNaoAlteravel')] });
  const novoEmail = input.email !== before.email ? input.email : undefined;
  if (novoEmail) assertEmailChangeable(before);
  if (novoEmail || input.password) await checkCurrentPassword(before, input.current_password);
  if (novoEmail && (await store.findUserIdByEmail(novoEmail))) throw conflict('recursoDuplicado', ['email']);
  let imageKey = before.imageKey;
  if (input.image === null) imageKey = undefined;
  if (input.image) imageKey = await storeAvatar(before.userId, input.image);
  const after: UserRecord = {
    ...before,
    name: input.name,
    nameFolded: foldText(input.name),
    ...(novoEmail ? { emailPendente: novoEmail } : {}),
    ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
    imageKey,
    updatedAt: new Date().toISOString(),
    updatedBy: principal.name,
  };
  await store.updateUser(before, after);
  if (before.name !== after.name) await updateSessionsOf(principalOf(after));
  if (novoEmail) await requestEmailChange(after, novoEmail);
  if (input.password) {
    await closeSessionsOf(before.userId, sid);
    await notifyPasswordChange(after);
  }
  if (before.imageKey && before.imageKey !== imageKey) {
    await s3Client().send(new DeleteObjectCommand({ Bucket: config.documentsBucket, Key: before.imageKey }));
  }
  return sessionUser(after);
}


/** The avatar: png or jpeg of at most 3 MB, checked by decoding it; the re-encoded image is stored. */
async function storeAvatar(userId: string, payload: string): Promise<string> {
  const bytes = decodeBase64Payload(payload);
  if (!bytes) throw badRequest({ image: [message('imagemTipoInvalido')] });
  if (bytes.length > AVATAR_MAX_BYTES) {
    const size = (bytes.length / (1024 * 1024)).toFixed(1).replace('.', ',');
    throw badRequest({ image: [message('imagemGrandeDemais', { size })] });
  }
  const image = await checkedImage(bytes);
  if (!image) throw badRequest({ image: [message('imagemTipoInvalido')] });
  const key = `avatars/${userId}/${randomUUID()}.${image.type === 'image/png' ? 'png' : 'jpg'}`;
  await s3Client().send(
    new PutObjectCommand({ Bucket: config.documentsBucket, Key: key, Body: image.bytes, ContentType: image.type, ContentDisposition: 'inline' }),
  );
  return key;
}

// ---- passwords -----------------------------------------------------------------------------------

async function sendWelcome(u: UserRecord) {
  const token = await issueToken(u.userId, u.email, 'welcome');
  const link = portalUrl(`/password/reset/${token}`);
  await sendMail({
    to: [u.email],
    subject: 'PLAC Fat-e: defina sua senha',
    text: `Olá, ${u.name}.\n\nSeu usuário na PLAC Fat-e foi criado. Defina sua senha em:\n${link}\n\nO link vale por ${WELCOME_HOURS} horas.`,
    html: `<p>Olá, ${escapeHtml(u.name)}.</p><p>Seu usuário na PLAC Fat-e foi criado. <a href="${escapeHtml(link)}">Defina sua senha</a>.</p><p>O link vale por ${WELCOME_HOURS} horas.</p>`,
  });
}

/** A released client's users get the link to set their password (unlocking a client e-mails its users). */
export async function sendAccessEmails(clienteId: string): Promise<number> {
  const users = (await store.usersOfCliente(clienteId)).filter((u) => u.situacao === 'A');
  for (const u of users) await sendWelcome(u);
  return users.length;
}

/** Always the same answer, whether the e-mail exists or not (no account discovery). */
export async function requestPasswordReset(email: string) {
  const u = await findByEmail(email);
  if (u && u.situacao === 'A' && !(u.roles as Role[]).includes('emissor')) {
    const token = await issueToken(u.userId, u.email, 'reset');
    const link = portalUrl(`/password/reset/${token}`);
    await sendMail({
      to: [u.email],
      subject: 'PLAC Fat-e: redefinição de senha',
      text: `Olá, ${u.name}.\n\nPara redefinir sua senha, acesse:\n${link}\n\nO link vale por 60 minutos e pode ser usado uma vez. Se você não pediu a redefinição, ignore esta mensagem.`,
      html: `<p>Olá, ${escapeHtml(u.name)}.</p><p>Para redefinir sua senha, <a href="${escapeHtml(link)}">clique aqui</a>.</p><p>O link vale por 60 minutos e pode ser usado uma vez. Se você não pediu a redefinição, ignore esta mensagem.</p>`,
    });
  }
  return { message: message('senhaLinkEnviado') };
}

export async function resetPassword(email: string, token: string, password: string) {
  const userId = await consumeToken(token, email);
  const before = userId ? await store.findUser(userId) : null;
  if (!before || before.email !== email) throw invalid('senhaReinicioFalhou');
  const after: UserRecord = { ...before, passwordHash: await hashPassword(password), updatedAt: new Date().toISOString(), updatedBy: before.name };
  await store.updateUser(before, after);
  await closeSessionsOf(before.userId);
  return { message: message('senhaReiniciada') };
}

// ---- issuers -------------------------------------------------------------------------------------

/** An issuer's user is made from its certificate at its first login (issuers log in by certificate only). */
export async function ensureIssuer(cnpj: string, razaoSocial: string): Promise<UserRecord> {
  const email = `emissor+${cnpj.toLowerCase()}@certificado.plac`;
  const existing = await findByEmail(email);
  if (existing) return existing;
  const now = new Date().toISOString();
  const record: UserRecord = {
    userId: `emissor-${cnpj}`,
    name: razaoSocial,
    nameFolded: foldText(razaoSocial),
    email,
    cpf: '',
    situacao: 'A',
    tipo: 'C',
    roles: ['emissor'],
    cnpj,
    createdAt: now,
    updatedAt: now,
    updatedBy: 'certificado digital',
  };
  try {
    await store.createUser(record);
  } catch (error) {
    // Two first logins at once: the other one created it.
    if (!(error instanceof HttpError && error.status === 409)) throw error;
    return (await findByEmail(email))!;
  }
  return record;
}

