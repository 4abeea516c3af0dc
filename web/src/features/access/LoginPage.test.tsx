import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@plac/shared/messages';
import { resetMtlsBaseUrl } from '../../lib/api';
import { getSession } from '../../lib/session';
import { recordToasts } from '../../test/toasts';
import { renderApp } from '../../test/render';
import { configResponse, fieldMessage, json, loginUser, MTLS_BASE, requestLines, stubApi } from '../../test/access-api';

const toasts = recordToasts(resetMtlsBaseUrl);

const TYPE_CHECK = 'POST /api/v1/authenticate/client/type';
const CERT_LOGIN = `POST ${MTLS_BASE}/api/v1/authenticate/certificate/cliente`;

async function openLogin() {
  const view = renderApp('/');
  await screen.findByRole('tab', { name: 'Cliente PLAC' }, { timeout: 5000 });
  return view;
}

describe("login, tab 'Cliente PLAC'", () => {
  it('209: signs in with the certificate on the mTLS domain and goes to the dashboard', async () => {
    const calls = stubApi(({ method, url }) => {
      const line = `${method} ${url}`;
      if (line === TYPE_CHECK) return json(209, { tipo: 'certificado' });
      if (line === 'GET /api/v1/config') return configResponse();
      if (line === CERT_LOGIN) return json(200, { user: loginUser(), token: 'tok-cert' });
      return undefined;
    });
    const { router } = await openLogin();
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@empresa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    expect(await screen.findByRole('heading', { name: 'Bem-vindo(a), Ana Lima' })).toBeTruthy();
    expect(getSession()).toMatchObject({ token: 'tok-cert', user: { userId: 'u-7', email: 'ana@empresa.com.br' } });
    // The sign-in's calls, then only the dashboard's own reads (issue 28 item 6: the client's open invoices).
    const linhas = requestLines(calls);
    expect(linhas.slice(0, 3)).toEqual([TYPE_CHECK, 'GET /api/v1/config', CERT_LOGIN]);
    expect(linhas.slice(3).every((l) => l.startsWith('GET /api/v1/fatura'))).toBe(true);
    expect(calls[0]!.body).toEqual({ email: 'ana@empresa.com.br' });
    expect(calls[2]!.body).toEqual({ email: 'ana@empresa.com.br' });
    expect(calls[2]!.init.credentials).toBe('include');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('210: opens the password dialog and signs in with loginCliente, never touching the mTLS domain', async () => {
    const calls = stubApi(({ method, url }) => {
      const line = `${method} ${url}`;
      if (line === TYPE_CHECK) return json(210, { tipo: 'senha' });
      if (line === 'POST /api/v1/authenticate/cliente') return json(200, { user: loginUser({ podeAlterarSenha: true }), token: 'tok-senha' });
      return undefined;
    });
    const { router } = await openLogin();
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@empresa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    const dialog = await screen.findByRole('dialog', { name: 'Informe sua senha' });
    expect(router.state.location.pathname).toBe('/');
    await userEvent.type(within(dialog).getByLabelText('Senha'), 's3gredo!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    expect(getSession().token).toBe('tok-senha');
    // The login's own calls (the home page may already be asking for its data once at /app).
    expect(requestLines(calls).filter((l) => l.includes('/authenticate/'))).toEqual([TYPE_CHECK, 'POST /api/v1/authenticate/cliente']);
    expect(calls[1]!.body).toEqual({ email: 'ana@empresa.com.br', password: 's3gredo!' });
  });

  it('shows a refused password in a toast and beside the field, and stays', async () => {
    stubApi(({ url }) => {
      if (url.endsWith('/client/type')) return json(210, { tipo: 'senha' });
      if (url.endsWith('/authenticate/cliente')) return json(422, { errors: { password: ['Senha incorreta para este e-mail.'] } });
      return undefined;
    });
    const { router } = await openLogin();
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@empresa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Informe sua senha' });
    await userEvent.type(within(dialog).getByLabelText('Senha'), 'errada');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Entrar' }));

    const message = await within(dialog).findByRole('alert');
    expect(message.textContent).toBe('Senha incorreta para este e-mail.');
    expect(within(dialog).getByLabelText('Senha').getAttribute('aria-describedby')).toBe(message.id);
    expect(toasts.map((t) => t.detail)).toEqual(['Senha incorreta para este e-mail.']);
    expect(router.state.location.pathname).toBe('/');
    expect(getSession().user).toBeNull();
  });

  it('a 410 on the certificate login clears the errors silently', async () => {
    let typeChecks = 0;
    stubApi(({ url }) => {
      if (url.endsWith('/client/type')) {
        return typeChecks++ === 0 ? json(422, { errors: { email: ['Informe um e-mail válido.'] } }) : json(209, { tipo: 'certificado' });
      }
      if (url === '/api/v1/config') return configResponse();
      if (url.endsWith('/certificate/cliente')) return json(410, { error: 'recursoNaoEncontrado' });
      return undefined;
    });
    const { router } = await openLogin();
    const email = screen.getByLabelText('E-mail');
    await userEvent.type(email, 'ana@');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(fieldMessage(email)).toBe('Informe um e-mail válido.'));
    expect(toasts).toHaveLength(1);

    await userEvent.type(email, 'empresa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(fieldMessage(email)).toBeNull());
    // Silently: no new toast, still on the login.
    expect(toasts).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/');
    expect(getSession().user).toBeNull();
  });

  it('shows any other certificate failure as a toast', async () => {
    stubApi(({ url }) => {
      if (url.endsWith('/client/type')) return json(209, { tipo: 'certificado' });
      if (url === '/api/v1/config') return configResponse();
      if (url.endsWith('/certificate/cliente')) return json(401, { error: 'raizNaoIcpBrasil' });
      return undefined;
    });
    await openLogin();
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@empresa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual(['A raiz do Certificado deve ser ICP-Brasil']));
    expect(toasts[0]!.severity).toBe('error');
    expect(getSession().user).toBeNull();
  });

  it('asks for the e-mail before calling the server', async () => {
    const calls = stubApi(() => undefined);
    await openLogin();
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(fieldMessage(screen.getByLabelText('E-mail'))).toBe('O campo E-mail é obrigatório.');
    expect(calls).toEqual([]);
  });
});

describe("login, tab 'Sefaz'", () => {
  async function openSefaz() {
    const view = await openLogin();
    await userEvent.click(screen.getByRole('tab', { name: 'Sefaz' }));
    await screen.findByLabelText('Senha');
    return view;
  }

  it('signs in with e-mail and password: session stored, on to the dashboard', async () => {
    const admin = loginUser({ userId: 'u-1', name: 'Carlos Admin', tipo: 'S', roles: ['sefaz_admin'], clienteId: undefined, podeAlterarSenha: true });
    const calls = stubApi(({ method, url }) =>
      `${method} ${url}` === 'POST /api/v1/authenticate/sefaz' ? json(200, { user: admin, token: 'tok-sefaz' }) : undefined,
    );
    const { router } = await openSefaz();
    await userEvent.type(screen.getByLabelText('E-mail'), 'carlos@sefaz.ba.gov.br');
    await userEvent.type(screen.getByLabelText('Senha'), 'Senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    expect(await screen.findByRole('heading', { name: 'Bem-vindo(a), Carlos Admin' })).toBeTruthy();
    expect(getSession()).toMatchObject({ token: 'tok-sefaz', user: { userId: 'u-1', roles: ['sefaz_admin'] } });
    // The dashboard then asks for its own data (the admin's client list for the projected bill).
    expect(calls.filter((c) => c.url.startsWith('/api/v1/authenticate')).map((c) => c.body)).toEqual([{ email: 'carlos@sefaz.ba.gov.br', password: 'Senha123' }]);
  });

  it('asks for the second factor after the password: a wrong code toasts and stays, the right one signs in (issue 42)', async () => {
    const admin = loginUser({ userId: 'u-1', name: 'Carlos Admin', tipo: 'S', roles: ['sefaz_admin'], clienteId: undefined, podeAlterarSenha: true });
    const calls = stubApi(({ method, url, body }) => {
      const line = `${method} ${url}`;
      if (line === 'POST /api/v1/authenticate/sefaz') return json(200, { segundoFator: { desafio: 'd'.repeat(43), expiraEm: '2026-12-03T12:05:00.000Z' } });
      if (line === 'POST /api/v1/authenticate/segundo-fator') {
        return (body as { codigo: string }).codigo === '654321' ? json(200, { user: admin, token: 'tok-2fa' }) : json(401, { error: 'codigoInvalido' });
      }
      return undefined;
    });
    const { router } = await openSefaz();
    await userEvent.type(screen.getByLabelText('E-mail'), 'carlos@sefaz.ba.gov.br');
    await userEvent.type(screen.getByLabelText('Senha'), 'Senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    const passo = await screen.findByRole('form', { name: 'Verificação em duas etapas' });
    expect(getSession().user).toBeNull();
    await userEvent.type(within(passo).getByLabelText('Código'), '111111');
    await userEvent.click(within(passo).getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual([MESSAGES.codigoInvalido]));
    expect(router.state.location.pathname).toBe('/');
    await waitFor(() => expect(within(passo).getByLabelText<HTMLInputElement>('Código').value).toBe(''));

    await userEvent.type(within(passo).getByLabelText('Código'), '654321');
    await userEvent.click(within(passo).getByRole('button', { name: 'Verificar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    expect(getSession()).toMatchObject({ token: 'tok-2fa', user: { userId: 'u-1' } });
    expect(calls.filter((c) => c.url === '/api/v1/authenticate/segundo-fator').map((c) => c.body)).toEqual([
      { desafio: 'd'.repeat(43), codigo: '111111' },
      { desafio: 'd'.repeat(43), codigo: '654321' },
    ]);
  });

  it('goes back to the password when the challenge expired', async () => {
    stubApi(({ method, url }) => {
      const line = `${method} ${url}`;
      if (line === 'POST /api/v1/authenticate/sefaz') return json(200, { segundoFator: { desafio: 'd'.repeat(43), expiraEm: '2026-12-03T12:05:00.000Z' } });
      if (line === 'POST /api/v1/authenticate/segundo-fator') return json(401, { error: 'desafioExpirado' });
      return undefined;
    });
    await openSefaz();
    await userEvent.type(screen.getByLabelText('E-mail'), 'carlos@sefaz.ba.gov.br');
    await userEvent.type(screen.getByLabelText('Senha'), 'Senha123');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    const passo = await screen.findByRole('form', { name: 'Verificação em duas etapas' });
    await userEvent.type(within(passo).getByLabelText('Código'), '123456');
    await userEvent.click(within(passo).getByRole('button', { name: 'Verificar' }));
    expect(await screen.findByRole('form', { name: 'Login Sefaz' })).toBeTruthy();
    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual([MESSAGES.desafioExpirado]));
  });

  it('shows wrong credentials as a toast and stays signed out', async () => {
    stubApi(() => json(401, { error: 'credenciaisInvalidas' }));
    const { router } = await openSefaz();
    await userEvent.type(screen.getByLabelText('E-mail'), 'carlos@sefaz.ba.gov.br');
    await userEvent.type(screen.getByLabelText('Senha'), 'errada');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual(['Credenciais Inválidas']));
    expect(router.state.location.pathname).toBe('/');
    expect(getSession().user).toBeNull();
  });

  it("'Esqueci minha senha' sends the link and shows the server's message with the 10-minute note", async () => {
    const calls = stubApi(({ method, url }) =>
      `${method} ${url}` === 'POST /api/v1/password/email'
        ? json(200, { message: 'O link para redefinição de senha foi enviado para seu email.' })
        : undefined,
    );
    await openSefaz();
    await userEvent.type(screen.getByLabelText('E-mail'), 'carlos@sefaz');
    await userEvent.click(screen.getByRole('button', { name: 'Esqueci minha senha' }));

    const dialog = await screen.findByRole('dialog', { name: 'Esqueci minha senha' });
    const email = within(dialog).getByLabelText('E-mail') as HTMLInputElement;
    // The dialog starts from what was typed on the login form.
    expect(email.value).toBe('carlos@sefaz');
    await userEvent.type(email, '.ba.gov.br');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]).toMatchObject({
      severity: 'success',
      detail: 'O link para redefinição de senha foi enviado para seu email.\nCaso não o receba em 10 minutos, tente novamente.',
    });
    expect(calls.map((c) => c.body)).toEqual([{ email: 'carlos@sefaz.ba.gov.br' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the forgot-password dialog open with the field error when the server refuses the e-mail', async () => {
    stubApi(() => json(422, { errors: { email: ['Informe um e-mail válido.'] } }));
    await openSefaz();
    await userEvent.click(screen.getByRole('button', { name: 'Esqueci minha senha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Esqueci minha senha' });
    await userEvent.type(within(dialog).getByLabelText('E-mail'), 'x@y');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Informe um e-mail válido.');
    expect(screen.getByRole('dialog', { name: 'Esqueci minha senha' })).toBeTruthy();
  });
});

describe('the login page', () => {
  it('keeps the product presentation and the API reference link', async () => {
    await openLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'PLAC Fat-e' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Referência da API' }).getAttribute('href')).toBe('/api/docs');
  });
});

describe('the login card when the service does not answer (issue 28)', () => {
  it("says 'Serviço indisponível' inside the client card when the e-mail check answers 503", async () => {
    stubApi(({ method, url }) => (`${method} ${url}` === TYPE_CHECK ? json(503, { message: 'Service Unavailable' }) : undefined));
    await openLogin();
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@empresa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    const card = screen.getByRole('form', { name: 'Login de cliente' });
    expect((await within(card).findByRole('alert')).textContent).toContain('Serviço indisponível');
  });

  it("says 'Serviço indisponível' inside the client card when the e-mail check gets no answer", async () => {
    stubApi(({ method, url }) => (`${method} ${url}` === TYPE_CHECK ? new TypeError('Failed to fetch') : undefined));
    await openLogin();
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@empresa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    const card = screen.getByRole('form', { name: 'Login de cliente' });
    expect((await within(card).findByRole('alert')).textContent).toContain('Serviço indisponível');
  });

  it("says 'Serviço indisponível' inside the Sefaz card on a 500, and nothing inline for a wrong password", async () => {
    let status = 500;
    stubApi(() => (status === 500 ? json(500, { error: 'erroInterno' }) : json(401, { error: 'credenciaisInvalidas' })));
    await openLogin();
    await userEvent.click(screen.getByRole('tab', { name: 'Sefaz' }));
    await screen.findByLabelText('Senha');
    const card = screen.getByRole('form', { name: 'Login Sefaz' });
    await userEvent.type(within(card).getByLabelText('E-mail'), 'carlos@sefaz.ba.gov.br');
    await userEvent.type(within(card).getByLabelText('Senha', { exact: true }), 'x');
    await userEvent.click(within(card).getByRole('button', { name: 'Entrar' }));
    expect((await within(card).findByRole('alert')).textContent).toContain('Serviço indisponível');
    status = 401;
    await userEvent.click(within(card).getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(within(card).queryByText(/Serviço indisponível/)).toBeNull());
  });
});
