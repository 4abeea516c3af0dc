import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldText } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { clientesDoMes, consumoPorServico, gravarContadores } from '../../functions/consumo/store';
import { ownTable } from '../../tests/setup/own-table';
import { migrarMes } from './consumo-clientes';

/**
 * The migration of every client's consumption (issue 38) against DynamoDB Local: a month counted
 * before the counters by service (its counters by UF only, as they were written) is missing from the
 * list; a charge made since is listed with only itself. The migration lists both clients with their
 * months exact (the base shard: the counters by UF minus the live shards), and a second run, and a
 * charge after it, keep them exact.
 */

beforeAll(() => ownTable());

const mes = '2025-03';
const instante = new Date('2025-03-10T12:00:00Z');

async function cliente(razao: string) {
  const id = `mig-consumo-${randomUUID().slice(0, 8)}`;
  const agora = new Date().toISOString();
  await putCliente({ clienteId: id, cnpj: '11222333000181', razaoSocial: razao, razaoFolded: foldText(razao), tipoCliente: 'ESF', situacao: 'A', email: `${id}@teste.test`, uf: 'BA', createdAt: agora, updatedAt: agora, updatedBy: 'teste' });
  return id;
}

async function lista() {
  const { items } = await clientesDoMes(mes, { perPage: 50 });
  return Promise.all(items.map(async (m) => [m.clienteId, await consumoPorServico(m.clienteId, mes)] as const));
}

describe('the migration of every client consumption', () => {
  it('lists the months counted before, exact beside the charges made since, and can run again', { timeout: 120_000 }, async () => {
    const antigo = await cliente('Banco Antigo');
    const misto = await cliente('Agência Mista');
    // Counted before the release: counters by UF only, over several shards.
    await gravarContadores([
      { clienteId: antigo, mes, servico: 1, uf: 'BA', shard: 3, requisicoes: 7 },
      { clienteId: antigo, mes, servico: 1, uf: 'SP', shard: 9, requisicoes: 2 },
      { clienteId: antigo, mes, servico: 5, uf: 'BA', shard: 0, requisicoes: 4 },
      { clienteId: misto, mes, servico: 2, uf: 'PE', shard: 12, requisicoes: 10 },
    ]);
    // Since the release: one more of the mixed client, counted in both forms.
    await cobrarConsulta({ clienteId: misto, servico: 2, uf: 'PE', chave: 'novo', agora: instante });
    expect(await lista()).toEqual([[misto, [{ servico: 2, requisicoes: 1 }]]]);

    expect(await migrarMes(mes)).toEqual({ clientes: 2, pendentes: [] });
    const esperado = [
      [misto, [{ servico: 2, requisicoes: 11 }]],
      [antigo, [
        { servico: 1, requisicoes: 9 },
        { servico: 5, requisicoes: 4 },
      ]],
    ];
    // In name order ('agencia mista' before 'banco antigo'), each month exact.
    expect(await lista()).toEqual(esperado);
    expect(await migrarMes(mes)).toEqual({ clientes: 2, pendentes: [] });
    expect(await lista()).toEqual(esperado);
    await cobrarConsulta({ clienteId: antigo, servico: 5, uf: 'BA', chave: 'depois', agora: instante });
    expect((await lista())[1]).toEqual([antigo, [{ servico: 1, requisicoes: 9 }, { servico: 5, requisicoes: 5 }]]);
  });
});
