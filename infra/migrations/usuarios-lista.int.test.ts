import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { gravarUsuarioAntigo, paginaDeUsuarios, usersOfCliente, type UserRecord } from '../../functions/users/store';
import { migrar } from './usuarios-lista';

/**
 * The user list's migration (issue 38) against DynamoDB Local: users written as before (every one, the
 * issuers among them, in gsi1 `$users`) are listed beside the new partition before it runs (the issuer
 * never), moved by it to `equipe` or `emissor`, still listed once and in name order after it, and still
 * among their client's users; a second run moves nothing.
 */

// On a table of this file's own: the list reads only what the test writes.
beforeAll(() => ownTable());

describe('the user list migration', () => {
  it('lists the users of before beside the new ones, moves them, and can run again', { timeout: 120_000 }, async () => {
    const n = randomUUID().slice(0, 8);
    const agora = new Date().toISOString();
    const usuario = (nome: string, extra: Partial<UserRecord>): UserRecord => ({
      userId: `${nome.toLowerCase().replace(/\W+/g, '-')}-${n}`,
      name: nome,
      nameFolded: nome.toLowerCase(),
      email: `${nome.toLowerCase().replace(/\W+/g, '.')}.${n}@exemplo.gov.br`,
      cpf: '',
      situacao: 'A',
      tipo: 'S',
      roles: ['sefaz_gestor'],
      uf: 'BA',
      createdAt: agora,
      updatedAt: agora,
      ...extra,
    });
    const gestora = usuario('Beatriz Antiga', {});
    const analista = usuario('Carlos Antigo', { tipo: 'C', roles: ['cliente'], uf: undefined, clienteId: `cli-${n}` });
    const emissor = usuario('Emissora Antiga Ltda', { tipo: 'C', roles: ['emissor'], uf: undefined, cnpj: '55667788000186' });
    for (const u of [gestora, analista, emissor]) await gravarUsuarioAntigo(u);

    const todos = async () => {
      const ids: string[] = [];
      let posicao: string | undefined;
      do {
        const pagina = await paginaDeUsuarios({ perPage: 1, posicao });
        ids.push(...pagina.items.map((u) => u.userId));
        posicao = pagina.posicao ?? undefined;
      } while (posicao);
      return ids;
    };
    // Before: the old partition is read beside the new one, one user a page, the issuer skipped.
    expect(await todos()).toEqual([gestora.userId, analista.userId]);
    expect((await usersOfCliente(analista.clienteId!)).map((u) => u.userId)).toEqual([analista.userId]);

    expect(await migrar(2)).toBe(3);
    expect(await migrar(2)).toBe(0);

    expect(await todos()).toEqual([gestora.userId, analista.userId]);
    // Its client's users are unchanged by the move (gsi2 is written again with the roles).
    expect((await usersOfCliente(analista.clienteId!)).map((u) => u.userId)).toEqual([analista.userId]);
  });
});
