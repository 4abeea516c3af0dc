import { ROUTE_ACCESS } from '@plac/shared/access';
import ConsumoClientePage from '../features/consumo/ConsumoClientePage';
import ConsumoErroUfPage from '../features/consumo/ConsumoErroUfPage';
import ConsumoUfPage from '../features/consumo/ConsumoUfPage';
import MonitoramentoConsumoClientePage from '../features/consumo/MonitoramentoConsumoClientePage';
import { renderPages } from './page-kit';

/**
 * Test kit of the consumption screens: the pages at their ROUTE_ACCESS paths inside what the shell
 * gives (react-query, PrimeReact pt-BR, toasts). The fake API is the user screens'.
 */
export { jsonResponse, pickOption, stubApi } from './api-stub';
export { signInAs } from './page-kit';

export const PATHS = {
  cliente: `/app/${ROUTE_ACCESS['consumo-cliente'].path}`,
  uf: `/app/${ROUTE_ACCESS['consumo-uf'].path}`,
  erroUf: `/app/${ROUTE_ACCESS['consumo-erro-uf'].path}`,
  monitoramento: `/app/${ROUTE_ACCESS['monitoramento-consumo-cliente'].path}`,
};

export function renderPage(path: string) {
  return renderPages(
    {
      'consumo-cliente': <ConsumoClientePage />,
      'consumo-uf': <ConsumoUfPage />,
      'consumo-erro-uf': <ConsumoErroUfPage />,
      'monitoramento-consumo-cliente': <MonitoramentoConsumoClientePage />,
    },
    path,
  );
}

export const SERVICOS = [
  { idModuloServico: 1, descricaoModuloServico: 'Consulta Fat-e por Chave de Acesso' },
  { idModuloServico: 5, descricaoModuloServico: 'Consulta Faturamento NF-e' },
];

export const CLIENTES = [
  { id: 'c-1', cnpj: '11222333000181', razao_social: 'Banco Alfa S.A.', tipo_cliente: 'ESF', situacao: 'A' },
  { id: 'c-2', cnpj: '45997418000153', razao_social: 'Fomento Beta Ltda', tipo_cliente: 'IMF', situacao: 'A' },
];

export function makeConsumo(overrides: Record<string, unknown> = {}) {
  return {
    cliente: { id: 'c-1', razaoSocial: 'Banco Alfa S.A.', cnpj: '11222333000181', tipo: 'ESF', situacao: 'A', createdAt: '2026-03-10T13:05:00.000Z' },
    total: 5,
    porServico: [
      { idModuloServico: 1, servico: 'Consulta Fat-e por Chave de Acesso', requisicoes: 3 },
      { idModuloServico: 5, servico: 'Consulta Faturamento NF-e', requisicoes: 2 },
    ],
    porServicoUf: [
      { idModuloServico: 1, servico: 'Consulta Fat-e por Chave de Acesso', uf: 'CE', requisicoes: 1 },
      { idModuloServico: 1, servico: 'Consulta Fat-e por Chave de Acesso', uf: 'PA', requisicoes: 2 },
      { idModuloServico: 5, servico: 'Consulta Faturamento NF-e', uf: 'PA', requisicoes: 2 },
    ],
    ...overrides,
  };
}
