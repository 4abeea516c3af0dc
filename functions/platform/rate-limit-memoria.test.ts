import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 36: a quota's window that this container saw used up refuses further requests without any
 * database work, and a sharded quota adds to one counter partition per request.
 */
const escritas: { counter: string; shard: number }[] = [];
let hitsDevolvidos = 0;
vi.mock('./tabela-direta', () => ({
  upsertSozinho: (_modelo: unknown, item: { counter: string; shard: number }) => {
    escritas.push(item);
    return Promise.resolve({ hits: hitsDevolvidos });
  },
}));

const { consume } = await import('./rate-limit');

describe('quota counters', () => {
  beforeEach(() => {
    escritas.length = 0;
  });

  it('a request over a window this container saw full is refused with no write', async () => {
    const q = { name: 'teste', value: 'cliente-a', limit: 10, windowSeconds: 10 };
    const agora = 1_000_000_000;
    hitsDevolvidos = 5;
    await consume([q], agora);
    hitsDevolvidos = 11;
    await expect(consume([q], agora)).rejects.toMatchObject({ status: 429 });
    expect(escritas).toHaveLength(2);
    for (let i = 0; i < 50; i++) await expect(consume([q], agora + 1_000)).rejects.toMatchObject({ status: 429 });
    expect(escritas).toHaveLength(2);
    // The next window counts again.
    hitsDevolvidos = 1;
    await consume([q], agora + 10_000);
    expect(escritas).toHaveLength(3);
  });

  it('a sharded quota writes one of its shards per request, and each shard admits its share of the limit', async () => {
    const q = { name: 'teste', value: 'cliente-b', limit: 100, windowSeconds: 10, shards: 4 };
    hitsDevolvidos = 25;
    for (let i = 0; i < 200; i++) await consume([q], 2_000_000_000);
    expect(new Set(escritas.map((e) => e.shard))).toEqual(new Set([0, 1, 2, 3]));
    hitsDevolvidos = 26;
    await expect(consume([q], 2_000_000_000)).rejects.toMatchObject({ status: 429 });
  });
});
