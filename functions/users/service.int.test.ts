import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { foldText } from '@plac/shared/domain';
import { gravarCliente } from '../../tests/api/clientes-kit';
import * as clientes from '../clientes';
import type * as Clientes from '../clientes';
import { list } from './service';
import { createUser, type UserRecord } from './store';

// The real clients context, its summary counted.
vi.mock('../clientes', async (original) => {
  const real = await original<typeof Clientes>();
  return { ...real, clienteResumo: vi.fn(real.clienteResumo) };
});

const admin: Principal = { userId: 'adm-lista', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] };

/** The user list names each user's client, reading each client once per page (not once per row). */
describe('the user list', () => {
  it('reads each client of a page once, and names every client user with it', async () => {
    const marca = `Lista ${randomUUID().slice(0, 8)}`;
    const [a, b] = await Promise.all(
      ['A', 'B'].map((x) => gravarCliente({ clienteId: `cli-${randomUUID()}`, cnpj: randomUUID().replace(/-/g, '').slice(0, 14).toUpperCase(), razaoSocial: `${marca} Cliente ${x}` })),
    );
    const at = new Date().toISOString();
    const usuario = (i: number, clienteId: string): UserRecord => ({
      userId: `u-${randomUUID()}`,
      name: `${marca} Usuário ${i}`,
      nameFolded: foldText(`${marca} Usuário ${i}`),
      email: `u${i}-${randomUUID()}@teste.local`,
      cpf: String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999)),
      situacao: 'A',
      tipo: 'C',
      roles: ['cliente'],
      clienteId,
      createdAt: at,
      updatedAt: at,
    });
    for (let i = 0; i < 6; i++) await createUser(usuario(i, i < 4 ? a!.clienteId : b!.clienteId));
    vi.mocked(clientes.clienteResumo).mockClear();

    const pagina = await list({ name: marca, perPage: 25 }, admin);

    expect(pagina.items).toHaveLength(6);
    expect(pagina.items.map((u) => u.cliente?.razao_social).sort()).toEqual([...Array(4).fill(`${marca} Cliente A`), ...Array(2).fill(`${marca} Cliente B`)]);
    expect(vi.mocked(clientes.clienteResumo).mock.calls.map(([id]) => id).sort()).toEqual([a!.clienteId, b!.clienteId].sort());
  });
});
