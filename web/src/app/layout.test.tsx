import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSession, saveFilter } from '../lib/session';
import { jsonResponse, renderApp, signIn } from '../test/render';

function sideMenu() {
  return screen.getByRole('navigation', { name: 'Menu principal' });
}

describe('layout of the authenticated area', () => {
  it('shows the product name and version 2.10.0', async () => {
    signIn(['sefaz_gestor']);
    renderApp('/app');
    expect(await screen.findByText('PLAC Fat-e')).toBeTruthy();
    expect(screen.getByText('versão 2.10.0')).toBeTruthy();
  });

  it('offers a sefaz_gestor the items the access table allows and none of the admin-only ones', async () => {
    signIn(['sefaz_gestor']);
    renderApp('/app');
    const menu = await waitFor(sideMenu);
    const link = (name: string) => within(menu).queryByRole('link', { name });

    expect(link('Clientes')?.getAttribute('href')).toBe('/app/cliente');
    expect(link('Documentos com Erro')?.getAttribute('href')).toBe('/app/documentos-erro');
    expect(link('Importação de Lote')?.getAttribute('href')).toBe('/app/processamento/loteProcessamento');
    expect(link('Consumo por UF')?.getAttribute('href')).toBe('/app/consulta/consumoUF');
    expect(link('Pagamento de Serviços')).toBeTruthy();

    for (const adminOnly of ['Usuários', 'Faixas de Cobrança', 'Gestão de Serviços', 'Rateio', 'Consulta Fat-e']) {
      expect(link(adminOnly), adminOnly).toBeNull();
    }
    // Groups without a visible item disappear.
    expect(within(menu).queryByText('Pagamentos antecipados')).toBeNull();
    expect(within(menu).queryByText('Monitoramento')).toBeNull();
    expect(within(menu).getByText('Administração')).toBeTruthy();
  });

  it('gives an admin the admin-only items', async () => {
    signIn(['sefaz_admin']);
    renderApp('/app');
    const menu = await waitFor(sideMenu);
    expect(within(menu).getByRole('link', { name: 'Faixas de Cobrança' }).getAttribute('href')).toBe('/app/consulta/faixaCobranca');
    expect(within(menu).getByRole('link', { name: 'Usuários' })).toBeTruthy();
  });

  it('links a client user to their own client data', async () => {
    signIn(['cliente'], { clienteId: 'c-42' });
    renderApp('/app');
    const menu = await waitFor(sideMenu);
    expect(within(menu).getByRole('link', { name: 'Dados do Cliente' }).getAttribute('href')).toBe('/app/cliente/edit/c-42');
  });

  it('welcomes the user by name on the dashboard', async () => {
    signIn(['sefaz_gestor']);
    renderApp('/app');
    expect(await screen.findByRole('heading', { name: 'Bem-vindo(a), Maria Souza' })).toBeTruthy();
    expect(screen.getByText('Perfil: Gestor')).toBeTruthy();
  });

  it('logs out from the top bar: session and filters cleared, back to /, success toast', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(200, { message: 'ok' })));
    signIn(['sefaz_admin']);
    saveFilter('cliente', { razao_social: 'ACME' });
    const { router } = renderApp('/app');
    await userEvent.click(await screen.findByRole('button', { name: 'Sair' }));

    // The logout's module loads on the click (TopBar.tsx), so the session ends a moment later.
    await waitFor(() => expect(getSession()).toMatchObject({ user: null, token: null, filters: {} }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Sessão encerrada com sucesso')).toBeTruthy();
    expect(sessionStorage.length).toBe(0);
  });

  it('sends an issuer back to the issuer login on logout', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(200, { message: 'ok' })));
    signIn(['emissor']);
    const { router } = renderApp('/app');
    await userEvent.click(await screen.findByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/emissor/login'));
  });

  it('scrolls to the top on every navigation', async () => {
    signIn(['sefaz_admin']);
    const { router } = renderApp('/app');
    await screen.findByRole('heading', { name: /Bem-vindo/ });
    const scrollTo = window.scrollTo as unknown as { mock: { calls: unknown[] }; mockClear(): void };
    scrollTo.mockClear();
    await router.navigate('/app/not-authorized');
    await screen.findByRole('heading', { name: 'Acesso Negado' });
    await waitFor(() => expect(scrollTo.mock.calls).toContainEqual([0, 0]));
  });
});

describe('top bar', () => {
  it("'Sair' tells the API (POST /api/v1/logout with the token) before clearing the session", async () => {
    const seen: { url: string; method?: string; auth: string | null; signedIn: boolean }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push({ url, method: init.method, auth: new Headers(init.headers).get('authorization'), signedIn: getSession().user !== null });
        return jsonResponse(200, { message: 'Sessão encerrada.' });
      }),
    );
    // A client role without the dashboard's projected bill: the logout is the only call.
    signIn(['cliente_web'], {}, 'tok-logout');
    const { router } = renderApp('/app');
    await userEvent.click(await screen.findByRole('button', { name: 'Sair' }));

    expect(seen).toEqual([{ url: '/api/v1/logout', method: 'POST', auth: 'Bearer tok-logout', signedIn: true }]);
    expect(getSession()).toMatchObject({ user: null, token: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('signs out even when the logout call fails, without an error toast', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(401, { error: 'token_expired' })));
    signIn(['sefaz_gestor']);
    const { router } = renderApp('/app');
    await userEvent.click(await screen.findByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getSession().user).toBeNull();
    expect(await screen.findByText('Sessão encerrada com sucesso')).toBeTruthy();
    expect(screen.queryByText('Você foi deslogado do sistema por inatividade. Favor entrar no sistema novamente.')).toBeNull();
  });

  it("links 'Meu perfil' beside the user's name", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(200, { userId: 'u-1', name: 'Maria Souza', email: 'maria@example.com', tipo: 'S', roles: ['sefaz_gestor'], image: null, prazoSemCertificado: null, podeAlterarSenha: true })));
    signIn(['sefaz_gestor']);
    const { router } = renderApp('/app');
    const link = await screen.findByRole('link', { name: 'Meu perfil' });
    expect(link.getAttribute('href')).toBe('/app/profile');
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/profile'));
    expect(await screen.findByRole('heading', { name: 'Meu perfil' })).toBeTruthy();
  });
});
