import AutorizacaoFormPage from '../features/autorizacoes/AutorizacaoFormPage';
import AutorizacaoListPage from '../features/autorizacoes/AutorizacaoListPage';
import ServicosPage from '../features/servicos/ServicosPage';
import InstituicaoFormPage from '../features/instituicoes/InstituicaoFormPage';
import InstituicaoListPage from '../features/instituicoes/InstituicaoListPage';
import { renderPages } from './page-kit';

/**
 * Test kit of the institution, authorisation and service screens: the pages at their ROUTE_ACCESS
 * paths inside what the shell gives (react-query, PrimeReact pt-BR, toasts). The fake API is the
 * user screens' stubApi.
 */
export { jsonResponse, openDropdown, pickOption, stubApi } from './api-stub';
export { signInAs } from './page-kit';

export function renderPage(path: string, state?: unknown, options: { strict?: boolean } = {}) {
  return renderPages(
    {
      'instituicao-financeira': <InstituicaoListPage />,
      'instituicao-financeira-form': <InstituicaoFormPage />,
      'autorizacao-inf-cliente-list': <AutorizacaoListPage />,
      'autorizacao-inf-cliente-form': <AutorizacaoFormPage />,
      'consulta-servicos': <ServicosPage />,
    },
    path,
    state,
    options,
  );
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
