import { menuFor } from '@plac/shared/access';
import { NavLink } from 'react-router-dom';
import type { SessionUser } from '../lib/session';

/**
 * The side menu, built from the shared table: only the groups and items the user's
 * roles may open. Groups are native <details> so they fold without any script.
 */
export function SideMenu({ user }: { user: SessionUser }) {
  const groups = menuFor(user.roles, user.clienteId ? { id: user.clienteId } : {});
  return (
    <nav className="app-sidemenu" aria-label="Menu principal">
      <NavLink to="/app" end className="app-menu-link">
        <i className="pi pi-home" aria-hidden="true" />
        <span>Início</span>
      </NavLink>
      {groups.map((group) => (
        <details key={group.label} open className="app-menu-group">
          <summary>
            <i className={group.icon} aria-hidden="true" />
            <span>{group.label}</span>
          </summary>
          <ul>
            {group.items.map((entry) => (
              <li key={entry.route}>
                <NavLink to={entry.href} className="app-menu-link">
                  <i className={entry.icon} aria-hidden="true" />
                  <span>{entry.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </nav>
  );
}
