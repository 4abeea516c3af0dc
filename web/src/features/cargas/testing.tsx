import { render } from '@testing-library/react';
import { ROUTE_ACCESS, type Role } from '@plac/shared/access';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { setNavigator } from '../../lib/navigation';
import { login } from '../../lib/session';
import ConsultarProcessamentoEventoPage from './ConsultarProcessamentoEventoPage';
import ConsultarProcessamentoPage from './ConsultarProcessamentoPage';
import DocumentosErroPage from './DocumentosErroPage';
import LoteProcessamentoPage from './LoteProcessamentoPage';
import { PageShell } from '../../test/shell';

/**
 * Test kit of the load-control and monitoring screens: the pages at their ROUTE_ACCESS paths inside
 * what the shell gives (react-query, PrimeReact pt-BR, toasts). The fake API is the user screens'.
 */
export { jsonResponse, pickOption, stubApi } from '../users/testing';

export function signInAs(roles: Role[], extra: { uf?: string } = {}) {
  const tipo = roles.some((r) => r.startsWith('sefaz')) ? 'S' : 'C';
  login({ userId: 'u-1', name: 'Maria Souza', tipo, roles, email: 'maria@example.com', ...extra }, 'token-1');
}


export function renderPage(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/app',
        element: <PageShell />,
        children: [
          { index: true, element: <h1>Início</h1> },
          { path: ROUTE_ACCESS['documentos-erro'].path, element: <DocumentosErroPage /> },
          { path: ROUTE_ACCESS['lote-processamento'].path, element: <LoteProcessamentoPage /> },
          { path: ROUTE_ACCESS['consultar-processamento'].path, element: <ConsultarProcessamentoPage /> },
          { path: ROUTE_ACCESS['consultar-processamento-evento'].path, element: <ConsultarProcessamentoEventoPage /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const unbind = setNavigator((to, options) => void router.navigate(to, options));
  const view = render(<RouterProvider router={router} />);
  return { router, ...view, unbind };
}

export const nsu15 = (n: number) => String(n).padStart(15, '0');

export function makeDocumentoErro(overrides: Record<string, unknown> = {}) {
  return {
    id: 'PI-000000000000123',
    tipo: 'procNFe',
    uf: 'PI',
    nsu: nsu15(123),
    excecao: 'LayoutInvalido',
    erro: 'A chave de acesso é inválida.',
    createdAt: '2026-05-10T13:05:00.000Z',
    trace: 'Error: A chave de acesso é inválida.\n    at parse (parse.ts:10:3)',
    ...overrides,
  };
}

export const SEFAZ = [
  { cuf: 29, sigla: 'BA', nome: 'Bahia' },
  { cuf: 22, sigla: 'PI', nome: 'Piauí' },
  { cuf: 14, sigla: 'RR', nome: 'Roraima' },
];

export function makeResumo(overrides: Record<string, unknown> = {}) {
  return {
    cuf: 29,
    sigla: 'BA',
    updatedAt: '2026-05-10T13:05:00.000Z',
    consultadoEm: '2026-05-10T13:06:00.000Z',
    cStat: '138',
    status: 'Documento(s) localizado(s) para distribuição',
    ultNSU: nsu15(300),
    nsuMax: nsu15(300),
    carregado: 100,
    aguardarAte: null,
    ...overrides,
  };
}
