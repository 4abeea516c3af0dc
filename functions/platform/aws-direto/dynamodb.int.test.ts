import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as Sdk from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoDb } from '../aws';
import { config } from '../env';
import * as Nosso from './dynamodb';

/**
 * Our DynamoDB client against the SDK's DocumentClient, on the twin's DynamoDB Local: every document
 * command the platform sends, given the same input, must leave the table as the SDK would and answer
 * what the SDK answers (but $metadata); an error must carry the same name and fields.
 */
const sdk = Sdk.DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
const nosso = dynamoDb();
const TableName = config.tableName;

const semMetadados = ({ $metadata: _m, ...resto }: Record<string, unknown>) => resto;

/** Sends the command to both clients, in turn, and returns both answers. */
async function ambos<N extends keyof typeof Nosso & keyof typeof Sdk>(nome: N, input: (lado: 'sdk' | 'nosso') => unknown) {
  const S = Sdk[nome] as unknown as new (i: unknown) => Sdk.GetCommand;
  const O = Nosso[nome] as unknown as new (i: unknown) => Nosso.GetCommand;
  const a = await sdk.send(new S(input('sdk')));
  const b = await nosso.send(new O(input('nosso')));
  return [semMetadados(a as never), semMetadados(b as never)] as const;
}

async function erroDe(p: Promise<unknown>): Promise<Record<string, unknown>> {
  const e = (await p.then(() => undefined, (x: unknown) => x)) as Record<string, unknown> | undefined;
  expect(e).toBeDefined();
  return { name: e!.name, message: e!.message, CancellationReasons: e!.CancellationReasons, status: (e!.$metadata as { httpStatusCode?: number }).httpStatusCode };
}

