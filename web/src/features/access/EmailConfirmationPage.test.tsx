import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../lib/session';
import { recordToasts } from '../../test/toasts';
import { renderApp, signIn } from '../../test/render';
import { json, loginUser, stubApi } from '../../test/access-api';

const toasts = recordToasts();

describe('e-mail change confirmation /perfil/confirmar-email/:token', () => {
  it('changes nothing on opening; the button sends the token, clears the local session and goes to the login', async () => {
    signIn(['sefaz_gestor'], loginUser(), 'tok-1');
    const calls = stubApi(({ url }) =>
      url === '/api/v1/profile/email/confirmacao' ? json(200, { message: 'E-mail alterado. Entre novamente com o novo e-mail.' }) : undefined,
    );
    renderApp('/perfil/confirmar-email/abc123');
    const button = await screen.findByRole('button', { name: 'Confirmar novo e-mail' });
    expect(calls.filter((c) => c.url === '/api/v1/profile/email/confirmacao')).toHaveLength(0);
    await userEvent.click(button);
    await waitFor(() => expect(toasts.map((t) => t.detail)).toContain('E-mail alterado. Entre novamente com o novo e-mail.'));
    expect(calls.find((c) => c.url === '/api/v1/profile/email/confirmacao')!.body).toEqual({ token: 'abc123' });
    expect(getSession().user).toBeNull();
  });

  it('shows the API’s message for a spent or unknown link', async () => {
    stubApi(({ url }) =>
      url === '/api/v1/profile/email/confirmacao'
        ? json(400, { error: 'emailConfirmacaoInvalida', message: 'O link de confirmação de e-mail é inválido ou expirou.' })
        : undefined,
    );
    renderApp('/perfil/confirmar-email/gasto');
    await userEvent.click(await screen.findByRole('button', { name: 'Confirmar novo e-mail' }));
    await waitFor(() => expect(toasts.map((t) => t.detail)).toContain('O link de confirmação de e-mail é inválido ou expirou.'));
  });
});
