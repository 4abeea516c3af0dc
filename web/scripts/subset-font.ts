/**
 * `npm run fonts -w web`: the portal's two fonts cut to what it shows.
 *
 * - Inter (SIL Open Font License 1.1, shipped with PrimeReact's lara theme), the text: the Latin letters
 *   of Portuguese and the punctuation, currency and arrows around them, weights 400 to 700 (the only
 *   ones the theme and our CSS use). The theme's own files are the whole variable font with italics,
 *   346 KB and 381 KB, which a phone would download before the first page could show its text in
 *   it; this one is about 75 KB. Characters outside the ranges fall back to the system's font (the
 *   @font-face's unicode-range, web/src/app/first-paint.css).
 * - PrimeIcons (MIT), the icons: only the `pi-*` icons the portal's code names (web/src, shared/src),
 *   out of its 300-odd; about 6 KB instead of 35, on every page of the authenticated area's first
 *   paint (its @font-face: web/src/app/app.css).
 *
 * The results are committed (web/src/app/fonts/); web/scripts/subset-font.test.ts checks they are what
 * this script makes from the installed packages and the code, so a PrimeReact update that changes a
 * font, or an icon the code starts to use, fails until the files are made again.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

const resolve = (specifier: string) => fileURLToPath(import.meta.resolve(specifier));
const fonts = (file: string) => fileURLToPath(new URL(`../src/app/fonts/${file}`, import.meta.url));

export const TARGET = fonts('inter-latin.woff2');
export const ICONS_TARGET = fonts('primeicons-portal.woff2');

export async function latinInter(): Promise<Buffer> {
  const text = LATIN_RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i))).join('');
  const source = readFileSync(resolve('primereact/resources/themes/lara-light-green/fonts/InterVariable.woff2'));
  return subsetFont(source, text, { targetFormat: 'woff2', variationAxes: { wght: { min: 400, max: 700 } } });
}

/** The `pi-*` names the code writes (icons, and a few class names that are not icons, which drop out). */
export function iconNamesInCode(): Set<string> {
  const roots = ['../src', '../../shared/src'].map((r) => fileURLToPath(new URL(r, import.meta.url)));
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const [name] of readFileSync(path, 'utf8').matchAll(/\bpi-[a-z0-9]+(?:-[a-z0-9]+)*/g)) names.add(name);
      }
    }
  };
  roots.forEach(walk);
  return names;
}

/** PrimeIcons' glyph of each icon, from its stylesheet (`.pi-name:before { content: "\eXXX"; }`). */
export function iconCodepoints(): Map<string, number> {
  const css = readFileSync(resolve('primeicons/primeicons.css'), 'utf8');
  return new Map([...css.matchAll(/\.(pi-[a-z0-9-]+):before\s*\{\s*content:\s*"\\([0-9a-f]+)"/g)].map((m) => [m[1]!, parseInt(m[2]!, 16)]));
}

export async function portalIcons(): Promise<Buffer> {
  const glyphs = iconCodepoints();
  const text = [...iconNamesInCode()]
    .map((name) => glyphs.get(name))
    .filter((cp): cp is number => cp !== undefined)
    .sort((a, b) => a - b)
    .map((cp) => String.fromCodePoint(cp))
    .join('');
  return subsetFont(readFileSync(resolve('primeicons/fonts/primeicons.woff2')), text, { targetFormat: 'woff2' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [target, font] of [
    [TARGET, await latinInter()],
    [ICONS_TARGET, await portalIcons()],
  ] as const) {
    writeFileSync(target, font);
    console.log(`${target}: ${font.length} bytes`);
  }
}
