import { Link } from 'react-router-dom';
import { routePath } from '@plac/shared/access';
import { useSession } from '../lib/session';

/** 'Sair': the logout and its API call load on the click, so the first paint's script stays small. */
const sair = () => void import('../lib/signOut').then(({ signOut }) => signOut());

/** The product is shown to the user as version 2.10.0. */
export const APP_VERSION = __APP_VERSION__;

/**
 * Product name and version; the signed-in user's name, the link to their profile and the logout button.
 * Without PrimeReact or the theme (first-paint.css lays it out): it is part of the first paint.
 */
export function TopBar() {
  const { user } = useSession();
  return (
    <header className="app-topbar">
      <Link to={user ? '/app' : '/'} className="app-brand">
        <i className="pi pi-file-check" aria-hidden="true" />
        <span>PLAC Fat-e</span>
      </Link>
      <span className="app-version" title="Versão do sistema">
        versão {APP_VERSION}
      </span>
      <span className="app-topbar-spacer" />
      {user && (
        <div className="app-user">
          <i className="pi pi-user" aria-hidden="true" />
          <span className="app-user-name">{user.name}</span>
          <Link to={routePath('profile')} className="app-user-link">
            Meu perfil
          </Link>
          {/* PrimeReact's small text button, as markup: the top bar paints before PrimeReact loads (BootFrame). */}
          <button type="button" className="app-signout p-button p-component p-button-text p-button-sm" onClick={sair}>
            <span className="p-button-icon p-c p-button-icon-left pi pi-sign-out" aria-hidden="true" />
            <span className="p-button-label p-c">Sair</span>
          </button>
        </div>
      )}
    </header>
  );
}