describe('our DynamoDB client answers as the SDK DocumentClient', () => {
  const pk = `$contrato#${randomUUID()}`;
  const item = (lado: string, n: number) => ({ pk, sk: `${lado}#${String(n).padStart(3, '0')}`, n, nome: 'José', vazio: undefined, lista: [1, 'a', { b: true }], mapa: { x: null, y: 2.5 }, conjunto: new Set(['a', 'b']) });

  it('puts, gets, updates and deletes an item with the same values', async () => {
    const [putA, putB] = await ambos('PutCommand', (l) => ({ TableName, Item: item(l, 1), ReturnValues: 'ALL_OLD' }));
    expect(putB).toEqual(putA);
    const [getA, getB] = await ambos('GetCommand', (l) => ({ TableName, Key: { pk, sk: `${l}#001` }, ConsistentRead: true }));
    expect((getB.Item as { sk: string }).sk).toBe('nosso#001');
    expect({ ...(getB.Item as object), sk: '' }).toEqual({ ...(getA.Item as object), sk: '' });
    expect((getB.Item as { conjunto: Set<string> }).conjunto).toEqual(new Set(['a', 'b']));
    const [upA, upB] = await ambos('UpdateCommand', (l) => ({
      TableName,
      Key: { pk, sk: `${l}#001` },
      UpdateExpression: 'SET n = n + :um, mapa.z = :z',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':um': 1, ':z': 'novo' },
      ReturnValues: 'ALL_NEW',
    }));
    expect({ ...(upB.Attributes as object), sk: '' }).toEqual({ ...(upA.Attributes as object), sk: '' });
    expect((upB.Attributes as { n: number }).n).toBe(2);
    const [delA, delB] = await ambos('DeleteCommand', (l) => ({ TableName, Key: { pk, sk: `${l}#001` }, ReturnValues: 'ALL_OLD' }));
    expect({ ...(delB.Attributes as object), sk: '' }).toEqual({ ...(delA.Attributes as object), sk: '' });
  });

  it('pages a query and a scan with the same items and the same last keys', async () => {
    for (let n = 0; n < 7; n++) await nosso.send(new Nosso.PutCommand({ TableName, Item: item('q', n) }));
    const pagina = (ExclusiveStartKey?: Record<string, unknown>) => ({
      TableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :q)', ExpressionAttributeValues: { ':pk': pk, ':q': 'q#' }, Limit: 3, ScanIndexForward: false,
      ...(ExclusiveStartKey ? { ExclusiveStartKey } : {}),
    });
    const [a1, b1] = await ambos('QueryCommand', () => pagina());
    expect(b1).toEqual(a1);
    expect(b1.LastEvaluatedKey).toEqual({ pk, sk: 'q#004' });
    const [a2, b2] = await ambos('QueryCommand', () => pagina(b1.LastEvaluatedKey as Record<string, unknown>));
    expect(b2).toEqual(a2);
    expect((b2.Items as { n: number }[]).map((i) => i.n)).toEqual([3, 2, 1]);
    const [sA, sB] = await ambos('ScanCommand', () => ({ TableName, FilterExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }));
    expect(sB.Count).toBe(sA.Count);
    expect(new Set((sB.Items as { sk: string }[]).map((i) => i.sk))).toEqual(new Set((sA.Items as { sk: string }[]).map((i) => i.sk)));
  });

  it('writes and reads in batches', async () => {
    const [wA, wB] = await ambos('BatchWriteCommand', (l) => ({
      RequestItems: { [TableName]: [{ PutRequest: { Item: item(`b${l}`, 1) } }, { PutRequest: { Item: item(`b${l}`, 2) } }, { DeleteRequest: { Key: { pk, sk: 'q#000' } } }] },
    }));
    expect(wB).toEqual(wA);
    const [gA, gB] = await ambos('BatchGetCommand', (l) => ({ RequestItems: { [TableName]: { Keys: [{ pk, sk: `b${l}#001` }, { pk, sk: `b${l}#002` }, { pk, sk: 'nenhum' }], ConsistentRead: true } } }));
    const ordenar = (r: Record<string, unknown>) => ((r.Responses as Record<string, { n: number }[]>)[TableName] ?? []).map((i) => i.n).sort();
    expect(ordenar(gB)).toEqual([1, 2]);
    expect(ordenar(gB)).toEqual(ordenar(gA));
    expect(gB.UnprocessedKeys).toEqual(gA.UnprocessedKeys);
  });

  it('runs transactions, and a cancelled one fails with the same name and reasons', async () => {
    const [tA, tB] = await ambos('TransactWriteCommand', (l) => ({
      TransactItems: [
        { Put: { TableName, Item: item(`t${l}`, 1), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName, Key: { pk, sk: `t${l}#002` }, UpdateExpression: 'ADD n :um', ExpressionAttributeValues: { ':um': 5 } } },
      ],
    }));
    expect(tB).toEqual(tA);
    const [rA, rB] = await ambos('TransactGetCommand', (l) => ({ TransactItems: [{ Get: { TableName, Key: { pk, sk: `t${l}#001` } } }, { Get: { TableName, Key: { pk, sk: `t${l}#002` } } }] }));
    expect((rB.Responses as { Item: { n: number } }[]).map((r) => r.Item.n)).toEqual([1, 5]);
    expect((rB.Responses as { Item: { n: number } }[]).map((r) => r.Item.n)).toEqual((rA.Responses as { Item: { n: number } }[]).map((r) => r.Item.n));
    const falha = (l: string) => ({
      TransactItems: [
        { ConditionCheck: { TableName, Key: { pk, sk: `t${l}#001` }, ConditionExpression: 'n = :dez', ExpressionAttributeValues: { ':dez': 10 } } },
        { Put: { TableName, Item: item(`t${l}`, 3) } },
      ],
    });
    const eA = await erroDe(sdk.send(new Sdk.TransactWriteCommand(falha('sdk') as Sdk.TransactWriteCommandInput)));
    const eB = await erroDe(nosso.send(new Nosso.TransactWriteCommand(falha('nosso') as Sdk.TransactWriteCommandInput)));
    expect(eB).toEqual(eA);
    expect(eB.name).toBe('TransactionCanceledException');
    expect((eB.CancellationReasons as { Code: string }[]).map((r) => r.Code)).toEqual(['ConditionalCheckFailed', 'None']);
  });

  it('fails a conditional write as the SDK does', async () => {
    const entrada = (l: string) => ({ TableName, Item: item(`c${l}`, 1), ConditionExpression: 'attribute_exists(pk)' });
    const eA = await erroDe(sdk.send(new Sdk.PutCommand(entrada('sdk'))));
    const eB = await erroDe(nosso.send(new Nosso.PutCommand(entrada('nosso'))));
    expect(eB).toEqual(eA);
    expect(eB).toMatchObject({ name: 'ConditionalCheckFailedException', status: 400 });
  });

  it('sends a plain command as DynamoDB JSON, untranslated', async () => {
    await nosso.send(new Nosso.PutItemCommand({ TableName, Item: { pk: { S: pk }, sk: { S: 'plain' }, n: { N: '7' } } }));
    const { Item } = await nosso.send(new Nosso.GetItemCommand({ TableName, Key: { pk: { S: pk }, sk: { S: 'plain' } }, ConsistentRead: true }));
    expect(Item).toEqual({ pk: { S: pk }, sk: { S: 'plain' }, n: { N: '7' } });
  });
});
