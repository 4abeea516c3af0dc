import { randomInt } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { call } from './http';
import { mailsTo, waitForMail } from './mail';
import { randomCpf, sefazToken } from './people';
import { bearer } from './session';

/**
 * What logs a user in cannot be changed with a stolen session token alone (issue 27 item 3): the
 * e-mail and the password need the current password; a new e-mail waits for the link sent to it, the
 * old address is told, and the change ends the sessions; a password change is told and ends the
 * user's other sessions. Each test has a user of its own, with a password set through its welcome link.
 */

const SENHA = 'Conta@2026a';
const NOVA_SENHA = 'Conta@2026b';

const send = (method: string, path: string, body: unknown, token?: string) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) }, body: JSON.stringify(body) });

let email: string;
let nome: string;

/** A Sefaz user whose password is set by its welcome link, as a new user does. */
beforeEach(async () => {
  const n = String(randomInt(1e9));
  email = `conta.${n}@sefaz.ba.gov.br`;
  nome = `Usuária Conta ${n}`;
  const admin = await sefazToken();
  const created = await send('POST', '/api/v1/users', { name: nome, email, cpf: randomCpf(), tipo_usuario: 'S', roles: ['sefaz_gestor'], uf: 'BA' }, admin);
  expect(created.status).toBe(201);
  const token = /\/password\/reset\/([\w-]{20,})/.exec((await waitForMail(email, 'defina sua senha')).text ?? '')![1]!;
  const reset = await send('POST', '/api/v1/password/reset', { email, token, password: SENHA, password_confirmation: SENHA });
  expect(reset.status).toBe(200);
});

async function login(address: string, password: string) {
  return send('POST', '/api/v1/authenticate/sefaz', { email: address, password });
}

async function tokenDe(address: string, password: string): Promise<string> {
  const r = await login(address, password);
  expect(r.status).toBe(200);
  return (r.body as { token: string }).token;
}

const perfil = async (token: string) => call('/api/v1/profile', { headers: bearer(token) });

describe('changing the login e-mail', () => {
  it('without the current password, or with a wrong one, changes nothing and sends nothing', async () => {
    const token = await tokenDe(email, SENHA);
    const novo = `outro.${randomInt(1e9)}@exemplo.com.br`;
    const sem = await send('PUT', '/api/v1/profile', { name: nome, email: novo }, token);
    expect(sem).toMatchObject({ status: 400, body: { errors: { current_password: ['Informe a senha atual para alterar o e-mail ou a senha.'] } } });
    const errada = await send('PUT', '/api/v1/profile', { name: nome, email: novo, current_password: 'Errada@2026' }, token);
    expect(errada).toMatchObject({ status: 400, body: { errors: { current_password: ['A senha atual não confere.'] } } });
    expect((await perfil(token)).body).toMatchObject({ email, emailPendente: null });
    expect(await mailsTo(novo)).toEqual([]);
    expect((await login(novo, SENHA)).status).toBe(401);
  });

  it('with the current password, waits for the link sent to the new address; the old one is told; the link changes the login and ends the sessions', async () => {
    const token = await tokenDe(email, SENHA);
    const outraSessao = await tokenDe(email, SENHA);
    const novo = `novo.${randomInt(1e9)}@exemplo.com.br`;
    const pedido = await send('PUT', '/api/v1/profile', { name: nome, email: novo, current_password: SENHA }, token);
    expect(pedido.status).toBe(200);
    // The login is still the old e-mail until the link is opened.
    expect(pedido.body).toMatchObject({ email, emailPendente: novo });
    expect((await login(novo, SENHA)).status).toBe(401);
    expect((await login(email, SENHA)).status).toBe(200);
    const aviso = await waitForMail(email, 'pedido de alteração do e-mail de acesso');
    expect(aviso.text ?? '').toContain(novo);
    const confirmacao = await waitForMail(novo, 'confirme seu novo e-mail');
    const link = /\/perfil\/confirmar-email\/([\w-]{20,})/.exec(confirmacao.text ?? '')![1]!;

    expect(await send('POST', '/api/v1/profile/email/confirmacao', { token: 'x'.repeat(43) })).toMatchObject({
      status: 400,
      body: { message: 'O link de confirmação de e-mail é inválido ou expirou.' },
    });
    const confirmado = await send('POST', '/api/v1/profile/email/confirmacao', { token: link });
    expect(confirmado).toMatchObject({ status: 200, body: { message: 'E-mail alterado. Entre novamente com o novo e-mail.' } });
    // Once only.
    expect((await send('POST', '/api/v1/profile/email/confirmacao', { token: link })).status).toBe(400);

    expect((await login(novo, SENHA)).status).toBe(200);
    expect((await login(email, SENHA)).status).toBe(401);
    expect((await waitForMail(email, 'e-mail de acesso alterado')).text ?? '').toContain(novo);
    // Every session open before the change is over.
    for (const t of [token, outraSessao]) expect((await perfil(t)).status).toBe(401);
  });

  it('to an e-mail another user has: 409, nothing sent', async () => {
    const token = await tokenDe(email, SENHA);
    const r = await send('PUT', '/api/v1/profile', { name: nome, email: 'gestor@plac.local', current_password: SENHA }, token);
    expect(r.status).toBe(409);
    expect((await perfil(token)).body).toMatchObject({ email, emailPendente: null });
  });
});

describe('changing the password', () => {
  it('needs the current password, tells the address, and ends the other sessions but not this one', async () => {
    const token = await tokenDe(email, SENHA);
    const outraSessao = await tokenDe(email, SENHA);
    const sem = await send('PUT', '/api/v1/profile', { name: nome, email, password: NOVA_SENHA, password_confirmation: NOVA_SENHA }, token);
    expect(sem).toMatchObject({ status: 400, body: { errors: { current_password: ['Informe a senha atual para alterar o e-mail ou a senha.'] } } });
    expect((await login(email, NOVA_SENHA)).status).toBe(401);

    const troca = await send('PUT', '/api/v1/profile', { name: nome, email, password: NOVA_SENHA, password_confirmation: NOVA_SENHA, current_password: SENHA }, token);
    expect(troca.status).toBe(200);
    expect((await login(email, NOVA_SENHA)).status).toBe(200);
    expect((await login(email, SENHA)).status).toBe(401);
    expect((await waitForMail(email, 'senha alterada')).text ?? '').toContain('As outras sessões abertas foram encerradas.');
    expect((await perfil(token)).status).toBe(200);
    expect((await perfil(outraSessao)).status).toBe(401);
  });

  it('the name alone changes without the password', async () => {
    const token = await tokenDe(email, SENHA);
    const r = await send('PUT', '/api/v1/profile', { name: `${nome} Silva`, email }, token);
    expect(r).toMatchObject({ status: 200, body: { name: `${nome} Silva`, email } });
  });
});
