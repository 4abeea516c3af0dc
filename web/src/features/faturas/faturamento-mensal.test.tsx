import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mesAtualMais, mesIso } from '../../lib/calendar';
import { jsonResponse, renderApp, signIn } from '../../test/render';

const MES = mesIso(mesAtualMais(-1));
const MES_BR = `${MES.slice(5)}/${MES.slice(0, 4)}`;
/** Not the Faturas list's default month (the previous one), so the link's filter shows. */
const MES_ANTIGO = mesIso(mesAtualMais(-3));
const MES_ANTIGO_BR = `${MES_ANTIGO.slice(5)}/${MES_ANTIGO.slice(0, 4)}`;

const execucao = (over: Record<string, unknown> = {}) => ({
  execucaoId: '7c0b7d8e-3f4c-4f6e-9d0a-111111111111',
  mes: MES,
  origem: 'admin',
  iniciadaPor: 'Carlos Admin',
  iniciadaEm: '2026-11-01T05:00:00.000Z',
  concluidaEm: null,
  situacao: 'EM_ANDAMENTO',
  erro: null,
  totalClientes: 40,
  feitos: 10,
  emitidas: 8,
  jaEmitidas: 0,
  semFatura: 1,
  emAvaliacao: 1,
  falhas: [],
  ...over,
});

describe('faturamento-mensal', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the previous month's runs and follows a running one until it ends", async () => {
    let chamadas = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://localhost');
        expect(url.pathname).toBe('/api/v1/faturamento-mensal/execucoes');
        expect(url.searchParams.get('mes')).toBe(MES);
        chamadas++;
        return jsonResponse(200, [chamadas === 1 ? execucao() : execucao({ situacao: 'CONCLUIDA', feitos: 40, emitidas: 37, concluidaEm: '2026-11-01T05:02:00.000Z', falhas: [{ clienteId: 'c-9', erro: 'timeout' }] })]);
      }),
    );
    signIn(['sefaz_admin']);
    renderApp('/app/fatura/faturamentoMensal');
    const tabela = await screen.findByRole('table', { name: 'Execuções do faturamento' }, { timeout: 10_000 });
    await waitFor(() => expect(within(tabela).getByText('10 de 40 clientes')).toBeTruthy());
    expect(within(tabela).getByText('Em andamento')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Iniciar Faturamento' }).hasAttribute('disabled')).toBe(true);
    // Polled every 2 s while running.
    await waitFor(() => expect(within(tabela).getByText('40 de 40 clientes')).toBeTruthy(), { timeout: 5_000 });
    expect(within(tabela).getByText('Concluída')).toBeTruthy();
    expect(within(tabela).getByText('c-9: timeout')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 2_500));
    expect(chamadas).toBe(2);
  });

  it('starts a run after the confirmation, and not on Não', async () => {
    const posts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          posts.push(JSON.parse(String(init.body)));
          return jsonResponse(202, execucao({ totalClientes: null, feitos: 0, emitidas: 0, semFatura: 0, emAvaliacao: 0 }));
        }
        return jsonResponse(200, []);
      }),
    );
    signIn(['sefaz_admin']);
    renderApp('/app/fatura/faturamentoMensal');
    const iniciar = await screen.findByRole('button', { name: 'Iniciar Faturamento' });
    await waitFor(() => expect(iniciar.hasAttribute('disabled')).toBe(false));
    await userEvent.click(iniciar);
    expect(await screen.findByText(`O faturamento do mês ${MES_BR} pode levar alguns minutos. Deseja continuar?`)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Não' }));
    expect(posts).toEqual([]);
    await userEvent.click(iniciar);
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(posts).toEqual([{ mes: MES }]));
    expect(await screen.findByText(`Faturamento do mês ${MES_BR} iniciado.`)).toBeTruthy();
  });

  it('a billed month: the specific warning before a new run, and the finished run links to its invoices', async () => {
    const faturas: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://localhost');
        if (url.pathname === '/api/v1/faturamento-mensal/execucoes') return jsonResponse(200, [execucao({ mes: MES_ANTIGO, situacao: 'CONCLUIDA', feitos: 40, concluidaEm: '2026-11-01T05:02:00.000Z' })]);
        if (url.pathname === '/api/v1/fatura') {
          faturas.push(url);
          return jsonResponse(200, { items: [] });
        }
        return jsonResponse(200, []);
      }),
    );
    signIn(['sefaz_admin']);
    const { router } = renderApp('/app/fatura/faturamentoMensal');
    const tabela = await screen.findByRole('table', { name: 'Execuções do faturamento' }, { timeout: 10_000 });
    await within(tabela).findByText('Concluída');
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar Faturamento' }));
    expect(await screen.findByText(`O mês ${MES_BR} já foi faturado. Uma nova execução emitirá apenas as faturas que ainda faltam e pode levar alguns minutos. Deseja continuar?`)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Não' }));

    await userEvent.click(within(tabela).getByRole('link', { name: `Ver faturas de ${MES_ANTIGO_BR}` }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/fatura/consultarFatura'));
    await waitFor(() => expect(faturas.length).toBeGreaterThan(0));
    expect(faturas[0]!.searchParams.get('dataInicio')).toBe(MES_ANTIGO);
    expect(faturas[0]!.searchParams.get('dataFim')).toBe(MES_ANTIGO);
    expect(faturas[0]!.searchParams.get('cnpj')).toBeNull();
  });

  it('is not offered to a client user', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(200, [])));
    signIn(['cliente'], { clienteId: 'c-1' });
    const { router } = renderApp('/app/fatura/faturamentoMensal');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/not-authorized'));
  });
});
