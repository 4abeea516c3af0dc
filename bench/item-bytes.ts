import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/**
 * DynamoDB's item-size rule: attribute names and values in UTF-8, numbers about one byte per two
 * digits, 3 bytes per list or map and 1 per element. DynamoDB adds 100 bytes to each item and each
 * index entry on top (not counted here).
 */
function bytes(v: AttributeValue): number {
  if (v.S !== undefined) return Buffer.byteLength(v.S);
  if (v.N !== undefined) return Math.ceil(v.N.replace(/^-/, '').replace('.', '').length / 2) + 1;
  if (v.L) return 3 + v.L.reduce((s, e) => s + 1 + bytes(e), 0);
  if (v.M) return 3 + Object.entries(v.M).reduce((s, [k, e]) => s + 1 + Buffer.byteLength(k) + bytes(e), 0);
  return 1;
}

export const itemBytes = (item: Record<string, unknown>) =>
  Object.entries(marshall(item, { removeUndefinedValues: true })).reduce((s, [k, v]) => s + Buffer.byteLength(k) + bytes(v), 0);

type Criavel = { create(r: unknown): { params(): { Item: Record<string, unknown> } } };
/** The item an ElectroDB entity writes for the record (keys and identifiers included). */
export const itemEscrito = (entity: unknown, record: unknown) => (entity as Criavel).create(record).params().Item;
export const escrito = (entity: unknown, record: unknown) => itemBytes(itemEscrito(entity, record));
