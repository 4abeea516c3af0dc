import { render } from '@testing-library/react';
import { ROUTE_ACCESS, type Role } from '@plac/shared/access';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { setNavigator } from '../../lib/navigation';
import { login } from '../../lib/session';
import AutorizacaoFormPage from '../autorizacoes/AutorizacaoFormPage';
import AutorizacaoListPage from '../autorizacoes/AutorizacaoListPage';
import ServicosPage from '../servicos/ServicosPage';
import InstituicaoFormPage from './InstituicaoFormPage';
import InstituicaoListPage from './InstituicaoListPage';
import { PageShell } from '../../test/shell';

/**
 * Test kit of the institution, authorisation and service screens: the pages at their ROUTE_ACCESS
 * paths inside what the shell gives (react-query, PrimeReact pt-BR, toasts). The fake API is the
 * user screens' stubApi.
 */
export { jsonResponse, pickOption, stubApi } from '../users/testing';

export function signInAs(roles: Role[], extra: { clienteId?: string; cnpj?: string } = {}) {
  const tipo = roles.some((r) => r.startsWith('sefaz')) ? 'S' : 'C';
  login({ userId: 'u-1', name: 'Maria Souza', tipo, roles, email: 'maria@example.com', ...extra }, 'token-1');
}


/** `strict`: inside React's StrictMode, as `npm start` renders the portal (effects run twice). */
export function renderPage(path: string, state?: unknown, { strict = false } = {}) {
  const router = createMemoryRouter(
    [
      {
        path: '/app',
        element: <PageShell />,
        children: [
          { index: true, element: <h1>Início</h1> },
          { path: ROUTE_ACCESS['instituicao-financeira'].path, element: <InstituicaoListPage /> },
          { path: ROUTE_ACCESS['instituicao-financeira-form'].path, element: <InstituicaoFormPage /> },
          { path: ROUTE_ACCESS['autorizacao-inf-cliente-list'].path, element: <AutorizacaoListPage /> },
          { path: ROUTE_ACCESS['autorizacao-inf-cliente-form'].path, element: <AutorizacaoFormPage /> },
          { path: ROUTE_ACCESS['consulta-servicos'].path, element: <ServicosPage /> },
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

export function makeInstituicao(overrides: Record<string, unknown> = {}) {
  return {
    id: 'i-1',
    razaoSocial: 'Banco Alfa S.A.',
    cnpj: '33445566',
    uf: 'BA',
    tipo: 'ESF',
    situacao: 'ATIVA',
    regulada: true,
    createdAt: '2026-03-10T13:05:00.000Z',
    updatedAt: '2026-04-02T20:30:00.000Z',
    createdBy: 'Maria Souza',
    updatedBy: 'Maria Souza',
    ...overrides,
  };
}

export const CLIENTE_ESF = { id: 'c-1', cnpj: '11222333000181', razaoSocial: 'Banco Demonstração ESF S.A.' };

export function makeAutorizacao(overrides: Record<string, unknown> = {}) {
  return {
    cnpjCliente: CLIENTE_ESF.cnpj,
    razaoSocialCliente: CLIENTE_ESF.razaoSocial,
    cnpjInstFinanceira: '33445566',
    razaoSocialInstFinanceira: 'Banco Alfa S.A.',
    status: 'PENDENTE',
    dataAutorizacao: '2026-04-02T13:00:00.000Z',
    dataAtualizacao: '2026-04-03T13:00:00.000Z',
    justificativa: null,
    nomeArquivo: 'autorizacao.pdf',
    urlArquivo: 'https://documentos.example/autorizacao.pdf',
    ...overrides,
  };
}
