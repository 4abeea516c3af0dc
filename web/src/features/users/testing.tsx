import { render, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROUTE_ACCESS } from '@plac/shared/access';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect, vi } from 'vitest';
import { setNavigator } from '../../lib/navigation';
import { login } from '../../lib/session';
import type { User } from './model';
import UserFormPage from './UserFormPage';
import UserListPage from './UserListPage';
import { PageShell } from '../../test/shell';

/**
 * Test kit of the user screens: both pages at their ROUTE_ACCESS paths inside what the shell gives
 * every page (react-query, PrimeReact in pt-BR, the toasts), and a fake API behind fetch. The guards
 * are the route table's business and tested there.
 */

/** A Response as fetch would give it (as test/render's, which pulls in the whole route table). */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

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

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Answer = Response | ((call: ApiCall) => Response);

/**
 * fetch answering by `METHOD /path` (query left out); every request is recorded. A request without an
 * answer fails the test with a 599 so that it cannot pass unnoticed.
 */
export function stubApi(answers: Record<string, Answer>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, path: url.pathname, query: url.searchParams, body };
    calls.push(call);
    const answer = answers[`${method} ${url.pathname}`];
    if (!answer) return jsonResponse(599, { error: `sem resposta para ${method} ${url.pathname}` });
    return typeof answer === 'function' ? answer(call) : answer.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  const of = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path);
  return { calls, of, fetchMock };
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

/** Picks an option of a PrimeReact Dropdown, given its input (by label) or any element inside it. */
export async function pickOption(inside: HTMLElement, option: string) {
  const dropdown = inside.closest<HTMLElement>('.p-dropdown');
  if (!dropdown) throw new Error('not inside a Dropdown');
  // One panel at a time: the last Dropdown's may still be leaving.
  await waitFor(() => expect(document.querySelector('.p-dropdown-panel')).toBeNull());
  await userEvent.click(dropdown);
  const panel = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('.p-dropdown-panel');
    if (!found) throw new Error('the Dropdown did not open');
    return found;
  });
  // jsdom has no layout: PrimeReact's positioning measures the panel as a hidden element and leaves
  // it display:none, so the options count as hidden although they are there.
  await userEvent.click(within(panel).getByRole('option', { name: option, hidden: true }));
}
