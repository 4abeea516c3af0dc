import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LATIN_RANGES, latinInter, TARGET } from './subset-font';

describe('the Latin subset of Inter', () => {
  it('is the committed file, made again from the installed theme', async () => {
    const made = await latinInter();
    expect(made.subarray(0, 4).toString('latin1')).toBe('wOF2');
    // Small enough for a phone's first page; the theme's whole font is 346 KB.
    expect(made.length).toBeLessThan(100_000);
    expect(Buffer.compare(made, readFileSync(TARGET)), 'web/src/app/fonts/inter-latin.woff2 is stale: run npm run fonts -w web').toBe(0);
  });

  it('declares the ranges it keeps in the @font-face that uses it', () => {
    const css = readFileSync(new URL('../src/app/first-paint.css', import.meta.url), 'utf8');
    const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
    const declared = LATIN_RANGES.map(([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`)).join(', ');
    expect(css).toContain(`unicode-range: ${declared};`);
  });
});
