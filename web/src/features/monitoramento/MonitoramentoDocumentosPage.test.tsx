import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ROUTE_ACCESS, type Role } from '@plac/shared/access';
import { buildChaveAcesso } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { setNavigator } from '../../lib/navigation';
import { login } from '../../lib/session';
import { PageShell } from '../../test/shell';
import { jsonResponse, pickOption, stubApi } from '../../test/api-stub';
import MonitoramentoDocumentosPage, { chaveAgrupada } from './MonitoramentoDocumentosPage';

const PATH = `/app/${ROUTE_ACCESS['monitoramento-documentos'].path}`;
const API = '/api/v1/monitoramento-documentos';
const CLIENTES = [{ id: 'c-1', cnpj: '11222333000181', razao_social: 'Banco Alfa S.A.', tipo_cliente: 'ESF', situacao: 'A' }];
const CHAVE = buildChaveAcesso({ cUF: 25, aamm: '2611', cnpj: '11222333000181', mod: '55', serie: 1, nNF: 7, cNF: 12345678 });

const item = (chave = CHAVE) => ({ chave, uf: 'PB', emitenteCnpj: '11222333000181', modelo: '55', cadastradaEm: '2026-11-20T13:00:00.000Z', cadastradaPor: 'Maria Souza' });

function signInAs(roles: Role[], clienteId?: string) {
  const tipo = roles.some((r) => r.startsWith('sefaz')) ? 'S' : 'C';
  login({ userId: 'u-1', name: 'Maria Souza', tipo, roles, email: 'maria@example.com', ...(clienteId ? { clienteId } : {}) }, 'token-1');
}

function renderPage() {
  const router = createMemoryRouter(
    [{ path: '/app', element: <PageShell />, children: [{ path: ROUTE_ACCESS['monitoramento-documentos'].path, element: <MonitoramentoDocumentosPage /> }] }],
    { initialEntries: [PATH] },
  );
  setNavigator((to, options) => void router.navigate(to, options));
  return render(<RouterProvider router={router} />);
}

describe('monitoramento-documentos', { timeout: 20_000 }, () => {
  it("a monitoring user's own client is named by its razão social, never 'Meu cliente'", async () => {
    login({ userId: 'u-1', name: 'Maria Souza', tipo: 'C', roles: ['cliente_monitoramento'], email: 'maria@example.com', clienteId: 'c-1', cnpj: '11222333000181', razaoSocial: 'Banco Alfa S.A.' }, 'token-1');
    stubApi({ [`GET ${API}`]: jsonResponse(200, { items: [], total: 0 }) });
    const view = renderPage();
    const dropdown = (await screen.findByLabelText('Cliente')).closest('.p-dropdown')!;
    await waitFor(() => expect(dropdown.querySelector('.p-dropdown-label')!.textContent).toBe('Banco Alfa S.A.'));
    expect(screen.queryByText('Meu cliente')).toBeNull();
    view.unmount();
    // A session kept from before the name was: the company's CNPJ.
    login({ userId: 'u-1', name: 'Maria Souza', tipo: 'C', roles: ['cliente_monitoramento'], email: 'maria@example.com', clienteId: 'c-1', cnpj: '11222333000181' }, 'token-1');
    renderPage();
    const outro = (await screen.findByLabelText('Cliente')).closest('.p-dropdown')!;
    await waitFor(() => expect(outro.querySelector('.p-dropdown-label')!.textContent).toBe('11.222.333/0001-81'));
  });

  it('groups a key by 4', () => {
    expect(chaveAgrupada('12345678')).toBe('1234 5678');
  });

  it('a monitoring user lists its keys, adds one after the page checks it, and removes one after confirming', async () => {
    signInAs(['cliente_monitoramento'], 'c-1');
    const api = stubApi({
      [`GET ${API}`]: jsonResponse(200, { items: [item()], total: 1 }),
      [`POST ${API}`]: jsonResponse(201, { message: MESSAGES.chaveMonitoradaCadastrada, chave: item() }),
      [`DELETE ${API}/${CHAVE}`]: jsonResponse(200, { message: MESSAGES.chaveMonitoradaRemovida }),
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Chaves monitoradas' });
    expect(await within(table).findByText(chaveAgrupada(CHAVE))).toBeTruthy();
    expect(api.of('GET', API)[0]!.query.get('idCliente')).toBeNull();
    expect(api.of('GET', '/api/v1/cliente/get-all-cliente')).toEqual([]);

    // An invalid key never leaves the page.
    fireEvent.change(screen.getByLabelText('Chave de Acesso'), { target: { value: CHAVE.slice(0, 43) + ((Number(CHAVE[43]) + 1) % 10) } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText(MESSAGES.chaveMonitoradaInvalida)).toBeTruthy();
    expect(api.of('POST', API)).toEqual([]);

    fireEvent.change(screen.getByLabelText('Chave de Acesso'), { target: { value: chaveAgrupada(CHAVE) } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(api.of('POST', API)).toHaveLength(1));
    expect(api.of('POST', API)[0]!.body).toEqual({ chave: CHAVE });
    expect(await screen.findByText(MESSAGES.chaveMonitoradaCadastrada)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: `Remover a chave ${CHAVE}` }));
    expect(await screen.findByText(`Deseja remover a chave de acesso ${chaveAgrupada(CHAVE)} do monitoramento?`)).toBeTruthy();
    expect(api.of('DELETE', `${API}/${CHAVE}`)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(api.of('DELETE', `${API}/${CHAVE}`)).toHaveLength(1));
  });

  it('an administrator picks the client first; the calls name it', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      [`GET ${API}`]: jsonResponse(200, { items: [], total: 0 }),
      'GET /api/v1/cliente/get-all-cliente': jsonResponse(200, CLIENTES),
      [`POST ${API}`]: jsonResponse(201, { message: MESSAGES.chaveMonitoradaCadastrada, chave: item() }),
    });
    renderPage();
    expect(await screen.findByText('Monitoramento de Documentos', { selector: 'h1' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Adicionar' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.of('GET', API)).toEqual([]);
    await pickOption(screen.getByLabelText('Cliente'), 'Banco Alfa S.A. - 11.222.333/0001-81');
    await waitFor(() => expect(api.of('GET', API).at(-1)!.query.get('idCliente')).toBe('c-1'));
    fireEvent.change(screen.getByLabelText('Chave de Acesso'), { target: { value: CHAVE } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(api.of('POST', API)[0]?.body).toEqual({ idCliente: 'c-1', chave: CHAVE }));
  });
});
