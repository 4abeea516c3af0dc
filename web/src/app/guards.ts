import { redirect } from 'react-router-dom';
import { routeAllows, routePath, type RouteName } from '@plac/shared/access';
import { getSession } from '../lib/session';
import { LOGIN_PATH } from './paths';

/**
 * The route guards (sign-in and role checks), as route loaders: they run on every navigation (before the page's
 * chunk is even needed) and read the session store directly.
 */

/** The login route with somebody signed in goes to the dashboard. */
export function redirectSignedIn() {
  if (getSession().user) return redirect(routePath('dashboard'));
  return null;
}

/** The authenticated area with nobody signed in goes to '/'. */
export function requireSignIn() {
  if (!getSession().user) return redirect(LOGIN_PATH);
  return null;
}

/**
 * A page of ROUTE_ACCESS: '/' without a user, not-authorised without one of its roles; any page but the
 * profile, for a Sefaz user who must first enrol the second factor, goes to the profile (the API would
 * refuse the page's calls with segundoFatorObrigatorio, issue 42).
 */
export function requireRoute(name: RouteName) {
  return () => {
    const user = getSession().user;
    if (!user) return redirect(LOGIN_PATH);
    if (!routeAllows(name, user.roles)) return redirect(routePath('not-authorized'));
    if (user.segundoFatorObrigatorio && name !== 'profile') return redirect(routePath('profile'));
    return null;
  };
}
