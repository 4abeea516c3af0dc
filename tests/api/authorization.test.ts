import { ROLES, type Principal, type Role } from '@plac/shared/access';
import { allows, contracts, fillPath, type AnyContract } from '@plac/shared/contracts';
import { describe, expect, it } from 'vitest';
import { call } from './http';
import { mtlsRequest } from './mtls';
import { bearer, tokenFor } from './session';

/**
 * The authorization matrix, generated from the contract table: every route, called as every role and
 * as nobody. A caller the route allows is never refused for access reasons (401 token_*, 403
 * acessoNegado); any other caller always is. Bodies and parameters are placeholders: validation may
 * refuse them (400), which proves the access check ran first and passed. Record-level refusals
 * (403 semPermissao: a client user and another client's record) are tested per context.
 */
const SAMPLE_PARAMS: Record<string, string> = { uf: 'BA', text: 'salv', id: 'nao-existe' };

const principalFor = (role: Role): Principal => ({
  userId: `matrix-${role}`,
  name: `Matriz ${role}`,
  tipo: role.startsWith('sefaz') ? 'S' : 'C',
  roles: [role],
  ...(role.startsWith('sefaz') ? { uf: 'BA' } : { clienteId: 'demo-esf' }),
});

function sample(contract: AnyContract) {
  const names = [...contract.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fillPath(contract.path, Object.fromEntries(names.map((n) => [n, SAMPLE_PARAMS[n] ?? 'x'])));
}

async function request(contract: AnyContract, token?: string) {
  return call(sample(contract), {
    method: contract.method,
    headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
    ...(contract.method === 'GET' ? {} : { body: '{}' }),
  });
}

const refusedForAccess = (status: number, body: unknown) => {
  const key = (body as { error?: string } | null)?.error ?? '';
  return (status === 401 && (key.startsWith('token_') || key === '')) || (status === 403 && key === 'acessoNegado');
};

const webContracts = contracts.filter((c) => (c.channel ?? 'web') !== 'mtls');
/** Routes served only on the mutual-TLS domain that still take a role's token (the 'Registro de Cessão'). */
const mtlsRoleContracts = contracts.filter((c) => c.channel === 'mtls' && Array.isArray(c.access));

async function requestMtls(contract: AnyContract, token?: string) {
  return mtlsRequest(contract.method, sample(contract), {
    headers: token ? bearer(token) : {},
    ...(contract.method === 'GET' ? {} : { body: {} }),
  });
}

describe('authorization matrix', () => {
  describe.each(webContracts.map((c) => [c.id, c] as const))('%s', (_id, contract) => {
    it('as nobody', async () => {
      const { status, body } = await request(contract);
      if (contract.access === 'public') expect(refusedForAccess(status, body), `${status} ${JSON.stringify(body)}`).toBe(false);
      else expect({ status, body }).toEqual({ status: 401, body: { error: 'token_absent', message: 'É necessário estar autenticado para acessar este recurso.' } });
    });

    it.each(ROLES.map((r) => [r]))('as %s', async (role) => {
      const { status, body } = await request(contract, await tokenFor(principalFor(role)));
      const allowed = allows(contract.access, [role]);
      expect(refusedForAccess(status, body), `${contract.method} ${contract.path} as ${role}: ${status} ${JSON.stringify(body)}`).toBe(!allowed);
      if (!allowed) expect(status).toBe(403);
    });
  });

  describe.each(mtlsRoleContracts.map((c) => [c.id, c] as const))('%s (mutual TLS)', (_id, contract) => {
    it('as nobody', async () => {
      expect(await requestMtls(contract)).toEqual({ status: 401, body: { error: 'token_absent', message: 'É necessário estar autenticado para acessar este recurso.' } });
    });

    it.each(ROLES.map((r) => [r]))('as %s', async (role) => {
      const { status, body } = await requestMtls(contract, await tokenFor(principalFor(role)));
      const allowed = allows(contract.access, [role]);
      expect(refusedForAccess(status, body), `${contract.method} ${contract.path} as ${role}: ${status} ${JSON.stringify(body)}`).toBe(!allowed);
      if (!allowed) expect(status).toBe(403);
    });

    it('is not served on the web domain', async () => {
      const { status } = await request(contract, await tokenFor(principalFor('cliente_imf')));
      expect(status).toBe(404);
    });
  });

  it('has the mutual-TLS role routes in its matrix', () => {
    expect(mtlsRoleContracts.map((c) => c.id)).toEqual(expect.arrayContaining(['cessao.registrar', 'cessao.listar']));
  });

  it('refuses a forged token and one whose session was closed', async () => {
    const protectedRoute = webContracts.find((c) => Array.isArray(c.access))!;
    const forged = await request(protectedRoute, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: 'token_invalid' });

    const token = await tokenFor(principalFor('sefaz_admin'));
    const out = await call('/api/v1/logout', { method: 'POST', headers: bearer(token) });
    expect(out.status).toBe(200);
    const after = await request(protectedRoute, token);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: 'token_invalid' });
  });

  it('refuses an expired token with token_expired', async () => {
    const token = await tokenFor(principalFor('sefaz_admin'), 1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const protectedRoute = webContracts.find((c) => Array.isArray(c.access))!;
    const { status, body } = await request(protectedRoute, token);
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: 'token_expired' });
  });

  it('answers a token past half its life with a refreshed one', async () => {
    const admin: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
    const token = await tokenFor(admin, 4);
    const early = await call('/api/v1/profile', { headers: bearer(token) });
    expect(early.headers.get('x-plac-token')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const { status, headers } = await call('/api/v1/profile', { headers: bearer(token) });
    expect(status).toBe(200);
    const fresh = headers.get('x-plac-token');
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(token);
  });
});
