import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROUTE_ACCESS } from '@plac/shared/access';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect } from 'vitest';
import { setNavigator } from '../lib/navigation';
import { login } from '../lib/session';
import CadastroRealizadoPage from '../features/clientes/CadastroRealizadoPage';
import ClienteFormPage from '../features/clientes/ClienteFormPage';
import ClienteListPage from '../features/clientes/ClienteListPage';
import ClienteRegisterPage from '../features/clientes/ClienteRegisterPage';
import DadosClienteEditPage from '../features/clientes/DadosClienteEditPage';
import type { Cliente, ClienteRow, Webhook } from '../features/clientes/model';
import { PageShell } from './shell';

export { jsonResponse, pickOption, stubApi } from './api-stub';
import { openDropdown } from './api-stub';

/**
 * Test kit of the client screens: the public registration and its success page, and the list and
 * form at their ROUTE_ACCESS paths, inside what the shell gives every page (react-query, PrimeReact in
 * pt-BR, the toasts). The guards are the route table's business and tested there.
 */

export function signInAdmin() {
  login({ userId: 'u-1', name: 'Maria Souza', tipo: 'S', roles: ['sefaz_admin'], email: 'maria@example.com' }, 'token-1');
}

export function signInGestor() {
  login({ userId: 'u-2', name: 'Gil Gestor', tipo: 'S', roles: ['sefaz_gestor'], email: 'gil@example.com' }, 'token-2');
}

export function signInClienteUser(clienteId = 'c-1') {
  login({ userId: 'u-3', name: 'Ana Lima', tipo: 'C', roles: ['cliente'], clienteId, email: 'ana@alfa.com.br' }, 'token-3');
}


export function renderClientes(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <PageShell />,
        children: [
          { index: true, element: <h1>Login</h1> },
          { path: 'cliente/new', element: <ClienteRegisterPage /> },
          { path: 'cliente/cadastroRealizado', element: <CadastroRealizadoPage /> },
          {
            path: 'app',
            children: [
              { index: true, element: <h1>Início</h1> },
              { path: ROUTE_ACCESS['cliente-list'].path, element: <ClienteListPage /> },
              { path: ROUTE_ACCESS['dados-cliente-form'].path, element: <ClienteFormPage /> },
              { path: ROUTE_ACCESS['dados-cliente-edit'].path, element: <DadosClienteEditPage /> },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const unbind = setNavigator((to, options) => void router.navigate(to, options));
  const view = render(<RouterProvider router={router} />);
  return { router, ...view, unbind };
}

export function makeCliente(overrides: Partial<Cliente> = {}): Cliente {
  return {
    id: 'c-1',
    cnpj: '11222333000181',
    razao_social: 'Banco Alfa S.A.',
    logradouro: 'Avenida Sete de Setembro',
    numero: '100',
    complemento: 'Sala 2',
    bairro: 'Centro',
    uf: 'BA',
    cidade: 'Salvador',
    cep: '40060001',
    tipo_cliente: 'IMF',
    telefone: '71988887777',
    nome_responsavel: 'Ana Lima',
    email: 'contato@alfa.com.br',
    situacao: 'A',
    categoria: 'PRIVADA',
    inicio_sem_certificado: '2026-03-01',
    prazo_sem_certificado: '2026-03-31',
    created_at: '2026-03-10T13:05:00.000Z',
    updated_at: '2026-04-02T20:30:00.000Z',
    nome_usuario: 'Maria Souza',
    ...overrides,
  };
}

export function makeRow(overrides: Partial<ClienteRow> = {}): ClienteRow {
  return {
    id: 'c-1',
    razao_social: 'Banco Alfa S.A.',
    cnpj: '11222333000181',
    tipo_cliente: 'IMF',
    telefone: '71988887777',
    situacao: 'A',
    ...overrides,
  };
}

export function makeWebhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: 'w-1',
    operacaoId: 0,
    operacao: 'EVENTO',
    urlWebHook: 'https://hooks.alfa.com.br/evento',
    emailWebHook: 'ti@alfa.com.br',
    usuarioWebHook: 'alfa',
    senhaWebHook: '********',
    clienteId: 'c-1',
    clienteCnpj: '11222333000181',
    ...overrides,
  };
}

export function pageOf<T>(items: T[], total = items.length, page = 1, size = 25) {
  return { items, total, page, size };
}

/** The input of a field by its label, with or without the required mark. */
export function field(label: string): HTMLInputElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return screen.getByLabelText(new RegExp(`^${escaped}\\s*\\*?$`)) as HTMLInputElement;
}

/** The option labels of a PrimeReact Dropdown, given its input; the panel is closed again. */
export async function optionsOf(input: HTMLElement): Promise<string[]> {
  const panel = await openDropdown(input);
  const labels = within(panel)
    .queryAllByRole('option', { hidden: true })
    .map((o) => o.getAttribute('aria-label') ?? o.textContent ?? '');
  await userEvent.keyboard('{Escape}');
  await waitFor(() => expect(document.querySelector('.p-dropdown-panel')).toBeNull());
  return labels;
}
