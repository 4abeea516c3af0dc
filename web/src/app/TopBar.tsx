import { Button } from 'primereact/button';
import { Link } from 'react-router-dom';
import { routePath } from '@plac/shared/access';
import { useSession } from '../lib/session';
import { signOut } from '../lib/signOut';

/** The product is shown to the user as version 2.10.0. */
export const APP_VERSION = __APP_VERSION__;

/** Product name and version; the signed-in user's name, the link to their profile and the logout button. */
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
          <Button label="Sair" icon="pi pi-sign-out" text size="small" onClick={() => signOut()} />
        </div>
      )}
    </header>
  );
}
