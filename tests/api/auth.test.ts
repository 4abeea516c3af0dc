import { describe, expect, it } from 'vitest';
import { concluirLogin } from '../../infra/local/segundo-fator-demo';
import { call, twinUrl } from './http';
import { waitForMail } from './mail';
import { bearer } from './session';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const PASSWORD = 'Plac@2026!';

describe('Sefaz login', () => {
  it('logs the administrator in (password, then the demo second factor\'s code) and answers the session user and a token', async () => {
    const first = await call('/api/v1/authenticate/sefaz', json({ email: 'ADMIN@plac.local ', password: PASSWORD }));
    expect(first.status).toBe(200);
    // The password alone opens no session: the administrator has the second factor (issue 42).
    expect(first.body).toEqual({ segundoFator: { desafio: expect.any(String), expiraEm: expect.any(String) } });
    const { user, token } = (await concluirLogin(twinUrl(), first.body as { token: string })) as unknown as { user: Record<string, unknown>; token: string };
    expect(user).toMatchObject({ userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], podeAlterarSenha: true });
    expect(token.split('.')).toHaveLength(3);
    const profile = await call('/api/v1/profile', { headers: bearer(token) });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ email: 'admin@plac.local' });
  });

  it('refuses a wrong password and an unknown e-mail with the same answer', async () => {
    const wrong = await call('/api/v1/authenticate/sefaz', json({ email: 'gestor@plac.local', password: 'errada123' }));
    const unknown = await call('/api/v1/authenticate/sefaz', json({ email: 'ninguem@plac.local', password: 'errada123' }));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'credenciaisInvalidas', message: 'Credenciais Inválidas' });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('does not let a client user in through the Sefaz tab', async () => {
    const { status } = await call('/api/v1/authenticate/sefaz', json({ email: 'cliente@plac.local', password: PASSWORD }));
    expect(status).toBe(401);
  });

  it('locks an account after five failures, also for the right password, then tells nothing more', async () => {
    const email = 'bloqueio-inexistente@plac.local';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call('/api/v1/authenticate/sefaz', json({ email, password: `errada${i}` }))).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const locked = await call('/api/v1/authenticate/sefaz', json({ email, password: PASSWORD }));
    expect(locked.body).toMatchObject({ error: 'loginBloqueado' });
  }, 60_000);

  it('refuses malformed input with pt-BR field messages', async () => {
    const { status, body } = await call('/api/v1/authenticate/sefaz', json({ email: 'não é e-mail' }));
    expect(status).toBe(400);
    expect(body).toEqual({ errors: { email: ['Informe um e-mail válido.'], password: ['O campo Senha é obrigatório.'] } });
  });
});

describe('client login', () => {
  it('answers 210 (password) for a client inside its password period, 209 (certificate) otherwise, unknown e-mails included', async () => {
    expect((await call('/api/v1/authenticate/client/type', json({ email: 'cliente@plac.local' }))).status).toBe(210);
    // The IMF client's period is over: straight to the certificate.
    expect((await call('/api/v1/authenticate/client/type', json({ email: 'imf@plac.local' }))).status).toBe(209);
    expect((await call('/api/v1/authenticate/client/type', json({ email: 'ninguem@plac.local' }))).status).toBe(209);
    expect((await call('/api/v1/authenticate/client/type', json({ email: 'admin@plac.local' }))).status).toBe(209);
  });

  it('logs a client in with a password inside the period', async () => {
    const { status, body } = await call('/api/v1/authenticate/cliente', json({ email: 'cliente@plac.local', password: PASSWORD }));
    expect(status).toBe(200);
    expect((body as { user: unknown }).user).toMatchObject({ clienteId: 'demo-esf', razaoSocial: expect.any(String), roles: ['cliente'], podeAlterarSenha: true });
  });

  it('refuses a password login past the period with the catalogue message', async () => {
    const { status, body } = await call('/api/v1/authenticate/cliente', json({ email: 'imf@plac.local', password: PASSWORD }));
    expect(status).toBe(403);
    expect(body).toMatchObject({ message: 'Encerrado o prazo para autenticar sem certificado digital.' });
  });

  it('refuses the user of a client not yet released, with its own message', async () => {
    const { status, body } = await call('/api/v1/authenticate/cliente', json({ email: 'novo@plac.local', password: PASSWORD }));
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: 'clienteNaoLiberado' });
  });
});

describe('password reset', () => {
  it('e-mails a single-use link that sets a new password', async () => {
    const email = 'web@plac.local';
    const sent = await call('/api/v1/password/email', json({ email }));
    expect(sent.body).toEqual({ message: 'O link para redefinição de senha foi enviado para seu email.' });
    const mail = await waitForMail(email, 'redefinição de senha');
    const token = /\/password\/reset\/([\w-]+)/.exec(mail.text ?? '')?.[1];
    expect(token).toBeTruthy();

    const reset = { email, password: 'NovaSenha2026', password_confirmation: 'NovaSenha2026', token };
    expect((await call('/api/v1/password/reset', json(reset))).status).toBe(200);
    const again = await call('/api/v1/password/reset', json(reset));
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: 'Não foi possível reiniciar sua senha.' });

    expect((await call('/api/v1/authenticate/cliente', json({ email, password: 'NovaSenha2026' }))).status).toBe(200);
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const { body } = await call('/api/v1/password/email', json({ email: 'ninguem-reset@plac.local' }));
    expect(body).toEqual({ message: 'O link para redefinição de senha foi enviado para seu email.' });
  });

  it('refuses a confirmation that does not match, beside the field', async () => {
    const { status, body } = await call(
      '/api/v1/password/reset',
      json({ email: 'gestor@plac.local', password: 'NovaSenha2026', password_confirmation: 'Outra2026', token: 'x'.repeat(40) }),
    );
    expect(status).toBe(400);
    expect(body).toEqual({ errors: { password_confirmation: ['A confirmação da senha não confere.'] } });
  });
});
