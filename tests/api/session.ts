import type { Principal } from '@plac/shared/access';
import { openSession, TOKEN_TTL_SECONDS } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';

/** A real session of the twin for a principal, without going through a login screen. */
export async function tokenFor(principal: Principal, ttlSeconds = TOKEN_TTL_SECONDS): Promise<string> {
  const sid = await openSession(principal);
  return signToken(principal, sid, ttlSeconds);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One session per principal for the whole test file (a login per request would only slow the tests). */
const sessoes = new Map<string, Promise<string>>();

/** The bearer header of `who`'s session, opened on first use. */
export async function headersOf(who: Principal): Promise<{ authorization: string }> {
  let token = sessoes.get(who.userId);
  if (!token) sessoes.set(who.userId, (token = tokenFor(who)));
  return bearer(await token);
}
