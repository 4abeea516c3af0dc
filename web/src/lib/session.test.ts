import { describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY, type SessionUser } from './session';

const user: SessionUser = { userId: 'u-9', name: 'João', tipo: 'C', roles: ['cliente'], clienteId: 'c-1', email: 'joao@example.com' };

/** A fresh copy of the module, as after a page reload. */
async function reloadSession() {
  vi.resetModules();
  return import('./session');
}

describe('session store', () => {
  it('survives a reload through sessionStorage', async () => {
    const first = await reloadSession();
    first.login(user, 'tok');
    first.saveFilter('fatura', { situacao: 'A' });
    first.setReportProcessing({ clienteNome: 'ACME', startedAt: 1_700_000_000_000 });

    const second = await reloadSession();
    expect(second.getSession()).toEqual({
      user,
      token: 'tok',
      filters: { fatura: { situacao: 'A' } },
      reportProcessing: { clienteNome: 'ACME', startedAt: 1_700_000_000_000 },
    });
  });

  it('treats a malformed or tampered store as signed out', async () => {
    sessionStorage.setItem(SESSION_STORAGE_KEY, '{not json');
    expect((await reloadSession()).getSession().user).toBeNull();

    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ user: { ...user, roles: ['superuser'] }, token: 't' }));
    expect((await reloadSession()).getSession()).toMatchObject({ user: null, token: null });

    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ user }));
    expect((await reloadSession()).getSession().user).toBeNull();
  });

  it('ignores a refreshed token when nobody is signed in', async () => {
    const session = await reloadSession();
    session.setToken('stray');
    expect(session.getSession().token).toBeNull();
  });

  it('removes a saved filter when given undefined', async () => {
    const session = await reloadSession();
    session.login(user, 'tok');
    session.saveFilter('user', { nome: 'Ana' });
    session.saveFilter('user', undefined);
    expect(session.getSession().filters).toEqual({});
  });
});
