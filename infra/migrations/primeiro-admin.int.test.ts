import { randomInt } from 'node:crypto';
import { cpfCheckDigits } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { findUser } from '../../functions/users/store';
import { criarPrimeiroAdmin } from './primeiro-admin';

const novoCpf = () => {
  const first9 = String(randomInt(100_000_000, 999_999_999));
  return `${first9}${cpfCheckDigits(first9)}`;
};

/** The first administrator of a new stage (issue 29 item 7), against the twin's table and mail. */
describe('primeiro administrador', () => {
  it('creates an active sefaz_admin without a password, and a second run with the same e-mail creates nothing', async () => {
    const email = `admin-${randomInt(1e9)}@sefaz.example.gov.br`;
    const primeiro = await criarPrimeiroAdmin({ nome: ' Administradora Inicial ', email: email.toUpperCase(), cpf: novoCpf(), uf: 'ba' });
    expect(primeiro.criado).toBe(true);
    const user = await findUser(primeiro.userId);
    expect(user).toMatchObject({ email, tipo: 'S', roles: ['sefaz_admin'], uf: 'BA', situacao: 'A', name: 'Administradora Inicial' });
    expect(user!.passwordHash).toBeUndefined();
    expect(await criarPrimeiroAdmin({ nome: 'Outra', email, cpf: novoCpf(), uf: 'SE' })).toEqual({ criado: false, userId: primeiro.userId });
  });

  it('refuses an unknown UF and an invalid CPF', async () => {
    await expect(criarPrimeiroAdmin({ nome: 'X', email: `x-${randomInt(1e9)}@example.gov.br`, cpf: novoCpf(), uf: 'XX' })).rejects.toThrow(/UF desconhecida/);
    await expect(criarPrimeiroAdmin({ nome: 'X', email: `y-${randomInt(1e9)}@example.gov.br`, cpf: '11111111111', uf: 'BA' })).rejects.toThrow(/CPF inválido/);
  });
});
