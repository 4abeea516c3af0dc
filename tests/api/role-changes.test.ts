import { randomInt } from 'node:crypto';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './http';
import { waitForMail } from './mail';
import { randomCpf, sefazToken, cadastrarSegundoFator } from './people';
import { bearer, tokenFor } from './session';

/**
 * A change of a user's roles, client or status takes effect on the user's next request, with the
 * token the user already holds, and a refreshed token never carries a role the user lost.
 */

const PASSWORD = 'Troca2026Papel';
let admin: string;

const json = (method: string, body: unknown, token?: string) => ({
  method,
  headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  admin = await sefazToken();
});

/** A new user made by the administrator, who then sets a password through the e-mailed link. */
async function newUser(input: Record<string, unknown>): Promise<{ id: string; email: string }> {
  const email = `papel.${randomInt(1e9)}@plac.local`;
  const created = await call('/api/v1/users', json('POST', { ...input, email, cpf: randomCpf() }, admin));
  expect(created.status).toBe(201);
  const mail = await waitForMail(email, 'defina sua senha');
  const token = /\/password\/reset\/([\w-]+)/.exec(mail.text ?? '')?.[1];
  const reset = await call('/api/v1/password/reset', json('POST', { email, token, password: PASSWORD, password_confirmation: PASSWORD }));
  expect(reset.status).toBe(200);
  return { id: (created.body as { id: string }).id, email };
}

/** A real password login; a Sefaz user's first one enrols the second factor it must have (issue 42). */
async function login(kind: 'sefaz' | 'cliente', email: string): Promise<string> {
  const { status, body } = await call(`/api/v1/authenticate/${kind}`, json('POST', { email, password: PASSWORD }));
  expect(status).toBe(200);
  const { token, user } = body as { token: string; user: { segundoFatorObrigatorio?: boolean } };
  if (user.segundoFatorObrigatorio) await cadastrarSegundoFator(token, PASSWORD);
  return token;
}

const sefazAdmin = { name: 'Administradora Temporária', tipo_usuario: 'S', roles: ['sefaz_admin'], uf: 'BA' };

describe('a change of roles, client or status', () => {
  it('demotes an administrator on the next request of the token it already holds', async () => {
    const user = await newUser(sefazAdmin);
    const token = await login('sefaz', user.email);
    expect((await call('/api/v1/users?perPage=10', { headers: bearer(token) })).status).toBe(200);

    const demoted = await call(`/api/v1/users/${user.id}`, json('PUT', { ...sefazAdmin, email: user.email, roles: ['sefaz_gestor'], situacao: 'A' }, admin));
    expect(demoted.status).toBe(200);

    const after = await call('/api/v1/users?perPage=10', { headers: bearer(token) });
    expect(after.status).toBe(403);
    expect(after.body).toMatchObject({ error: 'acessoNegado' });
    // A route the new role may use still answers: the session goes on with the new roles.
    expect((await call('/api/v1/cliente?page=1&size=10', { headers: bearer(token) })).status).toBe(200);
  });

  it('never refreshes a token with a role the user lost', async () => {
    const user = await newUser(sefazAdmin);
    // A real session of this user with a 4-second token, so that it is past half its life soon.
    const token = await tokenFor({ userId: user.id, name: sefazAdmin.name, tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' }, 4);
    await call(`/api/v1/users/${user.id}`, json('PUT', { ...sefazAdmin, email: user.email, roles: ['sefaz_gestor'], situacao: 'A' }, admin));

    await new Promise((resolve) => setTimeout(resolve, 2200));
    const { status, headers } = await call('/api/v1/profile', { headers: bearer(token) });
    expect(status).toBe(200);
    const refreshed = headers.get('x-plac-token');
    expect(refreshed).toBeTruthy();
    expect(decodeJwt(refreshed!).roles).toEqual(['sefaz_gestor']);
  });

  it('moves a client user to its new client on the next request', async () => {
    const input = { name: 'Operadora Itinerante', tipo_usuario: 'C', roles: ['cliente'], cliente_id: 'demo-esf' };
    const user = await newUser(input);
    const token = await login('cliente', user.email);
    expect((await call('/api/v1/cliente/demo-esf', { headers: bearer(token) })).status).toBe(200);

    const moved = await call(`/api/v1/users/${user.id}`, json('PUT', { ...input, email: user.email, cliente_id: 'demo-shopping', situacao: 'A' }, admin));
    expect(moved.status).toBe(200);

    expect((await call('/api/v1/cliente/demo-esf', { headers: bearer(token) })).status).toBe(403);
    expect((await call('/api/v1/cliente/demo-shopping', { headers: bearer(token) })).status).toBe(200);
  });

  it('ends the sessions of a user who is deactivated', async () => {
    const user = await newUser(sefazAdmin);
    const token = await login('sefaz', user.email);
    await call(`/api/v1/users/${user.id}`, json('PUT', { ...sefazAdmin, email: user.email, situacao: 'I' }, admin));
    const after = await call('/api/v1/profile', { headers: bearer(token) });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: 'token_invalid' });
  });
});
