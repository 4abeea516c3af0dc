import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ROUTE_ACCESS, type Role, type RouteName } from '@plac/shared/access';
import { message, MESSAGES } from '@plac/shared/messages';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setNavigator } from '../../lib/navigation';
import { getSession, login } from '../../lib/session';
import { PageShell } from '../../test/shell';
import { jsonResponse, pickOption, stubApi } from '../../test/api-stub';
import CadastroPagamentoAntecipadoPage from './CadastroPagamentoAntecipadoPage';
import ContaCorrenteRequisicoesPage from './ContaCorrenteRequisicoesPage';
import ImprimirDaePage from './ImprimirDaePage';

const API = '/api/v1/pagamento-antecipado';
const IMF = { id: 'c-imf', cnpj: '11222333000181', razaoSocial: 'Fomento Alfa Ltda.' };
const OUTRO = { id: 'c-beta', cnpj: '45997418000153', razaoSocial: 'Fomento Beta Ltda.' };

const dae = (over: Partial<{ id: string; situacao: 'A' | 'P'; mes: number }> = {}) => ({
  dae: { id: over.id ?? 'PA-c-imf-1', valor: 500_000_00, situacao: over.situacao ?? 'A', ano: 2026, mes: over.mes ?? 11, createdAt: '2026-11-23T13:00:00.000Z', dtVencimento: '2026-12-03', numero: 42, linhaDigitavel: '8'.repeat(48), pagoEm: null },
  pagamentoAntecipado: { razaoSocial: IMF.razaoSocial, cnpjEscriturador: IMF.cnpj, emailContato: 'contato@alfa.com.br', qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 },
});

function signInAs(roles: Role[], clienteId?: string) {
  const tipo = roles.some((r) => r.startsWith('sefaz')) ? 'S' : 'C';
  login({ userId: 'u-1', name: 'Maria Souza', tipo, roles, email: 'maria@example.com', ...(clienteId ? { clienteId } : {}) }, 'token-1');
}

function renderPage(name: RouteName, Page: ComponentType) {
  const router = createMemoryRouter([{ path: '/app', element: <PageShell />, children: [{ path: ROUTE_ACCESS[name].path, element: <Page /> }] }], { initialEntries: [`/app/${ROUTE_ACCESS[name].path}`] });
  setNavigator((to, options) => void router.navigate(to, options));
  return render(<RouterProvider router={router} />);
}

afterEach(() => vi.unstubAllGlobals());

/** A Dropdown's shown label (PrimeReact also renders the text in a hidden select). */
const rotulo = async (texto: string) => {
  const all = await screen.findAllByText(texto);
  return all.find((e) => e.classList.contains('p-dropdown-label'))!;
};

