import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { foldText } from '@plac/shared/domain';
import { HttpError } from '../platform/errors';
import { verifyPassword } from '../platform/passwords';
import { hashScryptAntigo } from '../platform/passwords.test-util';
import { findUser } from '../users/leituras';
import { createUser, trocarHashDaSenha, type UserRecord } from '../users/store';
import { loginSefaz } from './service';

async function usuarioSefazComHashAntigo(senha: string): Promise<UserRecord> {
  const at = '2025-06-01T12:00:00.000Z';
  const name = `Renovação ${randomUUID().slice(0, 8)}`;
  const u: UserRecord = {
    userId: `u-${randomUUID()}`,
    name,
    nameFolded: foldText(name),
    email: `renova-${randomUUID()}@sefaz.test`,
    cpf: String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999)),
    situacao: 'A',
    tipo: 'S',
    roles: ['sefaz_admin'],
    uf: 'BA',
    passwordHash: hashScryptAntigo(senha),
    createdAt: at,
    updatedAt: at,
  };
  await createUser(u);
  return u;
}

const ip = () => `2001:db8:5e::${randomBytes(2).toString('hex')}`;

describe('a password hash stored before issue 39 (scrypt) is replaced at its first login (Argon2id)', () => {
  it('the login works with the old hash, stores the Argon2id one, and the next login uses it; updatedAt stays', async () => {
    const u = await usuarioSefazComHashAntigo('Senha-de-2025!');

    const primeira = await loginSefaz(u.email, 'Senha-de-2025!', ip());
    expect(primeira).toMatchObject({ token: expect.any(String) });

    const depois = await findUser(u.userId);
    expect(depois?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('Senha-de-2025!', depois?.passwordHash)).toBe(true);
    expect(depois?.updatedAt).toBe(u.updatedAt);

    const segunda = await loginSefaz(u.email, 'Senha-de-2025!', ip());
    expect(segunda).toMatchObject({ token: expect.any(String) });
    expect((await findUser(u.userId))?.passwordHash).toBe(depois?.passwordHash);
  });

  it('a wrong password changes nothing', async () => {
    const u = await usuarioSefazComHashAntigo('Certa-2025');
    await expect(loginSefaz(u.email, 'Errada-2025', ip())).rejects.toSatisfy((e) => e instanceof HttpError && e.key === 'credenciaisInvalidas');
    expect((await findUser(u.userId))?.passwordHash).toBe(u.passwordHash);
  });

  it('a hash changed since the login read it (a password reset in between) is kept: the renewal is dropped', async () => {
    const u = await usuarioSefazComHashAntigo('Velha-2025');
    expect(await trocarHashDaSenha(u.userId, 'scrypt$outro-hash', 'nao-deve-ficar')).toBe(false);
    expect((await findUser(u.userId))?.passwordHash).toBe(u.passwordHash);
    expect(await trocarHashDaSenha(u.userId, u.passwordHash!, 'novo')).toBe(true);
    expect((await findUser(u.userId))?.passwordHash).toBe('novo');
  });
});
