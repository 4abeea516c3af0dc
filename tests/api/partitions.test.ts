import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AIM, measurePartitions, type PathHeat } from '../load/partitions';

/**
 * Issue 36: no paid path may bring a hot partition back. The same measure as bench/partitions.ts
 * (a twin of this file's own, every DynamoDB request recorded through a relay, the capacity units
 * each operation puts on each partition projected at the launch rates), on fewer operations: counts,
 * not times, so the figures do not depend on the machine.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('partition load of the paid paths at the launch rates', () => {
  it('keeps every partition of the metered look-ups, prepaid debits and webhook deliveries at or below 30 % of its limit', { timeout: 600_000 }, async () => {
    const heat = await measurePartitions({ root, ops: { meteredLookups: 160, prepaidDebits: 160, webhookDeliveries: 160 } });
    const linha = (h: PathHeat) => `${h.path}: ${h.hottest.where} ${h.hottest.pattern} ${h.unitsPerOp.wcu} WCU + ${h.unitsPerOp.rcu} RCU per op on ${h.hottest.shards} partition(s) at ${h.hottest.rate}/s = ${(h.sharePerPartition * 100).toFixed(1)} %`;
    console.log(heat.map(linha).join('\n'));
    expect(heat.map((h) => h.path)).toEqual(['meteredLookups', 'prepaidDebits', 'webhookDeliveries']);
    for (const h of heat) {
      // Something was measured: a look-up writes its charge, a debit its balance, a delivery its log.
      expect(h.totalPerOp.wcu, h.path).toBeGreaterThan(0);
      expect(h.sharePerPartition, linha(h)).toBeLessThanOrEqual(AIM);
    }
  });
});
