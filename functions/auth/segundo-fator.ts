import type { Principal } from '@plac/shared/access';
import { message } from '@plac/shared/messages';
import { closeSessionsOf, updateSessionsOf } from '../platform/auth/sessions';
import { derivedKey } from '../platform/auth/tokens';
import { decryptSecret, encryptSecret } from '../platform/crypto';
import { HttpError, badRequest, notFound } from '../platform/errors';
import { logger } from '../platform/observability';
import { verifyPassword } from '../platform/passwords';
import * as users from '../users';
import type { UserRecord } from '../users';
import { clearFailures, delayFor, lockedFor, recordFailure, type Subject } from './attempts';
import * as store from './segundo-fator-store';

export { DESAFIO_SEGUNDOS, desafiar } from './desafio';

/**
 * The codes' arithmetic (otpauth) and the enrolment's QR code (uqr) are loaded by the first code checked
 * or enrolment begun (issue 39): a login's cold start does not load them, a challenge needs neither.
 */
const totp = () => import('./totp');

/**
 * The second factor of the password logins (issue 42): enrolment on the profile screen, the code asked
 * after the password, recovery codes, an administrator's reset. The certificate logins stay one step
 * (the certificate is the second factor), so issuers have none.
 *
 * - The secret is stored encrypted (AES-256-GCM under a key derived for this purpose alone).
 * - A code counts once: its step must be after the last step used (ASVS 2.8.4).
 * - Five wrong codes lock the account's code step for 15 minutes (attempts.ts, subject `fator`),
 *   whatever challenge they came with; a password login does not reset that count, a right code does.
 */

const PROPOSITO = 'segundo-fator';
const PROPOSITO_RECUPERACAO = 'segundo-fator-recuperacao';
/** A secret shown for enrolment must be confirmed within this time. */
const PENDENTE_MS = 15 * 60_000;

const falha = (status: number, key: Parameters<typeof message>[0]) => new HttpError(status, key);

/** Password users may have one: the Sefaz's users and client users with a password; never issuers. */
export const podeTerSegundoFator = (u: UserRecord) => Boolean(u.passwordHash) && !u.roles.includes('emissor');

async function usuario(userId: string): Promise<UserRecord> {
  const u = await users.findById(userId);
  if (!u || u.deletedAt) throw notFound('dadosNaoEncontrados');
  return u;
}

/** What the profile shows: active or not, since when, how many recovery codes are left. */
export async function situacao(userId: string) {
  const u = await usuario(userId);
  const f = await store.lerFator(userId);
  return {
    permitido: podeTerSegundoFator(u),
    ativo: Boolean(f?.segredo),
    ativadoEm: f?.segredo ? (f.ativadoEm ?? null) : null,
    codigosRestantes: f?.segredo ? (f.recuperacao?.length ?? 0) : 0,
  };
}

/** The administrator's view of a user's factor: the same, with its audit. */
export async function situacaoDoUsuario(userId: string) {
  const s = await situacao(userId);
  const historico = (await store.eventos(userId)).map((e) => ({ acao: e.acao, em: e.em, por: e.porNome }));
  return { ...s, historico };
}

/**
 * Enrolment, step 1 (the current password asked again, as for a new e-mail): a new secret kept as
 * pending, answered as the QR code (SVG), the otpauth:// URI and the base32 text to type by hand.
 * An active factor stays in force until the new one is confirmed (a new phone).
 */
