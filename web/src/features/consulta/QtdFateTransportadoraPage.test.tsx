import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, signIn } from '../../test/render';
import { INTERVALO_TOTAL_MS } from './QtdFateTransportadoraPage';

/**
 * The carrier report's grand total under a filter (issue 38 item 2): while the job computes it the
 * footer says so ('Calculando total…', from the catalogue) and the page asks again every
 * INTERVALO_TOTAL_MS; once the answer has it, the total is shown and the page stops asking.
 */

const LINHA = { cnpj: '11222333000181', nome: 'Transportes Rápidos', dhRecbto: '2026-11-02', qtdFate: 3, total: 3 };

function stub(respostas: unknown[]) {
  const corpos: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: string, init: RequestInit = {}) => {
      corpos.push(typeof init.body === 'string' ? JSON.parse(init.body) : undefined);
      return jsonResponse(200, respostas.length > 1 ? respostas.shift() : respostas[0]);
    }),
  );
  return corpos;
}

const totais = () => [...document.querySelectorAll('tfoot tr')].map((r) => r.textContent);

describe('consulta-qtd-fate-transportadora: the grand total of a filter', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows "Calculando total…" while the total is computed, asks again until it is ready, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(['sefaz_admin']);
    const corpos = stub([
      { linhas: [LINHA], situacaoTotalGeral: 'CONCLUIDO', totalGeral: 40 },
      { linhas: [LINHA], situacaoTotalGeral: 'PROCESSANDO' },
      { linhas: [LINHA], situacaoTotalGeral: 'PROCESSANDO' },
      { linhas: [LINHA], situacaoTotalGeral: 'CONCLUIDO', totalGeral: 123_456, totalGeralCalculadoEm: '2026-11-23T15:04:00.000Z' },
    ]);
    renderApp('/app/consulta/qtd-fate-transportadora');
    await waitFor(() => expect(totais()).toEqual(['Total3', 'Total Geral40']));
    const pedidos = corpos.length;

    await userEvent.type(screen.getByLabelText('Nome'), 'rápidos');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(totais()).toEqual(['Total3', 'Total GeralCalculando total…']));
    expect(corpos.at(-1)).toMatchObject({ razaoSocialTransportadora: 'rápidos' });
    const status = within(document.querySelector('tfoot')!).getByRole('status');
    expect(status.textContent).toBe('Calculando total…');

    // Asked again with the same filters, every INTERVALO_TOTAL_MS, until the total is there.
    await vi.advanceTimersByTimeAsync(INTERVALO_TOTAL_MS);
    await waitFor(() => expect(corpos.length).toBe(pedidos + 2));
    expect(totais()).toEqual(['Total3', 'Total GeralCalculando total…']);
    await vi.advanceTimersByTimeAsync(INTERVALO_TOTAL_MS);
    await waitFor(() => expect(totais()).toEqual(['Total3', 'Total Geral123456']));
    expect(corpos.slice(pedidos)).toEqual(Array(3).fill(corpos.at(-1)));
    expect(within(document.querySelector('tfoot')!).getByRole('status').getAttribute('title')).toMatch(/^Total calculado em 23\/11\/2026 \d\d:04\.$/);

    // Ready: no more requests.
    const feitos = corpos.length;
    await vi.advanceTimersByTimeAsync(INTERVALO_TOTAL_MS * 3);
    expect(corpos.length).toBe(feitos);
  });

  it('shows the catalogue\'s message and "Tentar novamente" when the report fails, never "Nenhum registro encontrado"', async () => {
    signIn(['sefaz_admin']);
    let falhar = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => (falhar ? jsonResponse(503, { error: 'servicoIndisponivel', message: 'Serviço indisponível.' }) : jsonResponse(200, { linhas: [LINHA], situacaoTotalGeral: 'CONCLUIDO', totalGeral: 3 }))),
    );
    renderApp('/app/consulta/qtd-fate-transportadora');
    const tentar = await screen.findByRole('button', { name: 'Tentar novamente' }, { timeout: 10_000 });
    expect(tentar.closest('[role="alert"]')?.textContent).toContain('Serviço indisponível');
    expect(screen.queryByText('Nenhum registro encontrado')).toBeNull();

    falhar = false;
    await userEvent.click(tentar);
    await waitFor(() => expect(screen.getByText('Transportes Rápidos')).toBeTruthy());
  });
});
