import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Role } from '@plac/shared/access';
import { bindNavigator } from '../app/router';
import { APP_PAGES, createRoutes, type AppPage } from '../app/routes';
import { login, type SessionUser } from '../lib/session';

/** Renders the real route table in a memory router at `path`; logout and the API client navigate it. */
export function renderApp(path: string, pages: readonly AppPage[] = APP_PAGES) {
  const router = createMemoryRouter(createRoutes(pages), { initialEntries: [path] });
  bindNavigator(router);
  const view = render(<RouterProvider router={router} />);
  return { router, ...view };
}

export function signIn(roles: Role[], extra: Partial<SessionUser> = {}, token = 'token-1'): SessionUser {
  const user: SessionUser = {
    userId: 'u-1',
    name: 'Maria Souza',
    tipo: roles.some((r) => r.startsWith('sefaz')) ? 'S' : 'C',
    roles,
    email: 'maria@example.com',
    ...extra,
  };
  login(user, token);
  return user;
}

/** A Response as fetch would give it. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
