import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldText } from '@plac/shared/domain';
import { clientesNaSituacao, gravarClienteSemSituacao, putCliente, type ClienteRecord } from '../../functions/clientes/store';
import { ownTable } from '../../tests/setup/own-table';
import { migrar } from './clientes-situacao';

/**
 * The clients' situation index (issue 38) against DynamoDB Local: a client written now is in its
 * situation's partition; one written before the index is not, until the migration writes its keys;
 * a second run finds them all in place.
 */

beforeAll(() => ownTable());

function cliente(razao: string, situacao: ClienteRecord['situacao']): ClienteRecord {
  const agora = new Date().toISOString();
  const clienteId = `sit-${randomUUID()}`;
  return { clienteId, cnpj: '11222333000181', razaoSocial: razao, razaoFolded: foldText(razao), tipoCliente: 'ESF', situacao, email: `${clienteId}@teste.test`, uf: 'BA', createdAt: agora, updatedAt: agora };
}

describe('the clients situation index', () => {
  it('holds the clients written now, and the migration adds the ones of before', { timeout: 60_000 }, async () => {
    const novo = cliente('Banco Novo', 'E');
    const antigo = cliente('Agência Antiga', 'E');
    const ativo = cliente('Banco Ativo', 'A');
    await putCliente(novo);
    await putCliente(ativo);
    await gravarClienteSemSituacao(antigo);
    expect((await clientesNaSituacao('E')).map((c) => c.clienteId)).toEqual([novo.clienteId]);

    expect(await migrar()).toBe(3);
    // In name order: 'agencia antiga' before 'banco novo'.
    expect((await clientesNaSituacao('E')).map((c) => c.clienteId)).toEqual([antigo.clienteId, novo.clienteId]);
    expect((await clientesNaSituacao('A')).map((c) => c.clienteId)).toEqual([ativo.clienteId]);
    await migrar();
    expect((await clientesNaSituacao('E')).map((c) => c.clienteId)).toEqual([antigo.clienteId, novo.clienteId]);
  });
});
