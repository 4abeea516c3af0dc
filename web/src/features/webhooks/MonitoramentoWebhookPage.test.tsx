import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROUTE_ACCESS, type Role } from '@plac/shared/access';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { setNavigator } from '../../lib/navigation';
import { login } from '../../lib/session';
import { PageShell } from '../../test/shell';
import { jsonResponse, pickOption, stubApi } from '../../test/api-stub';
import MonitoramentoWebhookPage, { jsonFormatado } from './MonitoramentoWebhookPage';

const PATH = `/app/${ROUTE_ACCESS['monitoramento-webhook'].path}`;
const LISTA = 'GET /api/v1/webhook-monitoramento';
const CLIENTES = [{ id: 'c-1', cnpj: '11222333000181', razao_social: 'Banco Alfa S.A.', tipo_cliente: 'ESF', situacao: 'A' }];

function mensagem(n: number, situacao: 'PENDENTE' | 'FALHA' = 'FALHA') {
  return {
    deliveryId: `d-${n}`,
    clienteId: 'c-1',
    razaoSocial: 'Banco Alfa S.A.',
    dataCriacao: '2026-11-20T13:00:00.000Z',
    operacao: 'EVENTO',
    descricao: `Evento ${n}`,
    tentativas: 5,
    ultimaTentativa: '2026-11-20T13:05:00.000Z',
    situacao,
    body: `{"chave":"${n}","itens":[1,2]}`,
  };
}

function signInAs(roles: Role[], clienteId?: string) {
  const tipo = roles.some((r) => r.startsWith('sefaz')) ? 'S' : 'C';
  login({ userId: 'u-1', name: 'Maria Souza', tipo, roles, email: 'maria@example.com', ...(clienteId ? { clienteId } : {}) }, 'token-1');
}

function renderPage() {
  const router = createMemoryRouter(
    [{ path: '/app', element: <PageShell />, children: [{ path: ROUTE_ACCESS['monitoramento-webhook'].path, element: <MonitoramentoWebhookPage /> }] }],
    { initialEntries: [PATH] },
  );
  setNavigator((to, options) => void router.navigate(to, options));
  return render(<RouterProvider router={router} />);
}

/** A resume or replay-all job as the API answers it. */
const job = (jobId: string, situacao: 'EM_ANDAMENTO' | 'CONCLUIDO', enfileiradas: number, message: string) => ({
  jobId,
  tipo: jobId.startsWith('retomada') ? 'retomada' : 'reenvio',
  situacao,
  enfileiradas,
  iniciadoEm: '2026-11-21T10:00:00.000Z',
  concluidoEm: situacao === 'CONCLUIDO' ? '2026-11-21T10:00:05.000Z' : null,
  message,
});

