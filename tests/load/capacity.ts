/**
 * DynamoDB's capacity arithmetic, per partition (issue 36; bench/partitions.ts and
 * tests/api/partitions.test.ts): DynamoDB Local has no partitions, so what a request would put on
 * each partition of the table and of each index is computed here from the request and the items it
 * touched, by DynamoDB's published rules:
 *
 * - item size: each attribute's name plus its value (a string's UTF-8 bytes, a number about one byte
 *   per two significant digits plus one, a binary's bytes, a list or map 3 bytes plus its elements and
 *   1 byte each, a boolean or null 1 byte);
 * - a write: 1 unit per KB (rounded up) of the larger of the item before and after; a delete, the item
 *   deleted; a write whose condition fails still costs its units (at least one);
 * - a read: 1 unit per 4 KB (rounded up), halved when eventually consistent; a Query adds the sizes of
 *   the items it read and rounds once; an item not found costs the minimum;
 * - in a transaction every unit counts twice (writes, condition checks and reads), and so do the
 *   index writes the transaction causes: AWS does not document otherwise, so we count high;
 * - an index write costs the projected item's size (our indexes project ALL): an entry added, removed
 *   or rewritten is one write on its index partition; an entry whose key changed is two (the old
 *   partition's removal and the new one's put).
 *
 * A partition serves about 1,000 write and 3,000 read units a second (LIMITE_WCU, LIMITE_RCU).
 */

export const LIMITE_WCU = 1_000;
export const LIMITE_RCU = 3_000;

