import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '../../functions/platform/aws-direto/dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { entidadeEntrega, entidadeMarcador, lerEntrega, loteDeAbertas, paginaDeEntregas, registrarTentativa, type Situacao } from '../../functions/webhooks/log-store';
import { migrar } from './webhooks-marcadores';

/**
 * The open markers' migration against DynamoDB Local: deliveries written in the old index form (the
 * delivery item itself in gsi1 `$webhooks#clienteid_<id>` and gsi2 `$webhooks#fila_<nn>` while open,
 * or `$webhooks#lista_entregas` before issue 26) leave the indexes; the open ones get their marker,
 * so the monitoring list and the jobs find them again, and go on as any other; a second run changes
 * nothing.
 */

// The migration scans the whole table: on one of this file's own, it reads only what the test writes.
beforeAll(() => ownTable());

describe('the open markers migration', () => {
  it('moves old open deliveries to markers, takes delivered ones out of the indexes, and can run again', { timeout: 300_000 }, async () => {
    const clienteId = `mig-${randomUUID().slice(0, 8)}`;
    const agora = Date.now();
    const antiga = async (n: number, situacao: Situacao, gsi2pk: string) => {
      const deliveryId = `EVENTO:${clienteId}:${n}`;
      const dataCriacao = new Date(agora - n * 1000).toISOString();
      const { Item } = entidadeEntrega()
        .create({ deliveryId, clienteId, operacao: 'EVENTO', descricao: `d${n}`, body: '{"n":1}', url: 'https://h.example', dataCriacao, tentativas: situacao === 'PAUSADA' ? 0 : 13, situacao })
        .params<{ Item: Record<string, unknown> }>();
      const sk = `$webhookentrega_1#datacriacao_${dataCriacao.toLowerCase()}#deliveryid_${deliveryId.toLowerCase()}`;
      await dynamoDb().send(new PutCommand({ TableName: config.tableName, Item: { ...Item, fila: '03', gsi1pk: `$webhooks#clienteid_${clienteId}`, gsi1sk: sk, gsi2pk, gsi2sk: sk } }));
      return deliveryId;
    };
    const falha = await antiga(1, 'FALHA', '$webhooks#fila_03');
    const pausada = await antiga(2, 'PAUSADA', '$webhooks#fila_03');
    const entregue = await antiga(3, 'ENTREGUE', '$webhooks#lista_entregas');
    const periodo = { clienteId, desde: new Date(agora - 3_600_000).toISOString(), ate: new Date(agora + 1_000).toISOString() };
    // Before the migration the new reads do not see the old form.
    expect((await paginaDeEntregas({ ...periodo, situacoes: ['PENDENTE', 'FALHA', 'PAUSADA'] }, { perPage: 10 })).items).toEqual([]);

    expect(await migrar(2)).toBeGreaterThanOrEqual(3);
    expect(await migrar(2)).toBe(0);

    const lista = await paginaDeEntregas({ ...periodo, situacoes: ['PENDENTE', 'FALHA', 'PAUSADA'] }, { perPage: 10 });
    expect(lista.items.map((e) => [e.deliveryId, e.situacao])).toEqual([[falha, 'FALHA'], [pausada, 'PAUSADA']]);
    const retidas = await loteDeAbertas({ ...periodo, situacao: 'PAUSADA', operacao: 'EVENTO' }, { perPage: 10 });
    expect(retidas.items.map((e) => e.deliveryId)).toEqual([pausada]);
    for (const id of [falha, pausada, entregue]) {
      const { Item: item = {} } = await dynamoDb().send(new GetCommand({ TableName: config.tableName, Key: { pk: `$webhooks#deliveryid_${id.toLowerCase()}`, sk: '$webhookentrega_1' }, ConsistentRead: true }));
      expect(Object.keys(item).filter((k) => k.startsWith('gsi'))).toEqual([]);
      expect(item.indexada).toBe(id === entregue ? undefined : true);
    }
    expect((await entidadeMarcador().get({ deliveryId: entregue }).go()).data).toBeNull();

    // A migrated delivery goes on as any other: delivered, its marker is deleted.
    await registrarTentativa({ deliveryId: pausada, mensagemId: 'm', recebimento: 1, instante: new Date().toISOString(), status: 204, latenciaMs: 1 });
    expect((await lerEntrega(pausada))?.situacao).toBe('ENTREGUE');
    expect((await entidadeMarcador().get({ deliveryId: pausada }).go({ consistent: true })).data).toBeNull();
  });
});
