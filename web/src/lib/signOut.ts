import { auth } from '@plac/shared/contracts';
import { callApi } from './api';
import { getSession, logout, type LogoutOptions } from './session';

/**
 * The user's own logout (the top bar's 'Sair'): tells the API to end the token's session, then clears
 * the local one. The call is fire-and-forget: it is sent with the token before the
 * session is cleared, and whatever it answers (or if it never answers) the user is signed out.
 */
export function signOut(options?: LogoutOptions): void {
  if (getSession().token) {
    callApi(auth.logout, { notify: false }).catch(() => {
      // Already signed out locally; an expired token or an unreachable API changes nothing.
    });
  }
  logout('user', options);
}
