import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { recordToasts } from '../../test/toasts';
import { renderApp } from '../../test/render';
import { fieldMessage, json, requestLines, stubApi } from '../../test/access-api';

const toasts = recordToasts();

const TOKEN = 'f3a9c0d1e2b4a5968778695a4b3c2d1e';

async function openReset() {
  const view = renderApp(`/password/reset/${TOKEN}`);
  await screen.findByRole('heading', { name: 'Redefinir senha' }, { timeout: 5000 });
  return {
    ...view,
    email: screen.getByLabelText('E-mail') as HTMLInputElement,
    password: screen.getByLabelText('Senha') as HTMLInputElement,
    confirmation: screen.getByLabelText('Confirmação de senha') as HTMLInputElement,
  };
}

describe('password reset /password/reset/:token', () => {
  it('counts the characters: e-mail n/100, password and confirmation n/20, and stops at the limit', async () => {
    stubApi(() => undefined);
    const { email, password, confirmation } = await openReset();
    expect(screen.getAllByText('0/20')).toHaveLength(2);
    expect(screen.getByText('0/100')).toBeTruthy();

    await userEvent.type(email, 'ana@empresa.com.br');
    expect(screen.getByText('18/100')).toBeTruthy();
    await userEvent.type(password, 'Nova1234');
    expect(screen.getByText('8/20')).toBeTruthy();
    await userEvent.type(confirmation, 'x'.repeat(25));
    expect(confirmation.value).toHaveLength(20);
    expect(screen.getByText('20/20')).toBeTruthy();
    expect(email.maxLength).toBe(100);
    expect(password.maxLength).toBe(20);
  });

  it('shows a confirmation that differs beside the confirmation field and sends nothing', async () => {
    const calls = stubApi(() => undefined);
    const { email, password, confirmation } = await openReset();
    await userEvent.type(email, 'ana@empresa.com.br');
    await userEvent.type(password, 'Nova1234');
    await userEvent.type(confirmation, 'Nova12345');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));

    expect(fieldMessage(confirmation)).toBe('A confirmação da senha não confere.');
    expect(fieldMessage(password)).toBeNull();
    expect(confirmation.getAttribute('aria-describedby')).toContain('reset-confirmacao-error');
    expect(calls).toEqual([]);
  });

  it("sends the token, shows the server's message and goes to the login", async () => {
    const calls = stubApi(({ method, url }) =>
      `${method} ${url}` === 'POST /api/v1/password/reset' ? json(200, { message: 'Senha redefinida com sucesso.' }) : undefined,
    );
    const { router, email, password, confirmation } = await openReset();
    await userEvent.type(email, 'ana@empresa.com.br');
    await userEvent.type(password, 'Nova1234');
    await userEvent.type(confirmation, 'Nova1234');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(requestLines(calls)).toEqual(['POST /api/v1/password/reset']);
    expect(calls[0]!.body).toEqual({ email: 'ana@empresa.com.br', password: 'Nova1234', password_confirmation: 'Nova1234', token: TOKEN });
    expect(toasts).toEqual([expect.objectContaining({ severity: 'success', detail: 'Senha redefinida com sucesso.' })]);
  });

  it("says 'Não foi possível reiniciar sua senha.' when the server refuses, and stays", async () => {
    stubApi(() => json(400, { error: 'senhaReinicioFalhou' }));
    const { router, email, password, confirmation } = await openReset();
    await userEvent.type(email, 'ana@empresa.com.br');
    await userEvent.type(password, 'Nova1234');
    await userEvent.type(confirmation, 'Nova1234');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(toasts.map((t) => t.detail)).toEqual(['Não foi possível reiniciar sua senha.']));
    expect(router.state.location.pathname).toBe(`/password/reset/${TOKEN}`);
  });

  it("puts the server's field errors beside the fields", async () => {
    stubApi(() =>
      json(422, { errors: { password: ['A senha deve ter de 8 a 20 caracteres, com letras e números.'], email: ['Informe um e-mail válido.'] } }),
    );
    const { email, password, confirmation } = await openReset();
    await userEvent.type(email, 'ana@empresa');
    await userEvent.type(password, 'abcdefgh');
    await userEvent.type(confirmation, 'abcdefgh');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(fieldMessage(password)).toBe('A senha deve ter de 8 a 20 caracteres, com letras e números.'));
    expect(fieldMessage(email)).toBe('Informe um e-mail válido.');
    expect(fieldMessage(confirmation)).toBeNull();
  });
});