export async function iniciar(principal: Principal, senha: string) {
  const u = await usuario(principal.userId);
  if (!podeTerSegundoFator(u)) throw falha(403, 'segundoFatorNaoPermitido');
  if (!(await verifyPassword(senha, u.passwordHash))) throw badRequest({ senha: [message('senhaAtualIncorreta')] });
  const [{ novoSegredo, uriDoSegredo }, { renderSVG }] = await Promise.all([totp(), import('uqr')]);
  const segredo = novoSegredo();
  await store.guardarPendente(u.userId, await encryptSecret(PROPOSITO, segredo), new Date().toISOString());
  const uri = uriDoSegredo(segredo, u.email);
  const svg = renderSVG(uri, { border: 2 });
  return { segredo, otpauthUrl: uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Enrolment, step 2: the first code of the app proves it holds the secret; the factor becomes active
 * and the ten recovery codes are answered, once (only their HMACs are kept).
 */
export async function confirmar(principal: Principal, codigo: string) {
  const u = await usuario(principal.userId);
  const f = await store.lerFator(u.userId);
  if (!f?.pendente || !f.pendenteDesde || Date.parse(f.pendenteDesde) < Date.now() - PENDENTE_MS) throw falha(409, 'segundoFatorSemCadastro');
  const { hashRecuperacao, novosCodigosRecuperacao, passoDoCodigo } = await totp();
  const segredo = await decryptSecret(PROPOSITO, f.pendente);
  const passo = passoDoCodigo(segredo, codigo.replace(/\s+/g, ''));
  if (passo === null) throw badRequest({ codigo: [message('codigoInvalido')] });
  const codigos = novosCodigosRecuperacao();
  const chave = await derivedKey(PROPOSITO_RECUPERACAO);
  const ativo = await store.ativar(u.userId, f.pendente, {
    segredo: f.pendente,
    passo,
    recuperacao: codigos.map((c) => hashRecuperacao(chave, c)),
    em: new Date().toISOString(),
    porNome: u.name,
  });
  if (!ativo) throw falha(409, 'segundoFatorSemCadastro');
  // The user's sessions that could only enrol it reach the whole portal now.
  await updateSessionsOf({ ...users.principalOf(u), cadastroSegundoFator: false });
  logger.info('second factor enrolled', { userId: u.userId });
  return { codigosRecuperacao: codigos, message: message('segundoFatorAtivado') };
}

/** An administrator's reset (a lost phone): factor removed, audited, the user's sessions ended. */
export async function redefinir(userId: string, admin: Principal) {
  const u = await usuario(userId);
  if (!(await store.lerFator(userId))?.segredo) throw falha(409, 'segundoFatorInativo');
  await store.redefinir(userId, { id: admin.userId, nome: admin.name }, new Date().toISOString());
  await closeSessionsOf(u.userId);
  logger.info('second factor reset', { userId, by: admin.userId });
  return { message: message('segundoFatorRedefinido') };
}

/**
 * The code step: the challenge must be live; the account's code step not locked; the code a code of
 * the app not used before, or an unused recovery code. The challenge is spent by the right code only
 * (a typo keeps it), and by one request only. Answers the user to open the session for.
 */
export async function verificar(desafioId: string, codigo: string): Promise<{ usuario: UserRecord; canal: 'sefaz' | 'cliente' }> {
  const d = await store.lerDesafio(desafioId);
  if (!d || d.expiresAt < Date.now() / 1000) throw falha(401, 'desafioExpirado');
  const assunto: Subject = { kind: 'fator', value: d.userId };
  if (await lockedFor([assunto])) throw falha(429, 'segundoFatorBloqueado');
  const f = await store.lerFator(d.userId);
  if (!f?.segredo) throw falha(401, 'desafioExpirado');
  const u = await usuario(d.userId);

  const { passoDoCodigo, recuperacaoCorrespondente, tipoDoCodigo } = await totp();
  const lido = tipoDoCodigo(codigo);
  let certo = false;
  if (lido?.tipo === 'totp') {
    const passo = passoDoCodigo(await decryptSecret(PROPOSITO, f.segredo), lido.codigo);
    if (passo !== null) {
      // A right code already used (this step or a later one's) is refused without counting as wrong.
      if (!(await store.usarPasso(u.userId, f.segredo, passo))) throw falha(401, 'codigoJaUtilizado');
      certo = true;
    }
  } else if (lido?.tipo === 'recuperacao') {
    const hash = recuperacaoCorrespondente(await derivedKey(PROPOSITO_RECUPERACAO), lido.codigo, f.recuperacao ?? []);
    certo = hash !== null && (await store.usarRecuperacao(u.userId, hash, u.name, new Date().toISOString()));
  }
  if (!certo) {
    const falhas = await recordFailure([assunto]);
    logger.warn('second factor refused', { failures: falhas });
    if (await lockedFor([assunto])) throw falha(429, 'segundoFatorBloqueado');
    await new Promise((resolve) => setTimeout(resolve, delayFor(falhas)));
    throw falha(401, 'codigoInvalido');
  }
  if (!(await store.consumirDesafio(desafioId))) throw falha(401, 'desafioExpirado');
  await clearFailures(assunto);
  return { usuario: u, canal: d.canal };
}

/**
 * The twin's demo data only: a factor made active with a secret known in advance (README's
 * walk-through), without recovery codes. Never reached from a route.
 */
export async function ativarComSegredo(u: UserRecord, segredoBase32: string): Promise<void> {
  const cifrado = await encryptSecret(PROPOSITO, segredoBase32);
  await store.guardarPendente(u.userId, cifrado, new Date().toISOString());
  await store.ativar(u.userId, cifrado, { segredo: cifrado, passo: 0, recuperacao: [], em: new Date().toISOString(), porNome: u.name });
}
