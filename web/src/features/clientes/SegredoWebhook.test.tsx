import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, signIn } from '../../test/render';
import { SEGREDO_TEXTOS, SegredoWebhook } from './SegredoWebhook';

const CNPJ = '11222333000181';

describe('webhook signing secret', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says there is none, makes one after the confirmation, shows it once and then only when it was made', async () => {
    signIn(['cliente'], { clienteId: 'c-1' });
    let criado: string | null = null;
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        calls.push(`${init.method ?? 'GET'} ${url}`);
        if (init.method === 'POST') {
          criado = '2026-11-23T12:00:00.000Z';
          return jsonResponse(201, { segredo: 'whsec_abcdefghijklmnopqrstuvwxyz012345', criadoEm: criado });
        }
        return jsonResponse(200, { criadoEm: criado, criadoPor: criado ? 'Maria Souza' : null });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SegredoWebhook cnpj={CNPJ} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(SEGREDO_TEXTOS.nenhum)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: SEGREDO_TEXTOS.gerar }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect((await screen.findByLabelText('Segredo de assinatura')).textContent).toBe('whsec_abcdefghijklmnopqrstuvwxyz012345');
    expect(screen.getByText(SEGREDO_TEXTOS.aviso)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^Segredo gerado em 23\/11\/2026 .* por Maria Souza\.$/));
    expect(calls).toContain(`POST /api/v1/webhook-cliente/${CNPJ}/segredo`);
  });
});
