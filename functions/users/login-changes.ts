import { message } from '@plac/shared/messages';
import { closeSessionsOf } from '../platform/auth/sessions';
import { badRequest, invalid } from '../platform/errors';
import { escapeHtml, portalUrl, sendMail } from '../platform/mail';
import { hashPassword, needsRehash, verifyPassword } from '../platform/passwords';
import { consumeEmailToken, EMAIL_CONFIRMATION_HOURS, issueToken } from './password-tokens';
import * as store from './store';
import type { UserRecord } from './store';

/**
 * Changes of what logs a user in: the e-mail and the password (issue 27 item 3). A stolen session
 * token must not be enough to take the account over, so:
 * - both need the current password;
 * - a new e-mail becomes the login only when the link sent to it is opened (proof the user owns it),
 *   and the old address is told at the request and at the change;
 * - a password change is told to the address, and ends the user's other sessions;
 * - a confirmed e-mail change ends every session: the next login is with the new e-mail.
 */

/** The current password, checked before the e-mail or the password changes. */
export async function checkCurrentPassword(user: UserRecord, current: string | undefined): Promise<void> {
  if (!current) throw badRequest({ current_password: [message('senhaAtualObrigatoria')] });
  if (!(await verifyPassword(current, user.passwordHash))) throw badRequest({ current_password: [message('senhaAtualIncorreta')] });
}

/**
 * After a login checked the password: a hash stored at older parameters (scrypt, before issue 39) is
 * replaced by today's (platform/passwords.ts). Only a login can do it, as only a login holds the
 * password; each user's hash is replaced once.
 */
export async function renewPasswordHash(user: UserRecord, password: string): Promise<void> {
  if (!user.passwordHash || !needsRehash(user.passwordHash)) return;
  await store.trocarHashDaSenha(user.userId, user.passwordHash, await hashPassword(password));
}

/** Certificate-only users (issuers) have no password to prove who they are: their e-mail is not theirs to change here. */
export function assertEmailChangeable(user: UserRecord): void {
  if (!user.passwordHash) throw badRequest({ email: [message('emailNaoAlteravel')] });
}

/** Sends the confirmation link to the new address and tells the old one; the login stays the old e-mail. */
export async function requestEmailChange(user: UserRecord, newEmail: string): Promise<void> {
  const token = await issueToken(user.userId, newEmail, 'email');
  const link = portalUrl(`/perfil/confirmar-email/${token}`);
  await sendMail({
    to: [newEmail],
    subject: 'PLAC Fat-e: confirme seu novo e-mail',
    text: `Olá, ${user.name}.\n\nPara usar este endereço como e-mail de acesso à PLAC Fat-e, confirme em:\n${link}\n\nO link vale por ${EMAIL_CONFIRMATION_HOURS} horas. Se você não pediu a alteração, ignore esta mensagem.`,
    html: `<p>Olá, ${escapeHtml(user.name)}.</p><p>Para usar este endereço como e-mail de acesso à PLAC Fat-e, <a href="${escapeHtml(link)}">confirme aqui</a>.</p><p>O link vale por ${EMAIL_CONFIRMATION_HOURS} horas. Se você não pediu a alteração, ignore esta mensagem.</p>`,
  });
  await avisar(
    user,
    'PLAC Fat-e: pedido de alteração do e-mail de acesso',
    `Foi pedida a alteração do e-mail de acesso da sua conta para ${newEmail}. A alteração só vale depois de confirmada pelo link enviado a esse endereço. Se não foi você, altere sua senha e avise o administrador.`,
  );
}

/** Opens the confirmation link: the new e-mail becomes the login, the old address is told, every session ends. */
export async function confirmEmailChange(token: string): Promise<{ message: string }> {
  const pending = await consumeEmailToken(token);
  const before = pending ? await store.findUser(pending.userId) : null;
  // The pending e-mail must still be the one asked for: a later request replaces an earlier link.
  if (!pending || !before || before.deletedAt || before.situacao !== 'A' || before.emailPendente !== pending.email) {
    throw invalid('emailConfirmacaoInvalida');
  }
  const { emailPendente: _, ...rest } = before;
  const after: UserRecord = { ...rest, email: pending.email, updatedAt: new Date().toISOString(), updatedBy: before.name };
  // Conditional on the record read and on the new e-mail being free (recursoDuplicado otherwise).
  await store.updateUser(before, after);
  await closeSessionsOf(before.userId);
  await avisar(
    before,
    'PLAC Fat-e: e-mail de acesso alterado',
    `O e-mail de acesso da sua conta foi alterado para ${pending.email}. Se não foi você, avise o administrador da PLAC Fat-e.`,
  );
  return { message: message('emailAlterado') };
}

/** Tells the account's address that its password changed. */
export async function notifyPasswordChange(user: UserRecord): Promise<void> {
  await avisar(user, 'PLAC Fat-e: senha alterada', 'A senha da sua conta foi alterada. As outras sessões abertas foram encerradas. Se não foi você, redefina a senha pelo portal e avise o administrador.');
}

async function avisar(user: UserRecord, subject: string, body: string): Promise<void> {
  await sendMail({
    to: [user.email],
    subject,
    text: `Olá, ${user.name}.\n\n${body}`,
    html: `<p>Olá, ${escapeHtml(user.name)}.</p><p>${escapeHtml(body)}</p>`,
  });
}
