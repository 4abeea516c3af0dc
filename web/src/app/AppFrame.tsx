import type { ReactNode } from 'react';
import type { SessionUser } from '../lib/session';
import { SideMenu } from './SideMenu';

/**
 * The signed-in area's frame below the top bar: the side menu and the page's column. No PrimeReact
 * and no theme (its CSS is in first-paint.css), so main.tsx can paint it before the shell has loaded
 * (BootFrame.tsx) and AppLayout draws the same one around the page.
 */
export function AppFrame({ user, children }: { user: SessionUser; children: ReactNode }) {
  return (
    <div className="app-body">
      <SideMenu user={user} />
      <main className="app-content" id="conteudo">
        {children}
      </main>
    </div>
  );
}