describe('cadastro-pagamento-antecipado', { timeout: 20_000 }, () => {
  it('an IMF user has its company fixed, sees each rule’s message, then reserves and prints the DAE', async () => {
    signInAs(['cliente_imf'], IMF.id);
    const open = vi.fn(() => ({ opener: {} }) as unknown as Window);
    vi.stubGlobal('open', open);
    const api = stubApi({
      [`GET ${API}/escrituradores`]: jsonResponse(200, [IMF]),
      [`GET ${API}/cotacao`]: jsonResponse(200, { valor: 600_000_00 }),
      [`POST ${API}`]: jsonResponse(201, { message: MESSAGES.reservaCadastrada, dae: dae() }),
      [`POST ${API}/daes/PA-c-imf-1/impressao`]: jsonResponse(200, { urlDAE: 'https://s3.local/dae.pdf', dtVencimento: '2026-12-03', linhaDigitavel: '8'.repeat(48) }),
    });
    renderPage('cadastro-pagamento-antecipado', CadastroPagamentoAntecipadoPage);
    const escriturador = await rotulo(`${IMF.razaoSocial} - 11.222.333/0001-81`);
    expect(escriturador.closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    expect((screen.getByLabelText('Quantidade de Envio de Fat-e') as HTMLInputElement).value).toBe('50000000');
    expect(screen.getByTestId('pa-envio-qtd').textContent).toBe('50.000.000 requisições');
    expect((screen.getByLabelText('Quantidade de Monitoramento de Documentos') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Quantidade de Registro de Cessão') as HTMLInputElement).disabled).toBe(true);

    const cadastrar = screen.getByRole('button', { name: 'Cadastrar' });
    fireEvent.click(cadastrar);
    expect(await screen.findByText(MESSAGES.reservaEmailObrigatorio)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('E-mail de Contato'), { target: { value: 'contato@' } });
    fireEvent.change(screen.getByLabelText('Quantidade de Envio de Fat-e'), { target: { value: '1000' } });
    fireEvent.click(cadastrar);
    expect(await screen.findByText(MESSAGES.reservaEmailInvalido)).toBeTruthy();
    expect(await screen.findByText(MESSAGES.reservaValorMinimoCampo)).toBeTruthy();
    expect(await screen.findByText(MESSAGES.reservaQuantidadeMinima)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Quantidade de Envio de Fat-e'), { target: { value: '5e7' } });
    fireEvent.click(cadastrar);
    expect(await screen.findByText(MESSAGES.reservaApenasNumeros)).toBeTruthy();
    expect(api.of('POST', API)).toEqual([]);

    fireEvent.change(screen.getByLabelText('E-mail de Contato'), { target: { value: 'contato@alfa.com.br' } });
    fireEvent.change(screen.getByLabelText('Quantidade de Envio de Fat-e'), { target: { value: '60000000' } });
    fireEvent.click(cadastrar);
    // The value first, and nothing saved until the user confirms it.
    const pergunta = message('reservaConfirmar', { valor: 'R$ 600.000,00' });
    expect((await screen.findByText(pergunta)).textContent!.replace(/\s/g, ' ')).toBe(pergunta.replace(/\s/g, ' '));
    expect(api.of('GET', `${API}/cotacao`)[0]!.query.get('qtdEnvioFate')).toBe('60000000');
    expect(api.of('POST', API)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Não' }));
    await waitFor(() => expect(screen.queryByText(pergunta)).toBeNull());
    expect(api.of('POST', API)).toEqual([]);
    fireEvent.click(cadastrar);
    await screen.findByText(pergunta);
    fireEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(api.of('POST', API)).toHaveLength(1));
    expect(api.of('POST', API)[0]!.body).toEqual({ cnpjEscriturador: IMF.cnpj, emailContato: 'contato@alfa.com.br', qtdEnvioFate: 60_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 });
    expect(await screen.findByText(MESSAGES.reservaCadastrada)).toBeTruthy();
    const painel = await screen.findByRole('region', { name: 'DAE da reserva' });
    expect(within(painel).getByText('R$ 500.000,00')).toBeTruthy();
    expect(within(painel).getByText('03/12/2026')).toBeTruthy();
    fireEvent.click(within(painel).getByRole('button', { name: 'Imprimir DAE' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://s3.local/dae.pdf', '_blank'));
  });

  it('an administrator must pick the bookkeeper; a second reservation shows the server’s refusal', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      [`GET ${API}/escrituradores`]: jsonResponse(200, [IMF, OUTRO]),
      [`GET ${API}/cotacao`]: jsonResponse(200, { valor: 500_000_00 }),
      [`POST ${API}`]: jsonResponse(409, { error: 'reservaJaExiste', message: MESSAGES.reservaJaExiste }),
    });
    renderPage('cadastro-pagamento-antecipado', CadastroPagamentoAntecipadoPage);
    fireEvent.change(await screen.findByLabelText('E-mail de Contato'), { target: { value: 'contato@beta.com.br' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText(MESSAGES.reservaCnpjObrigatorio)).toBeTruthy();
    expect(api.of('POST', API)).toEqual([]);
    await pickOption(await rotulo('Selecione o escriturador'), `${OUTRO.razaoSocial} - 45.997.418/0001-53`);
    fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    await screen.findByText(message('reservaConfirmar', { valor: 'R$ 500.000,00' }).replace(/\s/g, ' '), { normalizer: (t) => t.replace(/\s/g, ' ') });
    fireEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(api.of('POST', API)).toHaveLength(1));
    expect(api.of('POST', API)[0]!.body).toMatchObject({ cnpjEscriturador: OUTRO.cnpj });
    expect(await screen.findByText(MESSAGES.reservaJaExiste)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'DAE da reserva' })).toBeNull();
  });
});

describe('imprimir-dae', { timeout: 20_000 }, () => {
  it('lists the DAEs 25 a page, filters by status, remembers the filter and prints a row', async () => {
    signInAs(['sefaz_admin']);
    const open = vi.fn(() => ({ opener: {} }) as unknown as Window);
    vi.stubGlobal('open', open);
    const api = stubApi({
      [`GET ${API}/escrituradores`]: jsonResponse(200, [IMF]),
      [`GET ${API}/daes`]: jsonResponse(200, { items: [dae(), dae({ id: 'PA-c-imf-2', situacao: 'P', mes: 10 })] }),
      [`POST ${API}/daes/PA-c-imf-1/impressao`]: jsonResponse(200, { urlDAE: 'https://s3.local/dae-1.pdf', dtVencimento: '2026-12-03', linhaDigitavel: '8'.repeat(48) }),
    });
    renderPage('imprimir-dae', ImprimirDaePage);
    const tabela = await screen.findByRole('table', { name: 'DAEs de pagamento antecipado' });
    expect(await within(tabela).findByText('11/2026')).toBeTruthy();
    expect(within(tabela).getByText('Em aberto')).toBeTruthy();
    expect(within(tabela).getByText('Pago')).toBeTruthy();
    expect(within(tabela).getAllByText('R$ 500.000,00')).toHaveLength(2);
    expect(api.of('GET', `${API}/daes`)[0]!.query.get('perPage')).toBe('25');
    expect(api.of('GET', `${API}/daes`)[0]!.query.get('cnpj')).toBeNull();

    await pickOption(await rotulo('Todas'), 'Pago');
    fireEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('GET', `${API}/daes`).at(-1)!.query.get('situacao')).toBe('P'));
    expect(getSession().filters.daePrepago).toMatchObject({ situacao: 'P' });

    fireEvent.click(within(tabela).getByRole('button', { name: `Imprimir DAE 11/2026 de ${IMF.razaoSocial}` }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://s3.local/dae-1.pdf', '_blank'));
  });
});

describe('conta-corrente-requisicoes', { timeout: 20_000 }, () => {
  it('shows the balance and the statement of the month the user picks', async () => {
    signInAs(['cliente_imf'], IMF.id);
    const api = stubApi({
      [`GET ${API}/escrituradores`]: jsonResponse(200, [IMF]),
      [`GET ${API}/conta`]: jsonResponse(200, { cnpj: IMF.cnpj, razaoSocial: IMF.razaoSocial, situacao: 'VIGENTE', valorContratado: 500_000_00, prazoConsumo: '2027-11-23', saldoAtual: 499_999_95, valores: [] }),
      [`GET ${API}/extrato`]: jsonResponse(200, {
        items: [{ cliente: IMF.razaoSocial, idModuloServico: 9, servico: 'Envio de Fat-e', requisicoes: 2, valorFaixa: 10, valorConsumido: 2 }],
        total: 1, page: 1, size: 25, totalConsumido: 2,
      }),
    });
    renderPage('conta-corrente-requisicoes', ContaCorrenteRequisicoesPage);
    expect(await screen.findByText('R$ 499.999,95')).toBeTruthy();
    expect(screen.getByTestId('cc-valor-contratado').textContent!.replace(/\s/g, ' ')).toBe('R$ 500.000,00');
    expect(screen.getByTestId('cc-prazo').textContent).toBe('23/11/2027');
    const tabela = await screen.findByRole('table', { name: 'Extrato de requisições' });
    expect(await within(tabela).findByText('Envio de Fat-e')).toBeTruthy();
    expect(within(tabela).getByText('R$ 0,010')).toBeTruthy();
    expect(within(tabela).getByText('R$ 0,02')).toBeTruthy();
    const agora = new Date();
    const mesAtual = `${agora.getFullYear()}-${String(agora.getMonth() + 1).padStart(2, '0')}`;
    expect(api.of('GET', `${API}/extrato`)[0]!.query.get('mes')).toBe(mesAtual);
    expect(api.of('GET', `${API}/conta`)[0]!.query.get('cnpj')).toBe(IMF.cnpj);
    // Another month: typed in the picker.
    const campo = screen.getByLabelText('Mês do Extrato');
    fireEvent.input(campo, { target: { value: '01/2026' } });
    fireEvent.blur(campo);
    await waitFor(() => expect(api.of('GET', `${API}/extrato`).some((c) => c.query.get('mes') === '2026-01')).toBe(true));
  });

  it('a reservation awaiting payment shows its value and state, not R$ 0,00', async () => {
    signInAs(['cliente_imf'], IMF.id);
    stubApi({
      [`GET ${API}/escrituradores`]: jsonResponse(200, [IMF]),
      [`GET ${API}/conta`]: jsonResponse(200, { cnpj: IMF.cnpj, razaoSocial: IMF.razaoSocial, situacao: 'AGUARDANDO_PAGAMENTO', valorContratado: 0, valorReserva: 500_000_00, prazoConsumo: null, saldoAtual: 0, valores: [] }),
      [`GET ${API}/extrato`]: jsonResponse(200, { items: [{ cliente: IMF.razaoSocial, idModuloServico: 9, servico: 'Envio de Fat-e', requisicoes: 1_234_567, valorFaixa: 10, valorConsumido: 12_346 }], total: 1, page: 1, size: 25, totalConsumido: 12_346 }),
    });
    renderPage('conta-corrente-requisicoes', ContaCorrenteRequisicoesPage);
    await waitFor(() => expect(screen.getByTestId('cc-valor-contratado').textContent!.replace(/\s/g, ' ')).toBe('R$ 500.000,00 (aguardando pagamento)'));
    expect(screen.getByTestId('cc-situacao').textContent).toBe('Aguardando pagamento do DAE');
    // Quantities with separators (item 5.2).
    const tabela = await screen.findByRole('table', { name: 'Extrato de requisições' });
    expect(await within(tabela).findByText('1.234.567')).toBeTruthy();
  });
});