/** A DynamoDB attribute value in the wire's JSON form ({ S: 'x' }, { N: '1' }, { M: {...} } …). */
export type AttributeValue = Record<string, unknown>;
export type Item = Record<string, AttributeValue>;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function numberSize(n: string): number {
  const digits = n.replace(/^[-+]/, '').replace(/[eE].*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

export function valueSize(v: AttributeValue): number {
  if ('S' in v) return bytes(v.S as string);
  if ('N' in v) return numberSize(v.N as string);
  if ('B' in v) return Buffer.from(v.B as string, 'base64').length;
  if ('BOOL' in v || 'NULL' in v) return 1;
  if ('SS' in v) return (v.SS as string[]).reduce((s, x) => s + bytes(x), 0);
  if ('NS' in v) return (v.NS as string[]).reduce((s, x) => s + numberSize(x), 0);
  if ('BS' in v) return (v.BS as string[]).reduce((s, x) => s + Buffer.from(x, 'base64').length, 0);
  if ('L' in v) return 3 + (v.L as AttributeValue[]).reduce((s, x) => s + valueSize(x) + 1, 0);
  if ('M' in v) return 3 + Object.entries(v.M as Item).reduce((s, [k, x]) => s + bytes(k) + valueSize(x) + 1, 0);
  return 0;
}

export function itemSize(item: Item | null | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((s, [k, v]) => s + bytes(k) + valueSize(v), 0);
}

export const writeUnits = (size: number) => Math.max(1, Math.ceil(size / 1024));
export const readUnits = (size: number, consistent: boolean) => Math.max(1, Math.ceil(size / 4096)) * (consistent ? 1 : 0.5);

/** Which attributes hold a table's or an index's partition and sort key. */
export interface KeySchema {
  pk: string;
  sk?: string | undefined;
}
export interface TableKeys {
  table: KeySchema;
  indexes: Record<string, KeySchema>;
}

/** The units one request put on one partition: `where` is 'table' or the index's name. */
export interface Charge {
  table: string;
  where: string;
  partition: string;
  wcu: number;
  rcu: number;
}

const keyValue = (item: Item | null | undefined, attr: string): string | undefined => {
  const v = item?.[attr];
  if (!v) return undefined;
  return (v.S as string | undefined) ?? (v.N as string | undefined) ?? (v.B as string | undefined);
};

/**
 * One item written (put, update or delete; `applied` false when its condition failed or its
 * transaction was cancelled): the table's charge and each index's.
 */
export function chargesOfWrite(
  tableName: string,
  keys: TableKeys,
  w: { before: Item | null; after: Item | null; applied: boolean; transactional: boolean; key: Item },
): Charge[] {
  const factor = w.transactional ? 2 : 1;
  const partition = keyValue(w.key, keys.table.pk) ?? keyValue(w.after, keys.table.pk) ?? keyValue(w.before, keys.table.pk) ?? '?';
  const size = w.applied ? Math.max(itemSize(w.before), itemSize(w.after)) : itemSize(w.before);
  const charges: Charge[] = [{ table: tableName, where: 'table', partition, wcu: writeUnits(size) * factor, rcu: 0 }];
  if (!w.applied) return charges;
  for (const [index, schema] of Object.entries(keys.indexes)) {
    const inIndex = (item: Item | null) => item !== null && keyValue(item, schema.pk) !== undefined && (schema.sk === undefined || keyValue(item, schema.sk) !== undefined);
    const oldIn = inIndex(w.before);
    const newIn = inIndex(w.after);
    const oldPk = oldIn ? keyValue(w.before, schema.pk)! : undefined;
    const newPk = newIn ? keyValue(w.after, schema.pk)! : undefined;
    const sameKey = oldIn && newIn && oldPk === newPk && (schema.sk === undefined || keyValue(w.before, schema.sk) === keyValue(w.after, schema.sk));
    if (sameKey) {
      // Rewritten only when something it projects changed (ALL: anything).
      if (JSON.stringify(w.before) !== JSON.stringify(w.after)) {
        charges.push({ table: tableName, where: index, partition: newPk!, wcu: writeUnits(Math.max(itemSize(w.before), itemSize(w.after))) * factor, rcu: 0 });
      }
      continue;
    }
    if (oldIn) charges.push({ table: tableName, where: index, partition: oldPk!, wcu: writeUnits(itemSize(w.before)) * factor, rcu: 0 });
    if (newIn) charges.push({ table: tableName, where: index, partition: newPk!, wcu: writeUnits(itemSize(w.after)) * factor, rcu: 0 });
  }
  return charges;
}

/** One item read by key (GetItem, BatchGetItem, TransactGetItems). */
export function chargeOfGet(tableName: string, keys: TableKeys, r: { key: Item; item: Item | null; consistent: boolean; transactional: boolean }): Charge {
  const partition = keyValue(r.key, keys.table.pk) ?? '?';
  return { table: tableName, where: 'table', partition, wcu: 0, rcu: readUnits(itemSize(r.item), r.consistent || r.transactional) * (r.transactional ? 2 : 1) };
}

/** One Query: the items it read (before any filter: `scanned` over `items.length` scales them). */
export function chargeOfQuery(tableName: string, r: { where: string; partition: string; items: Item[]; scanned: number; consistent: boolean }): Charge {
  const returned = r.items.reduce((s, i) => s + itemSize(i), 0);
  const size = r.items.length > 0 ? (returned * Math.max(r.scanned, r.items.length)) / r.items.length : 0;
  return { table: tableName, where: r.where, partition: r.partition, wcu: 0, rcu: readUnits(size, r.consistent) };
}

/**
 * A partition key's logical key, its shard and its pattern: the components named like a shard
 * (`#shard_3`, `#fila_07`, `#parte_1`) are the shard, and a time window in a key (`:<epoch seconds>`,
 * a quota's window start) is masked too, since at a steady rate each window takes the whole
 * rate in turn; the other components (ids, months, UFs) stay, so a hot UF or one client is its own
 * key. The pattern masks every value, for reading.
 */
const SHARD_COMPONENT = /^(shard|fila|parte|particao|balde|fatia)_/i;
export function logicalKey(partition: string): { logical: string; shard: string; pattern: string } {
  const parts = partition.split('#');
  const logical = parts.map((p) => (SHARD_COMPONENT.test(p) ? p.replace(/_.*$/, '_*') : p.replace(/:1\d{9}(?=$|:)/g, ':*'))).join('#');
  const shard = parts.filter((p) => SHARD_COMPONENT.test(p)).join('#');
  const pattern = parts
    .map((p, i) => {
      if (i === 0) return p;
      const m = /^([a-z0-9]+)_(.*)$/i.exec(p);
      return m ? `${m[1]}_*` : p.replace(/[0-9a-f-]{8,}/gi, '*');
    })
    .join('#');
  return { logical, shard, pattern };
}

export interface HotPartition {
  /** 'table' or the index's name, with the masked key's pattern. */
  where: string;
  pattern: string;
  /** Units one operation puts on one partition of that key (its shards' mean: the expected load). */
  wcuPerOp: number;
  rcuPerOp: number;
  /** How many partitions (shards) the key was spread over in the sample. */
  shards: number;
  /** The busiest shard of the sample, for reading: random choice makes it a little above the mean. */
  maxWcuPerOp: number;
  /** Operations a second that reach this key at the path's launch rate. */
  rate: number;
  share: number;
}

/**
 * Per logical key (a key with its shards), the units one operation puts on one of its partitions,
 * and that partition's share of its limit at `rate` operations a second: `max(WCU × rate / 1,000,
 * RCU × rate / 3,000)`. Sorted hottest first.
 */
export function heat(charges: readonly Charge[], ops: number, rate: number | ((logical: string) => number)): HotPartition[] {
  const rateOf = typeof rate === 'number' ? () => rate : rate;
  const byLogical = new Map<string, { where: string; pattern: string; shards: Map<string, { wcu: number; rcu: number }> }>();
  for (const c of charges) {
    const k = logicalKey(c.partition);
    const id = `${c.table}|${c.where}|${k.logical}`;
    const l = byLogical.get(id) ?? { where: c.where, pattern: k.pattern, shards: new Map() };
    const s = l.shards.get(k.shard) ?? { wcu: 0, rcu: 0 };
    s.wcu += c.wcu;
    s.rcu += c.rcu;
    l.shards.set(k.shard, s);
    byLogical.set(id, l);
  }
  const out: HotPartition[] = [];
  for (const [logical, l] of byLogical) {
    // The shards' mean is the expected load of each: a choice at random or by hash spreads evenly.
    const parts = [...l.shards.values()];
    const shards = parts.length;
    const r = rateOf(logical);
    const wcu = parts.reduce((s, x) => s + x.wcu, 0) / shards / ops;
    const rcu = parts.reduce((s, x) => s + x.rcu, 0) / shards / ops;
    out.push({
      where: l.where,
      pattern: l.pattern,
      wcuPerOp: round(wcu),
      rcuPerOp: round(rcu),
      shards,
      maxWcuPerOp: round(Math.max(...parts.map((x) => x.wcu)) / ops),
      rate: r,
      share: round(Math.max((wcu * r) / LIMITE_WCU, (rcu * r) / LIMITE_RCU)),
    });
  }
  return out.sort((a, b) => b.share - a.share);
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
