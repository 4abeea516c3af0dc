import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, signIn } from '../../test/render';
import { pickOption } from '../../test/api-stub';

const PROJECAO = {
  mes: '2026-11',
  calculadaEm: '2026-11-10T15:00:00.000Z',
  dia: 10,
  diasNoMes: 30,
  cliente: { cnpj: '11222333000181', razaoSocial: 'Banco Demo S.A.', situacao: 'A' },
  tarifacao: true,
  faturavel: true,
  requisicoes: 60,
  servicos: [
    {
      idModuloServico: 9,
      descricao: 'Consulta Fat-e',
      requisicoes: 60,
      requisicoesProjetadas: 180,
      faixa: { nome: 'Faixa 1', qtdMinima: 1, qtdMaxima: 100, valorUnitario: 150 },
      proximaFaixa: { nome: 'Faixa 2', qtdMinima: 101, qtdMaxima: 1000, valorUnitario: 125 },
      faltamParaProximaFaixa: 41,
      faixaProjetada: { nome: 'Faixa 2', qtdMinima: 101, qtdMaxima: 1000, valorUnitario: 125 },
    },
  ],
  itens: [
    { idModuloServico: 9, descricao: 'Consulta Fat-e', uf: 29, sgUf: 'BA', requisicoes: 20, valorUnitario: 150, valorConsumo: 300, requisicoesProjetadas: 60, valorUnitarioProjetado: 125, valorConsumoProjetado: 750 },
    { idModuloServico: 9, descricao: 'Consulta Fat-e', uf: 35, sgUf: 'SP', requisicoes: 40, valorUnitario: 150, valorConsumo: 600, requisicoesProjetadas: 120, valorUnitarioProjetado: 125, valorConsumoProjetado: 1500 },
  ],
  atual: { valorServicos: 900, valorAssinatura: 9100, valorTotal: 10000 },
  projetada: { valorServicos: 2250, valorAssinatura: 7750, valorTotal: 10000 },
  assinaturaMinima: 10000,
};

function stub(answer: (path: string, query: URLSearchParams) => Response) {
  const sent: { path: string; query: URLSearchParams }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      sent.push({ path: url.pathname, query: url.searchParams });
      return answer(url.pathname, url.searchParams);
    }),
  );
  return sent;
}

const cells = (table: HTMLElement) => within(table).getAllByRole('row').map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent?.replace(/\s/g, ' ').trim()));

describe('the projected bill on the dashboard', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows a client user its own month: bands, the next band's distance and the projected invoice", async () => {
    const sent = stub(() => jsonResponse(200, PROJECAO));
    signIn(['cliente'], { clienteId: 'c-1' });
    renderApp('/app');
    expect(await screen.findByRole('heading', { name: 'Fatura Projetada do Mês' })).toBeTruthy();
    const faixas = await screen.findByRole('table', { name: 'Faixas por serviço' });
    expect(cells(faixas)[1]).toEqual(['Consulta Fat-e', '60', 'Faixa 1 (R$ 0,150)', 'Faltam 41 para a Faixa 2 (R$ 0,125)', '180', 'Faixa 2 (R$ 0,125)']);
    const consumo = screen.getByRole('table', { name: 'Consumo por serviço e UF' });
    expect(cells(consumo).slice(1)).toEqual([
      ['Consulta Fat-e', 'BA', '20', 'R$ 0,150', 'R$ 3,00', '60', 'R$ 7,50'],
      ['Consulta Fat-e', 'SP (UFs não signatárias)', '40', 'R$ 0,150', 'R$ 6,00', '120', 'R$ 15,00'],
      ['Serviços', 'R$ 9,00', '', 'R$ 22,50'],
      ['Complemento da assinatura', 'R$ 91,00', '', 'R$ 77,50'],
      ['Total', 'R$ 100,00', '', 'R$ 100,00'],
    ]);
    expect(screen.getByText('Fatura projetada no fim do mês').nextElementSibling?.textContent).toBe('R$ 100,00');
    // A client user asks for its own (no CNPJ sent).
    expect(sent.filter((s) => s.path === '/api/v1/fatura-projetada').map((s) => s.query.get('cnpj'))).toEqual([null]);
  });

  it('lets the administrator pick the client, and asks nothing before', async () => {
    const sent = stub((path) =>
      path === '/api/v1/fatura-projetada'
        ? jsonResponse(200, PROJECAO)
        : jsonResponse(200, [{ id: 'c-1', cnpj: '11222333000181', razao_social: 'Banco Demo S.A.', tipo_cliente: 'IMF', situacao: 'A' }]),
    );
    signIn(['sefaz_admin']);
    renderApp('/app');
    await screen.findByRole('heading', { name: 'Fatura Projetada do Mês' });
    expect(sent.some((s) => s.path === '/api/v1/fatura-projetada')).toBe(false);
    await waitFor(() => expect(sent.some((s) => s.path === '/api/v1/cliente/get-all-cliente')).toBe(true));
    await pickOption(screen.getByLabelText('Cliente'), 'Banco Demo S.A. - 11.222.333/0001-81');
    await screen.findByRole('table', { name: 'Faixas por serviço' });
    expect(sent.filter((s) => s.path === '/api/v1/fatura-projetada').map((s) => s.query.get('cnpj'))).toEqual(['11222333000181']);
  });

  it('says so when nothing can be priced, and when the client is in evaluation', async () => {
    stub(() => jsonResponse(200, { ...PROJECAO, tarifacao: false, faturavel: false, cliente: { ...PROJECAO.cliente, situacao: 'E' }, servicos: [], itens: [], atual: null, projetada: null, assinaturaMinima: null }));
    signIn(['cliente'], { clienteId: 'c-1' });
    renderApp('/app');
    expect(await screen.findByText('Não há tarifação vigente para o mês: a fatura não pode ser projetada.')).toBeTruthy();
    expect(screen.getByText('Cliente em avaliação: o consumo é medido, mas não é faturado.')).toBeTruthy();
  });

  it('is not shown to a manager', async () => {
    const sent = stub(() => jsonResponse(200, {}));
    signIn(['sefaz_gestor']);
    renderApp('/app');
    await screen.findByRole('heading', { name: 'Bem-vindo(a), Maria Souza' });
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Fatura Projetada do Mês' })).toBeNull());
    expect(sent.some((s) => s.path === '/api/v1/fatura-projetada')).toBe(false);
  });
});
