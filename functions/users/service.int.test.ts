import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { foldText } from '@plac/shared/domain';
import { gravarCliente } from '../../tests/api/clientes-kit';
import { dynamoDb } from '../platform/aws';
import { list } from './service';
import { createUser, type UserRecord } from './store';

const admin: Principal = { userId: 'adm-lista', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] };

/**
 * The user list names each user's client, reading each client once per page (not once per row). The
 * reads are counted on the table's client itself (every store sends through it), not by mocking the
 * clients context: the integration files share one process, where a module is imported once.
 */
describe('the user list', () => {
  afterEach(() => vi.restoreAllMocks());

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
    const send = vi.spyOn(dynamoDb(), 'send');

    const pagina = await list({ name: marca, perPage: 25 }, admin);

    expect(pagina.items).toHaveLength(6);
    expect(pagina.items.map((u) => u.cliente?.razao_social).sort()).toEqual([...Array(4).fill(`${marca} Cliente A`), ...Array(2).fill(`${marca} Cliente B`)]);
    // The GetItems of each client's record: one per client, whatever its number of users on the page.
    const leiturasDe = (clienteId: string) => send.mock.calls.filter(([c]) => c.constructor.name === 'GetCommand' && JSON.stringify(c.input).includes(clienteId)).length;
    expect([leiturasDe(a!.clienteId), leiturasDe(b!.clienteId)]).toEqual([1, 1]);
  });
});
