import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { accessibleThemeCss, contrast, THEME_COLOURS } from './accessibleTheme';

const require = createRequire(import.meta.url);
const theme = readFileSync(require.resolve('primereact/resources/themes/lara-light-green/theme.css'), 'utf8');

describe('the accessible green theme', () => {
  it('gives every replacement colour at least 4.5:1 against white', () => {
    for (const [from, to] of Object.entries(THEME_COLOURS)) {
      expect(contrast(to, '#ffffff'), `${from} → ${to}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('leaves none of the light text colours in the theme, but keeps the palette variables', () => {
    const css = accessibleThemeCss(theme);
    for (const light of ['#10b981', '#e24c4c', '#1ea97c', '#ff5757', '#cc8925']) {
      expect(css.toLowerCase()).not.toContain(`: ${light}`);
      expect(css.toLowerCase()).not.toContain(`solid ${light}`);
    }
    expect(css).toContain('--primary-color: #047857;');
    expect(css).toContain('--green-500:#22c55e;');
    expect(contrast('#047857', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('drops the theme\'s whole Inter and its italics (first-paint.css declares the Latin cut of the family)', () => {
    expect(theme).toContain('InterVariable.woff2');
    const css = accessibleThemeCss(theme);
    expect(css).not.toContain('@font-face');
    expect(css).not.toContain('InterVariable');
    expect(css).toContain('--font-family: "Inter var", sans-serif;');
  });

  it('replaces in one pass: a colour that is itself a replacement is not replaced twice', () => {
    expect(accessibleThemeCss('a { color: #10b981; } b { color: #047857; }')).toBe('a { color: #047857; } b { color: #064e3b; }');
  });
});
