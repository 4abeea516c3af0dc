import { cnpjBase, dentroDoPrazo, todayInBahia } from '@plac/shared/domain';
import { message, type MessageKey } from '@plac/shared/messages';
import { clienteResumo, type ClienteResumo } from '../clientes/direto';
import { closeSession, openSession, TOKEN_TTL_SECONDS } from '../platform/auth/sessions';
import { signToken } from '../platform/auth/tokens';
import { HttpError } from '../platform/errors';
import { logger } from '../platform/observability';
import { consume, inConstantTime, type Quota } from '../platform/rate-limit';
import { needsRehash, verifyPassword } from '../platform/passwords';
import * as users from '../users/direto';
import type { UserRecord } from '../users/direto';
import { clearFailures, delayFor, lockedFor, recordFailure, type Subject } from './attempts';
import { certificadoDoChamador } from './certificado-do-chamador';
import { desafiar } from './desafio';

/**
 * What a password login runs is read and written without the table layer (the direct doors, issue 39):
 * its cold start does not load ElectroDB. The rarer steps load their modules, with it, on first use:
 * the second factor's code step, the reset e-mail, an issuer's first certificate login.
 */
const segundoFator = () => import('./segundo-fator');
const usuarios = () => import('../users');

/**
 * The login flows: Sefaz users by password; client users by password while their company's period
 * without certificate runs, else by certificate; issuers by certificate only. Every success opens a
 * server-side session.
 */

const fail = (status: number, key: MessageKey) => new HttpError(status, key);

/** Client states that may not log in, each with its own message. */
const BLOCKED: Partial<Record<ClienteResumo['situacao'], MessageKey>> = {
  D: 'clienteDescredenciado',
  S: 'clienteSuspenso',
  C: 'clienteCancelado',
  N: 'clienteNaoLiberado',
  I: 'clienteDesativado',
};

const isIssuer = (u: UserRecord) => u.roles.includes('emissor');

/**
 * Opens the session of a login. `cadastroSegundoFator`: a Sefaz user's password login without the
 * second factor, whose session reaches only the enrolment until it is done (issue 42).
 */
async function session(u: UserRecord, cliente?: ClienteResumo | null, cadastroSegundoFator = false) {
  const principal = { ...users.principalOf(u), ...(cadastroSegundoFator ? { cadastroSegundoFator: true } : {}) };
  const sid = await openSession(principal);
  const token = await signToken(principal, sid, TOKEN_TTL_SECONDS);
  return { user: { ...(await users.sessionUser(u, cliente)), ...(cadastroSegundoFator ? { segundoFatorObrigatorio: true } : {}) }, token };
}

/**
 * Refuses locked subjects before any password work, and counts and slows down failures. The user is
 * read while the locks are (both reads: one round trip less per login), and used only once they let
 * the attempt go on.
 */
async function guarded<T>(email: string, sourceIp: string, attempt: (usuario: UserRecord | null) => Promise<T>): Promise<T> {
  const subjects: Subject[] = [
    { kind: 'account', value: email },
    { kind: 'address', value: sourceIp },
  ];
  const usuario = users.findByEmail(email);
  // A lock refuses first; the read's failure, if any, is then no one's to handle.
  usuario.catch(() => undefined);
  if (await lockedFor(subjects)) throw fail(429, 'loginBloqueado');
  try {
    const result = await attempt(await usuario);
    await clearFailures(subjects[0]!);
    return result;
  } catch (error) {
    if (error instanceof HttpError && error.key === 'credenciaisInvalidas') {
      const failures = await recordFailure(subjects);
      logger.warn('login failed', { failures });
      await new Promise((resolve) => setTimeout(resolve, delayFor(failures)));
    }
    throw error;
  }
}

/**
 * The password checked against the candidate's hash (an unknown e-mail costs the same hash: see
 * verifyPassword). Right, and stored at older parameters: the hash is stored again at today's
 * (users' renewPasswordHash, loaded then: once per user). A renewal that fails does not refuse the
 * login: the old hash still holds, and the next login tries again.
 */
async function senhaConfere(password: string, candidate: UserRecord | null): Promise<boolean> {
  if (!(await verifyPassword(password, candidate?.passwordHash)) || !candidate) return false;
  if (needsRehash(candidate.passwordHash)) {
    await (await usuarios()).renewPasswordHash(candidate, password).catch((error: unknown) => {
      logger.warn('password hash not renewed', { error: error instanceof Error ? error.message : String(error) });
    });
  }
  return true;
}

export async function loginSefaz(email: string, password: string, sourceIp: string) {
  return guarded(email, sourceIp, async (u) => {
    const candidate = u?.tipo === 'S' ? u : null;
    if (!(await senhaConfere(password, candidate)) || !candidate) throw fail(401, 'credenciaisInvalidas');
    if (candidate.situacao !== 'A') throw fail(403, 'usuarioInativo');
    // With a second factor, the password opens no session: the code step does. Without one, the
    // Sefaz's users must enrol it: the session reaches the enrolment only (issue 42).
    return (await desafiar(candidate, 'sefaz')) ?? session(candidate, null, true);
  });
}

