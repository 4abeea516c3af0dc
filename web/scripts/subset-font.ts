/**
 * `npm run fonts -w web`: the portal's text font, Inter (SIL Open Font License 1.1, shipped with
 * PrimeReact's lara theme), cut to what the portal writes: the Latin letters of Portuguese and the
 * punctuation, currency and arrows around them, weights 400 to 700 (the only ones the theme and our
 * CSS use). The theme's own files are the whole variable font with italics, 346 KB and 381 KB, which
 * a phone would download before the first page could show its text in it; this one is about 75 KB.
 * Characters outside the ranges fall back to the system's font (the @font-face's unicode-range).
 *
 * The result is committed (web/src/app/fonts/inter-latin.woff2); web/scripts/subset-font.test.ts
 * checks it is what this script makes from the installed theme, so a PrimeReact update that changes
 * the font fails until the file is made again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';

/** Unicode ranges kept, as the @font-face's unicode-range (web/src/app/first-paint.css) lists them. */
export const LATIN_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e], // Basic Latin
  [0xa0, 0x17f], // Latin-1 Supplement and Latin Extended-A (ã, ç, é, º, ª, §, …)
  [0x2010, 0x2027], // dashes, quotes, bullet, ellipsis
  [0x2030, 0x203a], // per mille, primes, angle quotes
  [0x20ac, 0x20ac], // €
  [0x2122, 0x2122], // ™
  [0x2190, 0x2193], // arrows
  [0x2212, 0x2212], // minus sign
];

export const SOURCE = fileURLToPath(import.meta.resolve('primereact/resources/themes/lara-light-green/fonts/InterVariable.woff2'));
export const TARGET = fileURLToPath(new URL('../src/app/fonts/inter-latin.woff2', import.meta.url));

export async function latinInter(): Promise<Buffer> {
  const text = LATIN_RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i))).join('');
  return subsetFont(readFileSync(SOURCE), text, { targetFormat: 'woff2', variationAxes: { wght: { min: 400, max: 700 } } });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const font = await latinInter();
  writeFileSync(TARGET, font);
  console.log(`${TARGET}: ${font.length} bytes`);
}
