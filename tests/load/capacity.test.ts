import { describe, expect, it } from 'vitest';
import { chargesOfWrite, heat, itemSize, logicalKey, readUnits, writeUnits, type TableKeys } from './capacity';

const keys: TableKeys = { table: { pk: 'pk', sk: 'sk' }, indexes: { gsi1: { pk: 'gsi1pk', sk: 'gsi1sk' } } };
const S = (v: string) => ({ S: v });

describe('DynamoDB capacity arithmetic (issue 36)', () => {
  it('sizes items by attribute names and values, and rounds units as DynamoDB does', () => {
    expect(itemSize({ pk: S('abc'), n: { N: '12345' } })).toBe(2 + 3 + 1 + 4);
    expect(itemSize({ m: { M: { a: S('x') } }, l: { L: [S('yy')] } })).toBe(1 + 3 + 1 + 1 + 1 + 1 + 3 + 2 + 1);
    expect(writeUnits(1)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
    expect(readUnits(4097, true)).toBe(2);
    expect(readUnits(100, false)).toBe(0.5);
  });

  it('charges a write on the table and on each index whose entry it adds, rewrites or removes, doubled in a transaction', () => {
    const before = { pk: S('p'), sk: S('s'), gsi1pk: S('g'), gsi1sk: S('1'), v: { N: '1' } };
    const after = { ...before, v: { N: '2' } };
    expect(chargesOfWrite('t', keys, { before, after, applied: true, transactional: true, key: { pk: S('p'), sk: S('s') } })).toEqual([
      { table: 't', where: 'table', partition: 'p', wcu: 2, rcu: 0 },
      { table: 't', where: 'gsi1', partition: 'g', wcu: 2, rcu: 0 },
    ]);
    // The index key moved: removed from one partition, added to another.
    const moved = { ...after, gsi1pk: S('h') };
    expect(chargesOfWrite('t', keys, { before, after: moved, applied: true, transactional: false, key: { pk: S('p'), sk: S('s') } }).map((c) => `${c.where}:${c.partition}`)).toEqual(['table:p', 'gsi1:g', 'gsi1:h']);
    // A failed condition costs the table its unit and writes no index.
    expect(chargesOfWrite('t', keys, { before, after: before, applied: false, transactional: false, key: { pk: S('p'), sk: S('s') } })).toEqual([{ table: 't', where: 'table', partition: 'p', wcu: 1, rcu: 0 }]);
  });

  it('groups a key’s shards and time windows into one logical key, and keeps ids, months and UFs apart', () => {
    expect(logicalKey('$consumo#clienteid_a#mes_2026-12#shard_7')).toMatchObject({ logical: '$consumo#clienteid_a#mes_2026-12#shard_*', shard: 'shard_7', pattern: '$consumo#clienteid_*#mes_*#shard_*' });
    expect(logicalKey('$platform#counter_integrador:cliente:x:1764633600#shard_1').logical).toBe('$platform#counter_integrador:cliente:x:*#shard_*');
    expect(logicalKey('$fate#emitentecnpj_11222333000181#modelo_55').logical).toBe('$fate#emitentecnpj_11222333000181#modelo_55');
  });

  it('projects the mean load of a key’s shards at the path’s rate', () => {
    const charges = Array.from({ length: 64 }, (_, i) => ({ table: 't', where: 'table', partition: `$x#shard_${i % 16}`, wcu: 2, rcu: 0 }));
    const [h] = heat(charges, 64, 1_000);
    // 2 units an operation over 16 shards at 1,000 operations a second: 125 units, 12.5 %.
    expect(h).toMatchObject({ shards: 16, wcuPerOp: 0.125, share: 0.125 });
  });
});
