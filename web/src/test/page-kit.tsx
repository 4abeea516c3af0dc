import { render } from '@testing-library/react';
import { ROUTE_ACCESS, type Role, type RouteName } from '@plac/shared/access';
import { StrictMode, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { setNavigator } from '../lib/navigation';
import { login } from '../lib/session';
import { PageShell } from './shell';

/**
 * The features' test kits in one place: a signed-in user of some roles, and some pages at their
 * ROUTE_ACCESS paths inside what the shell gives (react-query, PrimeReact pt-BR, toasts), with the
 * app's navigator bound to the memory router. No guards: those are tested with the real route table
 * (test/render.tsx).
 */

export function signInAs(roles: Role[], extra: { uf?: string; clienteId?: string; cnpj?: string } = {}) {
  const tipo = roles.some((r) => r.startsWith('sefaz')) ? 'S' : 'C';
  login({ userId: 'u-1', name: 'Maria Souza', tipo, roles, email: 'maria@example.com', ...extra }, 'token-1');
}

/**
 * Renders `path` (with router `state`) among `pages`. `strict`: inside React's StrictMode, as
 * `npm start` renders the portal (effects run twice).
 */
export function renderPages(pages: Partial<Record<RouteName, ReactElement>>, path: string, state?: unknown, { strict = false } = {}) {
  const router = createMemoryRouter(
    [
      {
        path: '/app',
        element: <PageShell />,
        children: [
          // The dashboard is the index route (its path is ''); a stand-in heading unless it is under test.
          { index: true, element: pages.dashboard ?? <h1>Início</h1> },
          ...Object.entries(pages)
            .filter(([name]) => name !== 'dashboard')
            .map(([name, element]) => ({ path: ROUTE_ACCESS[name as RouteName].path, element })),
        ],
      },
    ],
    { initialEntries: [{ pathname: path, state }] },
  );
  const unbind = setNavigator((to, options) => void router.navigate(to, options));
  const app = <RouterProvider router={router} />;
  const view = render(strict ? <StrictMode>{app}</StrictMode> : app);
  return { router, ...view, unbind };
}
