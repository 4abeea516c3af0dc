import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand } from '../../functions/platform/aws-direto/dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { criar } from '../../functions/cessao/store';
import { gravarDocumentoErro } from '../../functions/fate/documentos-erro-store';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { formaAntiga, registrarExcedente, somaNoExtrato } from '../../functions/prepago/store';
import { registrarEntrega, registrarTentativa } from '../../functions/webhooks/log-store';
import { migrar } from './fim-dos-registros';

/**
 * The end-date migration (issue 38 item 5) against DynamoDB Local: items written as before (no
 * `expiresAt`) of each entity that now ends get the end date their store gives a new one, from their own
 * date (an attempt from its delivery's creation, or its own instant once the delivery is gone; a
 * statement line from its month's end, in either key form); an end date already there is not changed,
 * an item with no readable date is left and counted, another service's item is not touched, and a
 * second run changes nothing.
 */

// The migration scans the whole table: on one of this file's own, it reads only what the test writes.
beforeAll(() => ownTable());

type Item = Record<string, unknown> & { pk: string; sk: string };
const DIA = 86_400;
const segundos = (instante: string) => Date.parse(instante) / 1000;

async function todos(): Promise<Item[]> {
  const itens: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb().send(new ScanCommand({ TableName: config.tableName, ConsistentRead: true, ExclusiveStartKey: start }));
    itens.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return itens;
}

