import { MemoryRouter } from 'react-router-dom';
import type { SessionUser } from '../lib/session';
import { AppFrame } from './AppFrame';
import { TopBar } from './TopBar';

/**
 * What a page of /app shows while the shell and the page's code load (issue 39: the frame paints
 * before the component library): the top bar and the signed-in user's side menu, from the session in
 * the tab, with the page's place saying it is loading. main.tsx renders it at once and replaces it with
 * the router's first render, which draws the same frame (AppLayout), so nothing moves.
 * The links need a router; a memory one at the current path marks the current menu item.
 */
export function BootFrame({ user, path }: { user: SessionUser; path: string }) {
  return (
    <MemoryRouter initialEntries={[path]}>
      <TopBar />
      <AppFrame user={user}>
        <p className="app-page-loading" role="status">
          Carregando…
        </p>
      </AppFrame>
    </MemoryRouter>
  );
}
