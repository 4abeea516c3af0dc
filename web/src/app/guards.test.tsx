import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, signIn } from '../test/render';
import { APP_PAGES, page } from './routes';

// A page added the way every new page is added: one line with its route name.
const withUserList = [...APP_PAGES.filter((p) => p.name !== 'user-list'), page('user-list', async () => ({ default: () => <h1>Lista de usuários</h1> }))];

describe('guards', () => {
  it('sends a visitor without a session from the dashboard to /', async () => {
    const { router } = renderApp('/app');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'PLAC Fat-e' })).toBeTruthy();
    expect(screen.queryByText(/Bem-vindo/)).toBeNull();
  });

  it('sends a visitor without a session from a role-guarded page to /', async () => {
    const { router } = renderApp('/app/user', withUserList);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByText('Lista de usuários')).toBeNull();
  });

  it('sends a signed-in user from the login route to the dashboard', async () => {
    signIn(['cliente']);
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    expect(await screen.findByRole('heading', { name: 'Bem-vindo(a), Maria Souza' })).toBeTruthy();
  });

  it('sends a role without access to Acesso Negado', async () => {
    signIn(['sefaz_gestor']);
    const { router } = renderApp('/app/user', withUserList);
    expect(await screen.findByRole('heading', { name: 'Acesso Negado' })).toBeTruthy();
    expect(screen.getByText('Você não tem acesso a esta funcionalidade.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/app/not-authorized');
    expect(screen.queryByText('Lista de usuários')).toBeNull();
  });

  it('sends a Sefaz user who must enrol the second factor from any page to the profile (issue 42)', async () => {
    signIn(['sefaz_admin'], { segundoFatorObrigatorio: true });
    const { router } = renderApp('/app/user', withUserList);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/profile'));
    expect(screen.queryByText('Lista de usuários')).toBeNull();
  });

  it('opens the page for a role with access', async () => {
    signIn(['sefaz_admin']);
    renderApp('/app/user', withUserList);
    expect(await screen.findByRole('heading', { name: 'Lista de usuários' })).toBeTruthy();
  });

  it('runs the guards again on in-app navigation', async () => {
    signIn(['sefaz_gestor']);
    const { router } = renderApp('/app', withUserList);
    await screen.findByRole('heading', { name: /Bem-vindo/ });
    await router.navigate('/app/user');
    expect(await screen.findByRole('heading', { name: 'Acesso Negado' })).toBeTruthy();
  });

  it('shows the 404 page for an unknown path, in and out of /app', async () => {
    renderApp('/nao-existe');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voltar ao início' }).getAttribute('href')).toBe('/');
  });

  it('shows the 404 page inside the layout for an unknown /app path', async () => {
    signIn(['sefaz_admin']);
    renderApp('/app/nao-existe');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Menu principal' })).toBeTruthy();
  });
});

describe('public pages', () => {
  it('presents the platform and links the API reference at the root', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'PLAC Fat-e' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Referência da API' }).getAttribute('href')).toBe('/api/docs');
  });

  it('shows the message page title and body from search parameters', async () => {
    renderApp(`/message?${new URLSearchParams({ title: 'Consentimento registrado', body: 'Obrigado.' })}`);
    expect(await screen.findByRole('heading', { name: 'Consentimento registrado' })).toBeTruthy();
    expect(screen.getByText('Obrigado.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Voltar ao início' })).toBeTruthy();
  });

  it('shows the message page title and body from route parameters', async () => {
    const { router } = renderApp('/message/Cadastro%20realizado/Voc%C3%AA%20receber%C3%A1%20um%20e-mail.');
    expect(await screen.findByRole('heading', { name: 'Cadastro realizado' })).toBeTruthy();
    expect(screen.getByText('Você receberá um e-mail.')).toBeTruthy();
    screen.getByRole('button', { name: 'Voltar ao início' }).click();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
