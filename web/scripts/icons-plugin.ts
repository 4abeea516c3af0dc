/// <reference types="node" />
import type { Plugin } from 'vite';

/**
 * PrimeIcons' @font-face points at its whole font in four formats (35 KB as woff2, 300-odd icons).
 * The build removes it; web/src/app/app.css declares the same family with the icons the portal
 * uses (web/scripts/subset-font.ts, about 11 KB).
 */
export const PRIMEICONS_FONT_FACE = /@font-face\s*\{[^}]*font-family:\s*'primeicons'[^}]*\}\s*/;

export function portalIconsPlugin(): Plugin {
  return {
    name: 'plac-portal-icons',
    enforce: 'pre',
    transform(code, id) {
      if (!/primeicons[\\/]primeicons\.css$/.test(id.split('?')[0] ?? '')) return null;
      if (!PRIMEICONS_FONT_FACE.test(code)) throw new Error("primeicons.css has no @font-face of 'primeicons' to replace: see web/scripts/icons-plugin.ts");
      return { code: code.replace(PRIMEICONS_FONT_FACE, ''), map: null };
    },
  };
}
