/**
 * The portal's green theme at WCAG 2.1 AA contrast (at least 4.5:1 for text).
 *
 * PrimeReact's lara-light-green writes its colours as literal values in every rule (the emerald
 * #10b981 alone some 80 times), and several of them are too light for text: white on #10b981 is
 * 2.5:1, the error red #e24c4c on white 4.0:1, the success toast's #1ea97c 2.9:1. Rather than
 * overriding rule by rule, the build rewrites those colours in the theme file itself (see
 * accessibleThemePlugin in vite.config.ts), one shade darker along each scale so that hover and
 * active states stay darker than the resting one. The palette variables (--green-500, ...) are left
 * as they are.
 */
export const THEME_COLOURS: Readonly<Record<string, string>> = {
  // primary (emerald): resting, hover, active / highlighted text
  '#10b981': '#047857',
  '#059669': '#065f46',
  '#047857': '#064e3b',
  // success
  '#22c55e': '#15803d',
  '#16a34a': '#166534',
  '#15803d': '#14532d',
  // danger, and the error text and borders
  '#ef4444': '#b91c1c',
  '#dc2626': '#991b1b',
  '#b91c1c': '#7f1d1d',
  '#e24c4c': '#b91c1c',
  // warning
  '#f97316': '#c2410c',
  '#ea580c': '#9a3412',
  '#c2410c': '#7c2d12',
  // info
  '#0ea5e9': '#0369a1',
  '#0284c7': '#075985',
  '#0369a1': '#0c4a6e',
  // help
  '#a855f7': '#7e22ce',
  '#9333ea': '#6b21a8',
  '#7e22ce': '#581c87',
  // toasts and inline messages: success, info, warn, error
  '#1ea97c': '#166534',
  '#3b82f6': '#1d4ed8',
  '#cc8925': '#854d0e',
  '#ff5757': '#b91c1c',
};

/** The emerald of translucent backgrounds (hover of text buttons, focus shadows), darkened alike. */
const PRIMARY_RGB = { from: /rgba\(16, 185, 129,/g, to: 'rgba(4, 120, 87,' };

const HEX = /#[0-9a-fA-F]{6}\b/g;
const PALETTE_VARIABLE = /^\s*--[a-z]+-\d{2,3}\s*:/;

/**
 * The theme's @font-face rules: the whole variable Inter and its italics (727 KB). The portal declares
 * its Latin cut of the same family instead (first-paint.css, web/scripts/subset-font.ts); italics are
 * drawn by slanting it.
 */
const THEME_FONT_FACES = /@font-face\s*\{[^}]*font-family:\s*"Inter var"[^}]*\}\s*/g;

/**
 * The theme's CSS with its colours replaced in one pass (a replaced colour is never replaced again),
 * and without its own fonts.
 */
export function accessibleThemeCss(css: string): string {
  return css
    .replace(THEME_FONT_FACES, '')
    .split('\n')
    .map((line) =>
      PALETTE_VARIABLE.test(line)
        ? line
        : line.replace(HEX, (hex) => THEME_COLOURS[hex.toLowerCase()] ?? hex).replace(PRIMARY_RGB.from, PRIMARY_RGB.to),
    )
    .join('\n');
}

/** Relative luminance of a #rrggbb colour (WCAG 2.1). */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The Vite plugin: rewrites PrimeReact's lara-light-green theme as it is imported. */
export function accessibleThemePlugin() {
  return {
    name: 'plac-accessible-theme',
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      if (!/lara-light-green[\\/]theme\.css$/.test(id.split('?')[0] ?? '')) return null;
      return { code: accessibleThemeCss(code), map: null };
    },
  };
}