describe('monitoramento-webhook', { timeout: 20_000 }, () => {
  it('formats the body as indented JSON', () => {
    expect(jsonFormatado('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(jsonFormatado('não é json')).toBe('não é json');
  });

  it('an administrator sees all clients by default, 10 a page, and filters by one', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      [LISTA]: jsonResponse(200, { items: Array.from({ length: 10 }, (_, i) => mensagem(i + 1)), nextCursor: 'c2' }),
      'GET /api/v1/cliente/get-all-cliente': jsonResponse(200, CLIENTES),
    });
    renderPage();
    expect(await screen.findByText('Evento 1')).toBeTruthy();
    const primeira = api.of('GET', '/api/v1/webhook-monitoramento')[0]!.query;
    expect(primeira.get('idCliente')).toBeNull();
    expect(primeira.get('perPage')).toBe('10');
    expect(primeira.get('cursor')).toBeNull();
    expect(screen.getByText('Página 1')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/webhook-monitoramento').at(-1)!.query.get('cursor')).toBe('c2'));
    expect(await screen.findByText('Página 2')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Mensagens de webhook' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Razão Social', 'Data de Criação', 'Descrição', 'Tentativas', 'Última Tentativa', 'Situação', 'Ações']);
    await pickOption(screen.getByLabelText('Cliente'), 'Banco Alfa S.A. - 11.222.333/0001-81');
    await waitFor(() => expect(api.of('GET', '/api/v1/webhook-monitoramento').at(-1)!.query.get('idCliente')).toBe('c-1'));
  });

  it('a monitoring user has its client fixed; the body opens as formatted JSON; a failed row is replayed', async () => {
    signInAs(['cliente_monitoramento'], 'c-1');
    const api = stubApi({
      [LISTA]: jsonResponse(200, { items: [mensagem(1), mensagem(2, 'PENDENTE')] }),
      'POST /api/v1/webhook-monitoramento/d-1/reenvio': jsonResponse(200, { message: 'Mensagem enviada novamente para entrega.' }),
      'GET /api/v1/webhook-monitoramento/d-1/tentativas': jsonResponse(200, [{ numero: 1, instante: '2026-11-20T13:00:00.000Z', status: 503, erro: null, latenciaMs: 40 }]),
    });
    renderPage();
    expect(await screen.findByText('Evento 1')).toBeTruthy();
    expect(screen.getByLabelText('Cliente').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    expect(api.of('GET', '/api/v1/cliente/get-all-cliente')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Ver corpo da mensagem Evento 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Corpo da mensagem' });
    expect(dialog.querySelector('pre')!.textContent).toBe(jsonFormatado(mensagem(1).body));
    fireEvent.keyDown(dialog, { key: 'Escape' });

    fireEvent.click(screen.getByRole('button', { name: 'Ver tentativas da mensagem Evento 1' }));
    expect(await screen.findByText('HTTP 503')).toBeTruthy();
    expect(screen.getByText('40 ms')).toBeTruthy();

    expect((screen.getByRole('button', { name: 'Reenviar a mensagem Evento 2' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar a mensagem Evento 1' }));
    await waitFor(() => expect(api.of('POST', '/api/v1/webhook-monitoramento/d-1/reenvio')).toHaveLength(1));
    expect(await screen.findByText('Mensagem enviada novamente para entrega.')).toBeTruthy();
  });

  it('replays every failed delivery of the period after a confirmation, as a job followed to its end', async () => {
    signInAs(['sefaz_admin']);
    let consultas = 0;
    const api = stubApi({
      [LISTA]: jsonResponse(200, { items: [mensagem(1)] }),
      'GET /api/v1/cliente/get-all-cliente': jsonResponse(200, CLIENTES),
      'POST /api/v1/webhook-monitoramento/reenvio': jsonResponse(202, job('reenvio', 'EM_ANDAMENTO', 0, '0 mensagem(ns) enviada(s) para entrega até agora.')),
      'GET /api/v1/webhook-monitoramento-jobs/reenvio': () => {
        consultas++;
        return jsonResponse(200, consultas === 1
          ? job('reenvio', 'EM_ANDAMENTO', 10, '10 mensagem(ns) enviada(s) para entrega até agora.')
          : job('reenvio', 'CONCLUIDO', 12, '12 mensagem(ns) com falha enviada(s) novamente para entrega.'));
      },
    });
    renderPage();
    expect(await screen.findByText('Evento 1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar todas com falha' }));
    expect(await screen.findByText('Reenviar todas as mensagens com falha do período?')).toBeTruthy();
    expect(api.of('POST', '/api/v1/webhook-monitoramento/reenvio')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(api.of('POST', '/api/v1/webhook-monitoramento/reenvio')).toHaveLength(1));
    const body = api.of('POST', '/api/v1/webhook-monitoramento/reenvio')[0]!.body as Record<string, string>;
    expect(body.dataInicial).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.idCliente).toBeUndefined();
    // The job runs in the background: its progress, then its result, and the list is read again.
    expect(await screen.findByText('Reenvio das mensagens com falha em andamento: 10 mensagem(ns) enviada(s) para entrega até agora.', {}, { timeout: 3000 })).toBeTruthy();
    expect(await screen.findByText('12 mensagem(ns) com falha enviada(s) novamente para entrega.', {}, { timeout: 3000 })).toBeTruthy();
    await waitFor(() => expect(api.of('GET', '/api/v1/webhook-monitoramento').length).toBeGreaterThan(1));
  });

  it("a monitoring user without messages sees its razão social, never 'Meu cliente'", async () => {
    login({ userId: 'u-1', name: 'Maria Souza', tipo: 'C', roles: ['cliente_monitoramento'], email: 'maria@example.com', clienteId: 'c-1', cnpj: '11222333000181', razaoSocial: 'Banco Alfa S.A.' }, 'token-1');
    stubApi({ [LISTA]: jsonResponse(200, { items: [] }), 'GET /api/v1/webhook-monitoramento/pausas': jsonResponse(200, []) });
    renderPage();
    const dropdown = (await screen.findByLabelText('Cliente')).closest('.p-dropdown')!;
    await waitFor(() => expect(dropdown.querySelector('.p-dropdown-label')!.textContent).toBe('Banco Alfa S.A.'));
    expect(screen.queryByText('Meu cliente')).toBeNull();
  });

  it('shows a paused endpoint with its held messages and resumes it', async () => {
    signInAs(['cliente_monitoramento'], 'c-1');
    let pausado = true;
    const api = stubApi({
      [LISTA]: jsonResponse(200, { items: [mensagem(1, 'PAUSADA' as never)] }),
      'GET /api/v1/webhook-monitoramento/pausas': () =>
        jsonResponse(200, pausado ? [{ clienteId: 'c-1', razaoSocial: 'Banco Alfa S.A.', operacao: 'ESCR_FAT', url: 'https://erp.alfa.example/hook', pausadoEm: '2026-11-21T10:00:00.000Z', retomando: false }] : []),
      'POST /api/v1/webhook-monitoramento/pausas/c-1/ESCR_FAT/retomada': () =>
        jsonResponse(202, job('retomada.c-1.ESCR_FAT', 'EM_ANDAMENTO', 0, '0 mensagem(ns) enviada(s) para entrega até agora.')),
      // The job deletes the pause when it has queued every held message.
      'GET /api/v1/webhook-monitoramento-jobs/retomada.c-1.ESCR_FAT': () => {
        pausado = false;
        return jsonResponse(200, job('retomada.c-1.ESCR_FAT', 'CONCLUIDO', 1, 'Envio retomado: 1 mensagem(ns) retida(s) enviada(s) para entrega.'));
      },
    });
    renderPage();
    const painel = await screen.findByRole('region', { name: 'Envios de webhook pausados' });
    expect(painel.textContent).toContain('operação ESCR_FAT, https://erp.alfa.example/hook');
    expect(await screen.findByText('Retida (envio pausado)')).toBeTruthy();
    expect(api.of('GET', '/api/v1/webhook-monitoramento/pausas')[0]!.query.get('idCliente')).toBe('c-1');
    fireEvent.click(within(painel).getByRole('button', { name: 'Retomar envio' }));
    expect(await screen.findByText('Retomada do envio iniciada: as mensagens retidas estão sendo enviadas para entrega.')).toBeTruthy();
    expect(await screen.findByText('Envio retomado: 1 mensagem(ns) retida(s) enviada(s) para entrega.', {}, { timeout: 3000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Envios de webhook pausados' })).toBeNull());
  });
});