async function clientOf(u: UserRecord): Promise<ClienteResumo> {
  const cliente = u.clienteId ? await clienteResumo(u.clienteId) : null;
  if (!cliente) throw fail(404, 'dadosNaoEncontrados');
  const blocked = BLOCKED[cliente.situacao];
  if (blocked) throw fail(403, blocked);
  return cliente;
}

/**
 * Quotas of the two public routes that take an e-mail and answer without a password: enough for
 * a person who mistypes, far too few to flood a mailbox or to sweep a list of e-mails. An address
 * is shared by a whole office behind NAT, so its quota is larger than an e-mail's.
 */
export const QUOTAS = {
  passwordEmail: { perEmail: 3, perAddress: 20, windowSeconds: 15 * 60 },
  clientLoginType: { perEmail: 10, perAddress: 60, windowSeconds: 15 * 60 },
} as const;
/** Answer times that cover the slowest known-e-mail path (a reset e-mail sent; two reads). */
export const CONSTANT_MS = { passwordEmail: 800, clientLoginType: 250 } as const;

function quotas(route: keyof typeof QUOTAS, email: string, sourceIp: string): Quota[] {
  const q = QUOTAS[route];
  return [
    { name: `${route}:email`, value: email.toLowerCase(), limit: q.perEmail, windowSeconds: q.windowSeconds },
    { name: `${route}:address`, value: sourceIp, limit: q.perAddress, windowSeconds: q.windowSeconds },
  ];
}

/**
 * 210 (password) for a client user with a password whose company's period without certificate is
 * still running today; anything else 209 (certificate), unknown e-mails and clients whose period is
 * over included, so that they go straight to the certificate login.
 */
export async function clientLoginType(email: string, sourceIp: string): Promise<'certificado' | 'senha'> {
  await consume(quotas('clientLoginType', email, sourceIp));
  return inConstantTime(CONSTANT_MS.clientLoginType, async () => {
    const u = await users.findByEmail(email);
    if (!u || u.tipo !== 'C' || isIssuer(u) || !u.clienteId || !u.passwordHash) return 'certificado';
    const cliente = await clienteResumo(u.clienteId);
    return cliente && dentroDoPrazo(cliente.prazo_sem_certificado, todayInBahia()) ? 'senha' : 'certificado';
  });
}

/** The reset e-mail, within its quotas and in the same time whether the e-mail exists or not. */
export async function passwordEmail(email: string, sourceIp: string) {
  await consume(quotas('passwordEmail', email, sourceIp));
  return inConstantTime(CONSTANT_MS.passwordEmail, async () => (await usuarios()).requestPasswordReset(email));
}

export async function loginCliente(email: string, password: string, sourceIp: string) {
  return guarded(email, sourceIp, async (u) => {
    const candidate = u?.tipo === 'C' && !isIssuer(u) ? u : null;
    if (!(await senhaConfere(password, candidate)) || !candidate) throw fail(401, 'credenciaisInvalidas');
    if (candidate.situacao !== 'A') throw fail(403, 'usuarioInativo');
    const cliente = await clientOf(candidate);
    if (!dentroDoPrazo(cliente.prazo_sem_certificado, todayInBahia())) throw fail(403, 'prazoSemCertificadoEncerrado');
    return (await desafiar(candidate, 'cliente')) ?? session(candidate, cliente);
  });
}

/**
 * The code step of a password login: the challenge's user, checked again as the password step checked
 * it (a user made inactive, a client suspended or past its period in the meantime gets no session).
 */
export async function loginSegundoFator(desafio: string, codigo: string) {
  const { usuario: u, canal } = await (await segundoFator()).verificar(desafio, codigo);
  if (u.situacao !== 'A') throw fail(403, 'usuarioInativo');
  if (canal === 'sefaz') return session(u);
  const cliente = await clientOf(u);
  if (!dentroDoPrazo(cliente.prazo_sem_certificado, todayInBahia())) throw fail(403, 'prazoSemCertificadoEncerrado');
  return session(u, cliente);
}


/** The company of the certificate must be the user's client (same CNPJ base: any branch). */
export async function loginCertificadoCliente(email: string, pem: string | undefined) {
  const cert = await certificadoDoChamador(pem);
  const u = await users.findByEmail(email);
  if (!u || u.tipo !== 'C' || isIssuer(u)) throw fail(404, 'dadosNaoEncontrados');
  if (u.situacao !== 'A') throw fail(403, 'usuarioInativo');
  const cliente = await clientOf(u);
  if (cnpjBase(cliente.cnpj) !== cnpjBase(cert.cnpj)) throw fail(404, 'dadosNaoEncontrados');
  return session(u, cliente);
}

export async function loginCertificadoEmissor(pem: string | undefined) {
  const cert = await certificadoDoChamador(pem);
  const u = await (await usuarios()).ensureIssuer(cert.cnpj, cert.razaoSocial);
  if (u.situacao !== 'A') throw fail(403, 'usuarioInativo');
  return session(u, null);
}

export async function logout(sid: string | null) {
  if (sid) await closeSession(sid);
  return { message: message('sessaoEncerrada') };
}
