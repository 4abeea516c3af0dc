import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRIMEICONS_FONT_FACE } from './icons-plugin';
import { ICONS_TARGET, iconCodepoints, iconNamesInCode, LATIN_RANGES, latinInter, portalIcons, TARGET } from './subset-font';

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

  it('keeps every icon the code names, made again from the installed PrimeIcons', async () => {
    const glyphs = iconCodepoints();
    expect(glyphs.size).toBeGreaterThan(300);
    const used = [...iconNamesInCode()].filter((n) => glyphs.has(n));
    // The side menu's, the buttons', the status icons: dozens, all drawn by the subset.
    expect(used).toEqual(expect.arrayContaining(['pi-search', 'pi-file-check', 'pi-sign-out', 'pi-refresh', 'pi-angle-right']));
    const made = await portalIcons();
    expect(made.length).toBeLessThan(20_000);
    expect(Buffer.compare(made, readFileSync(ICONS_TARGET)), 'web/src/app/fonts/primeicons-portal.woff2 is stale (an icon was added?): run npm run fonts -w web').toBe(0);
  });

  it('replaces the one @font-face PrimeIcons declares', () => {
    const css = readFileSync(new URL('../../node_modules/primeicons/primeicons.css', import.meta.url), 'utf8');
    expect(css.match(/@font-face/g)).toHaveLength(1);
    expect(css.replace(PRIMEICONS_FONT_FACE, '')).not.toContain('@font-face');
  });
});
