import { render } from '@testing-library/react';
import { ROUTE_ACCESS } from '@plac/shared/access';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { setNavigator } from '../lib/navigation';
import { login } from '../lib/session';
import type { User } from '../features/users/model';
import UserFormPage from '../features/users/UserFormPage';
import UserListPage from '../features/users/UserListPage';
import { PageShell } from './shell';

export { jsonResponse, pickOption, stubApi, type ApiCall } from './api-stub';

/**
 * Test kit of the user screens: both pages at their ROUTE_ACCESS paths inside what the shell gives
 * every page (react-query, PrimeReact in pt-BR, the toasts), and a fake API behind fetch. The guards
 * are the route table's business and tested there.
 */

/** An administrator signed in: the user screens are sefaz_admin's. */
export function signInAdmin() {
  login({ userId: 'u-1', name: 'Maria Souza', tipo: 'S', roles: ['sefaz_admin'], email: 'maria@example.com' }, 'token-1');
}

export function renderUsers(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/app',
        element: <PageShell />,
        children: [
          { index: true, element: <h1>Início</h1> },
          { path: ROUTE_ACCESS['user-list'].path, element: <UserListPage /> },
          { path: ROUTE_ACCESS['user-form'].path, element: <UserFormPage /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const unbind = setNavigator((to, options) => void router.navigate(to, options));
  const view = render(<RouterProvider router={router} />);
  return { router, ...view, unbind };
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u-10',
    name: 'Ana Lima',
    email: 'ana@sefaz.ba.gov.br',
    cpf: '52998224725',
    telefone: null,
    situacao: 'A',
    tipo_usuario: 'S',
    roles: [{ slug: 'sefaz_gestor', label: 'Gestor' }],
    uf: 'BA',
    cliente_id: null,
    cliente: null,
    created_at: '2026-03-10T13:05:00.000Z',
    updated_at: '2026-04-02T20:30:00.000Z',
    updated_by: 'Maria Souza',
    ...overrides,
  };
}

/** A page of the user list as the API answers it: the rows and, when more follow, the next page's cursor. */
export function pageOf(items: User[], nextCursor?: string) {
  return { items, ...(nextCursor ? { nextCursor } : {}) };
}

export const ROLE_LIST = [
  { slug: 'sefaz_admin', label: 'Administrador Plac', tipo_usuario: 'S' },
  { slug: 'sefaz_gestor', label: 'Gestor', tipo_usuario: 'S' },
  { slug: 'cliente', label: 'Cliente', tipo_usuario: 'C' },
  { slug: 'cliente_web', label: 'Cliente Web', tipo_usuario: 'C' },
  { slug: 'cliente_monitoramento', label: 'Cliente Monitoramento', tipo_usuario: 'C' },
  { slug: 'cliente_imf', label: 'Cliente IMF', tipo_usuario: 'C' },
  { slug: 'avaliacao', label: 'Em Avaliação', tipo_usuario: 'C' },
];

export const CLIENTES = [
  { id: 'c-1', cnpj: '11222333000181', razao_social: 'Banco Alfa S.A.', tipo_cliente: 'IMF', situacao: 'A' },
  { id: 'c-2', cnpj: '45997418000153', razao_social: 'Fomento Beta Ltda', tipo_cliente: 'ESF', situacao: 'E' },
];

