import type * as Base from '@aws-sdk/client-dynamodb';
import type * as Doc from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { Metadados, Servico } from './chamada';
import { ClienteAws, comando, type Comando, type OpcoesDeEnvio } from './comando';

/**
 * DynamoDB without the SDK's core (chamada.ts): the plain commands (attribute values typed by hand)
 * and the document commands of @aws-sdk/lib-dynamodb, with its names, inputs and outputs. A document
 * command's items, keys and expression values are plain objects, marshalled on the way out and
 * unmarshalled on the way back by @aws-sdk/util-dynamodb (the library lib-dynamodb uses), with the
 * options the platform always used: undefined attributes are dropped, numbers come back as numbers.
 * ElectroDB is handed this client with these commands (table.ts), so the Lambda bundles alias
 * @aws-sdk/lib-dynamodb here (infra/lib/bundle-options.ts).
 */
export const DYNAMODB: Servico = { assinatura: 'dynamodb', host: 'dynamodb', variavel: 'DYNAMODB', json: { versao: '1.0', alvo: 'DynamoDB_20120810' } };

/** The plain commands: sent and answered as DynamoDB's JSON. */
export class GetItemCommand extends comando<Base.GetItemCommandInput, Base.GetItemCommandOutput>('GetItem') {}
export class PutItemCommand extends comando<Base.PutItemCommandInput, Base.PutItemCommandOutput>('PutItem') {}
export class BatchWriteItemCommand extends comando<Base.BatchWriteItemCommandInput, Base.BatchWriteItemCommandOutput>('BatchWriteItem') {}

/** A document command: the same operation, its values as plain objects (translated by `send`). */
class ComandoDoc<E, S> implements Comando<E, S> {
  declare readonly __saida?: S;
  constructor(readonly operacao: string, readonly input: E) {}
}
/** The class of one document command: `class XCommand extends comandoDoc<XInput, XOutput>('Operation') {}`. */
function comandoDoc<E, S>(operacao: string) {
  return class extends ComandoDoc<E, S> {
    constructor(input: E) {
      super(operacao, input);
    }
  };
}
export class GetCommand extends comandoDoc<Doc.GetCommandInput, Doc.GetCommandOutput>('GetItem') {}
export class PutCommand extends comandoDoc<Doc.PutCommandInput, Doc.PutCommandOutput>('PutItem') {}
export class UpdateCommand extends comandoDoc<Doc.UpdateCommandInput, Doc.UpdateCommandOutput>('UpdateItem') {}
export class DeleteCommand extends comandoDoc<Doc.DeleteCommandInput, Doc.DeleteCommandOutput>('DeleteItem') {}
export class QueryCommand extends comandoDoc<Doc.QueryCommandInput, Doc.QueryCommandOutput>('Query') {}
export class ScanCommand extends comandoDoc<Doc.ScanCommandInput, Doc.ScanCommandOutput>('Scan') {}
export class BatchGetCommand extends comandoDoc<Doc.BatchGetCommandInput, Doc.BatchGetCommandOutput>('BatchGetItem') {}
export class BatchWriteCommand extends comandoDoc<Doc.BatchWriteCommandInput, Doc.BatchWriteCommandOutput>('BatchWriteItem') {}
export class TransactGetCommand extends comandoDoc<Doc.TransactGetCommandInput, Doc.TransactGetCommandOutput>('TransactGetItems') {}
export class TransactWriteCommand extends comandoDoc<Doc.TransactWriteCommandInput, Doc.TransactWriteCommandOutput>('TransactWriteItems') {}

export type { QueryCommandInput, ScanCommandInput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

type Objeto = Record<string, unknown>;
const eObjeto = (v: unknown): v is Objeto => typeof v === 'object' && v !== null && !Array.isArray(v);
const paraDynamo = (v: unknown) => marshall(v as Objeto, { removeUndefinedValues: true });
const deDynamo = (v: unknown) => unmarshall(v as Parameters<typeof unmarshall>[0]);

/**
 * Where a document input holds values (lib-dynamodb's translation): an item, a key, the expression
 * values, a page's start key; a batch's `Keys` is a list of keys. Anything else is walked into (the
 * batches' tables, the transactions' items) and left as it is.
 */
const VALORES = new Set(['Item', 'Key', 'ExpressionAttributeValues', 'ExclusiveStartKey']);
function entrada(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(entrada);
  if (!eObjeto(v)) return v;
  const fora: Objeto = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    fora[k] = VALORES.has(k) ? paraDynamo(x) : k === 'Keys' && Array.isArray(x) ? x.map(paraDynamo) : entrada(x);
  }
  return fora;
}

/**
 * Where an answer holds items (lib-dynamodb's translation): an item, the old or new attributes, a
 * page's last key, a list of items, a batch's unprocessed keys and items; BatchGetItem's `Responses` is
 * a table of lists of items (TransactGetItems': a list of { Item }).
 */
const ITENS = new Set(['Item', 'Key', 'Attributes', 'LastEvaluatedKey']);
function saida(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(saida);
  if (!eObjeto(v)) return v;
  const fora: Objeto = {};
  for (const [k, x] of Object.entries(v)) {
    if (ITENS.has(k) && eObjeto(x)) fora[k] = deDynamo(x);
    else if ((k === 'Items' || k === 'Keys') && Array.isArray(x)) fora[k] = x.map(deDynamo);
    else if (k === 'Responses' && eObjeto(x)) fora[k] = Object.fromEntries(Object.entries(x).map(([t, itens]) => [t, (itens as unknown[]).map(deDynamo)]));
    else if (k === '$metadata' || k === 'ConsumedCapacity') fora[k] = x;
    else fora[k] = saida(x);
  }
  return fora;
}

/** The table's client: plain and document commands alike. */
export class DynamoDB {
  private readonly cliente = new ClienteAws(DYNAMODB);

  async send<E, S>(command: Comando<E, S>, opcoes: OpcoesDeEnvio = {}): Promise<Omit<S, '$metadata'> & { $metadata: Metadados }> {
    if (!(command instanceof ComandoDoc)) return this.cliente.send(command, opcoes);
    const traduzido: Comando<unknown, S> = { operacao: command.operacao, input: entrada(command.input) };
    return saida(await this.cliente.send(traduzido, opcoes)) as Omit<S, '$metadata'> & { $metadata: Metadados };
  }
}
