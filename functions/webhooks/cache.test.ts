import { describe, expect, it } from 'vitest';
import { CacheComValidade, Intervalo } from './cache';
import { DESTINO_VALIDADE_MS } from './dispatcher';
import { PAUSAS_VALIDADE_MS, SUCESSO_INTERVALO_MS } from './endpoint-store';
import { ESPERA_DA_LEITURA_FINAL_MS } from './jobs';

/**
 * The dispatcher's in-container memory (docs/webhooks.md "Partition load"): the pause list and a
 * client's configuration read at most once per validity per container, the endpoint's success mark
 * written at most once per interval. A simulated clock.
 */
function relogio() {
  let agora = 1_000_000;
  return { agora: () => agora, andar: (ms: number) => void (agora += ms) };
}

describe('CacheComValidade', () => {
  it('reads once per validity, then again once it has expired', async () => {
    const r = relogio();
    const cache = new CacheComValidade<number>(5_000, r.agora);
    let leituras = 0;
    const ler = async () => ++leituras;
    expect(await cache.obter('pausas', ler)).toBe(1);
    r.andar(4_999);
    expect(await cache.obter('pausas', ler)).toBe(1);
    r.andar(1);
    expect(await cache.obter('pausas', ler)).toBe(2);
    expect(leituras).toBe(2);
  });

  it('shares one read among concurrent misses, keeps keys apart, and forgets on invalidation', async () => {
    const r = relogio();
    const cache = new CacheComValidade<string>(5_000, r.agora);
    let leituras = 0;
    const ler = (v: string) => async () => {
      leituras++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return v;
    };
    expect(await Promise.all(Array.from({ length: 10 }, () => cache.obter('0#cli-1', ler('a'))))).toEqual(Array(10).fill('a'));
    expect(leituras).toBe(1);
    expect(await cache.obter('1#cli-1', ler('b'))).toBe('b');
    cache.invalidar('0#cli-1');
    expect(await cache.obter('0#cli-1', ler('c'))).toBe('c');
    cache.invalidar();
    expect(await cache.obter('1#cli-1', ler('d'))).toBe('d');
    expect(leituras).toBe(4);
  });

  it('does not keep a failed read, and drops the oldest key past its bound', async () => {
    const r = relogio();
    const cache = new CacheComValidade<number>(5_000, r.agora, 2);
    await expect(cache.obter('k', () => Promise.reject(new Error('throttled')))).rejects.toThrow('throttled');
    expect(await cache.obter('k', async () => 7)).toBe(7);
    await cache.obter('x', async () => 1);
    await cache.obter('y', async () => 2);
    // 'k' was the oldest of three: read again.
    expect(await cache.obter('k', async () => 8)).toBe(8);
    expect(await cache.obter('y', async () => 3)).toBe(2);
  });
});

describe('Intervalo (the endpoint’s success mark)', () => {
  it('lets one write through per interval and endpoint', () => {
    const r = relogio();
    const marcas = new Intervalo(SUCESSO_INTERVALO_MS, r.agora);
    expect(marcas.passar('EVENTO#cli-1')).toBe(true);
    // 2,000 deliveries a second for a minute: none of them writes again.
    for (let i = 0; i < 120; i++) {
      r.andar(499);
      expect(marcas.passar('EVENTO#cli-1')).toBe(false);
    }
    expect(marcas.passar('ESCR_FAT#cli-1')).toBe(true);
    r.andar(SUCESSO_INTERVALO_MS - 120 * 499);
    expect(marcas.passar('EVENTO#cli-1')).toBe(true);
    expect(marcas.passar('EVENTO#cli-1')).toBe(false);
  });

  it('lets the next one through when the write it allowed failed', () => {
    const marcas = new Intervalo(SUCESSO_INTERVALO_MS, relogio().agora);
    expect(marcas.passar('e')).toBe(true);
    marcas.esquecer('e');
    expect(marcas.passar('e')).toBe(true);
  });
});

describe('validities', () => {
  it('a pause and a configuration apply within 5–10 s; the resume’s last read waits for every copy of the pause', () => {
    expect(PAUSAS_VALIDADE_MS).toBeGreaterThanOrEqual(5_000);
    expect(PAUSAS_VALIDADE_MS).toBeLessThanOrEqual(10_000);
    expect(DESTINO_VALIDADE_MS).toBeLessThanOrEqual(PAUSAS_VALIDADE_MS);
    expect(ESPERA_DA_LEITURA_FINAL_MS).toBeGreaterThan(PAUSAS_VALIDADE_MS);
  });
});
