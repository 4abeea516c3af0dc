import type { Principal } from '@plac/shared/access';
import { openSession, TOKEN_TTL_SECONDS } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';

/** A real session of the twin for a principal, without going through a login screen. */
export async function tokenFor(principal: Principal, ttlSeconds = TOKEN_TTL_SECONDS): Promise<string> {
  const sid = await openSession(principal);
  return signToken(principal, sid, ttlSeconds);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
