import ConsultarProcessamentoEventoPage from '../features/cargas/ConsultarProcessamentoEventoPage';
import ConsultarProcessamentoPage from '../features/cargas/ConsultarProcessamentoPage';
import DocumentosErroPage from '../features/cargas/DocumentosErroPage';
import LoteProcessamentoPage from '../features/cargas/LoteProcessamentoPage';
import { renderPages } from './page-kit';

/**
 * Test kit of the load-control and monitoring screens: the pages at their ROUTE_ACCESS paths inside
 * what the shell gives (react-query, PrimeReact pt-BR, toasts). The fake API is the user screens'.
 */
export { jsonResponse, pickOption, stubApi } from './api-stub';
export { signInAs } from './page-kit';

export function renderPage(path: string) {
  return renderPages(
    {
      'documentos-erro': <DocumentosErroPage />,
      'lote-processamento': <LoteProcessamentoPage />,
      'consultar-processamento': <ConsultarProcessamentoPage />,
      'consultar-processamento-evento': <ConsultarProcessamentoEventoPage />,
    },
    path,
  );
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
    detalhe: "Closing tag 'infNFe' is expected inplace of 'NFe'. (linha 1, coluna 120)",
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