describe('the end-date migration', () => {
  it('gives the items of before the end date of a new one, from their own date, and can run again', { timeout: 120_000 }, async () => {
    const n = randomUUID().slice(0, 8);
    const chave = `29240312345678000190550010000000011234${n}`.slice(0, 44).toUpperCase();
    const cessao = { chave, clienteId: `cli-${n}`, cnpjCessionario: '11222333000181', dataCessao: '2024-03-10', valor: 100, uf: 'BA', registradaPor: 'IMF' };
    await criar({ ...cessao, nDup: '001', registradaEm: '2024-03-10T12:00:00.000Z' });
    // Written by today's store with an end date of its own: the migration leaves it.
    await criar({ ...cessao, nDup: '002', registradaEm: '2024-03-11T12:00:00.000Z', expiresAt: 1_900_000_000 });
    await gravarDocumentoErro({ id: `BA-${n}`, tipo: 'procNFe_v4.00.xsd', uf: 'BA', nsu: '1', excecao: 'X', erro: 'e', xmlKey: 'sefaz/BA/1.xml.gz', createdAt: '2025-01-02T03:04:05.000Z' });
    const entrega = (deliveryId: string, dataCriacao: string) =>
      registrarEntrega({ deliveryId, clienteId: `cli-${n}`, operacao: 'EVENTO', descricao: 'x', body: '{}', url: 'https://h.example', dataCriacao });
    const falha = { mensagemId: 'm', recebimento: 1, status: 503, latenciaMs: 1 };
    await entrega(`d1-${n}`, '2025-06-01T00:00:00.000Z');
    // A failed attempt: the delivery gets its marker too.
    await registrarTentativa({ ...falha, deliveryId: `d1-${n}`, instante: '2025-06-03T00:00:00.000Z' });
    await entrega(`d2-${n}`, '2025-06-20T00:00:00.000Z');
    await registrarTentativa({ ...falha, deliveryId: `d2-${n}`, instante: '2025-07-01T10:00:00.000Z' });
    await registrarExcedente({ chave: `uso-${n}`, clienteId: `cli-${n}`, servico: 9, resultado: 'EXCEDENTE', valorMilesimos: 10, createdAt: '2025-02-15T10:00:00.000Z' });
    await registrarExcedente({ chave: `sem-data-${n}`, clienteId: `cli-${n}`, servico: 9, resultado: 'EXCEDENTE', valorMilesimos: 10, createdAt: '2025-02-15T10:00:00.000Z' });
    await dynamoDb().send(new UpdateCommand(somaNoExtrato({ clienteId: `cli-${n}`, mes: '2025-02', servico: 9, shard: 3, valorUnitario: 10, requisicoes: 1, valorMilesimos: 10 }) as never));
    // A statement line in the form of before issue 36 (pk the client, the month in the sort key).
    await formaAntiga.extrato().put({ clienteId: `cli-${n}`, mes: '2024-12', servico: 9, shard: 1, valorUnitario: 10, requisicoes: 2, valorMilesimos: 20 }).go();
    // Another service's item that happens to carry the same entity name.
    await dynamoDb().send(new PutCommand({ TableName: config.tableName, Item: { pk: `$outro#id_${n}`, sk: '$cessao_1', __edb_e__: 'cessao', __edb_v__: '1', registradaEm: '2024-01-01T00:00:00.000Z' } }));

    // As before issue 38 item 5: no end date. The second delivery is gone (its attempt stays), one debit's date unreadable.
    const doSegundo = (i: Item) => i.pk === `$webhooks#deliveryid_d2-${n}`;
    for (const i of await todos()) {
      if (doSegundo(i) && i.sk !== '$webhooktentativa_1#mensagemid_m#recebimento_1') {
        await dynamoDb().send(new DeleteCommand({ TableName: config.tableName, Key: { pk: i.pk, sk: i.sk } }));
      } else if (i.expiresAt !== undefined && i.expiresAt !== 1_900_000_000) {
        await dynamoDb().send(new UpdateCommand({ TableName: config.tableName, Key: { pk: i.pk, sk: i.sk }, UpdateExpression: 'REMOVE expiresAt' }));
      }
      if (i.chave === `sem-data-${n}`) {
        await dynamoDb().send(new UpdateCommand({ TableName: config.tableName, Key: { pk: i.pk, sk: i.sk }, UpdateExpression: 'SET createdAt = :x', ExpressionAttributeValues: { ':x': 'ontem' } }));
      }
    }
    expect((await todos()).filter((i) => i.expiresAt !== undefined).map((i) => i.expiresAt)).toEqual([1_900_000_000]);

    expect(await migrar(2)).toEqual({
      cessao: 1,
      documentoErro: 1,
      webhookEntrega: 1,
      webhookMarcador: 1,
      webhookTentativa: 2,
      debitoPrepago: 1,
      extratoPrepago: 2,
      semData: 1,
    });
    // A second run: nothing left but the item with no date, which stays as it is.
    expect(await migrar(2)).toEqual({ cessao: 0, documentoErro: 0, webhookEntrega: 0, webhookMarcador: 0, webhookTentativa: 0, debitoPrepago: 0, extratoPrepago: 0, semData: 1 });

    const fins = new Map((await todos()).map((i) => [`${i.__edb_e__ as string} ${i.pk} ${i.sk}`, i.expiresAt]));
    const fim = (entidade: string, pk: string, sk: string) => fins.get(`${entidade} ${pk} ${sk}`);
    // Assignments and prepaid debits: five years (of 365.25 days, rounded up) and a month after their date.
    expect(fim('cessao', `$cessao#chave_${chave.toLowerCase()}`, '$cessao_1#nDup_001')).toBe(segundos('2024-03-10T12:00:00.000Z') + 1858 * DIA);
    expect(fim('cessao', `$cessao#chave_${chave.toLowerCase()}`, '$cessao_1#nDup_002')).toBe(1_900_000_000);
    expect(fim('debitoPrepago', `$prepago#chave_uso-${n}`, '$debitoprepago_1')).toBe(segundos('2025-02-15T10:00:00.000Z') + 1858 * DIA);
    expect(fim('debitoPrepago', `$prepago#chave_sem-data-${n}`, '$debitoprepago_1')).toBeUndefined();
    // Statement lines: from the end of their month in Bahia, in either key form.
    expect(fim('extratoPrepago', `$prepago#clienteid_cli-${n}#mes_2025-02#shard_3`, '$extratoprepago_1#servico_9')).toBe(segundos('2025-03-01T00:00:00-03:00') + 1858 * DIA);
    expect(fim('extratoPrepago', `$prepago#clienteid_cli-${n}`, '$extratoprepago_1#mes_2024-12#servico_9#shard_1')).toBe(segundos('2025-01-01T00:00:00-03:00') + 1858 * DIA);
    // An error document: a year after it was recorded.
    expect(fim('documentoErro', `$fate#id_ba-${n}`, '$documentoerro_1')).toBe(segundos('2025-01-02T03:04:05.000Z') + 365 * DIA);
    // The webhook log: 490 days after the delivery's creation, its attempt and marker with it; an attempt whose delivery is gone, from its own instant.
    const d1 = `$webhooks#deliveryid_d1-${n}`;
    const fimD1 = segundos('2025-06-01T00:00:00.000Z') + 490 * DIA;
    expect([fim('webhookEntrega', d1, '$webhookentrega_1'), fim('webhookMarcador', d1, '$webhookmarcador_1'), fim('webhookTentativa', d1, '$webhooktentativa_1#mensagemid_m#recebimento_1')]).toEqual([fimD1, fimD1, fimD1]);
    expect(fim('webhookTentativa', `$webhooks#deliveryid_d2-${n}`, '$webhooktentativa_1#mensagemid_m#recebimento_1')).toBe(segundos('2025-07-01T10:00:00.000Z') + 490 * DIA);
    expect(fim('cessao', `$outro#id_${n}`, '$cessao_1')).toBeUndefined();
  });
});
