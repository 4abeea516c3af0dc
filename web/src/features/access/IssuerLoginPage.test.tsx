import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resetMtlsBaseUrl } from '../../lib/api';
import { getSession } from '../../lib/session';
import { recordToasts } from '../../test/toasts';
import { renderApp, signIn } from '../../test/render';
import { configResponse, json, loginUser, MTLS_BASE, requestLines, stubApi } from '../../test/access-api';

const toasts = recordToasts(resetMtlsBaseUrl);

const ISSUER_LOGIN = `POST ${MTLS_BASE}/api/v1/authenticate/certificate/emissor`;
const issuer = loginUser({ userId: 'u-e', name: 'Indústria Alfa', roles: ['emissor'], clienteId: undefined, cnpj: '12345678000195' });

async function clickLogin() {
  const button = await screen.findByRole('button', { name: 'Entrar com certificado digital' }, { timeout: 5000 });
  await userEvent.click(button);
}

describe('issuer login /emissor/login', () => {
  it('signs in with the certificate on the mTLS domain and goes to the acceptance terms', async () => {
    const calls = stubApi(({ method, url }) => {
      if (url === '/api/v1/config') return configResponse();
      if (`${method} ${url}` === ISSUER_LOGIN) return json(200, { user: issuer, token: 'tok-emissor' });
      return undefined;
    });
    const { router } = renderApp('/emissor/login');
    await clickLogin();

    await waitFor(() => expect(router.state.location.pathname).toBe('/app/emissor/termo-aceitacao'));
    expect(await screen.findByRole('heading', { name: 'Termo de Aceitação' })).toBeTruthy();
    expect(getSession()).toMatchObject({ token: 'tok-emissor', user: { roles: ['emissor'], cnpj: '12345678000195' } });
    // Then the terms page reads the issuer's consent (features/consentimento).
    expect(requestLines(calls).slice(0, 2)).toEqual(['GET /api/v1/config', ISSUER_LOGIN]);
    expect(calls[1]!.init.credentials).toBe('include');
  });

  it('stays silently on a 410', async () => {
    stubApi(({ url }) => (url === '/api/v1/config' ? configResponse() : json(410, { error: 'recursoNaoEncontrado' })));
    const { router } = renderApp('/emissor/login');
    await clickLogin();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Entrar com certificado digital' }) as HTMLButtonElement).disabled).toBe(false));
    expect(toasts).toEqual([]);
    expect(router.state.location.pathname).toBe('/emissor/login');
    expect(getSession().user).toBeNull();
  });

  it('shows a refused certificate', async () => {
    stubApi(({ url }) => (url === '/api/v1/config' ? configResponse() : json(401, { error: 'certificadoInvalido' })));
    renderApp('/emissor/login');
    await clickLogin();
    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual(['Certificado Inválido']));
    expect(getSession().user).toBeNull();
  });

  it('sends a signed-in user to the dashboard', async () => {
    signIn(['emissor']);
    const { router } = renderApp('/emissor/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
  });
});
