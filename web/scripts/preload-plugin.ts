/// <reference types="node" />
import type { Plugin } from 'vite';

/**
 * Which of a lazily loaded page's scripts Vite preloads with it: the ones of at least
 * PRELOAD_MIN_BYTES, not the small ones. Vite adds a `<link rel="modulepreload">` to the document for
 * every chunk a page needs (Faturas: 44 scripts and 4 stylesheets), in one task: ~34 ms in Chromium
 * unthrottled, ~135 ms at Lighthouse's 4x CPU, a long task blocking input (Total Blocking Time,
 * issue 39). More than half of those chunks are under 4 KB
 * (a formatter, a filter, a row action), and the browser finds them anyway in the imports of the
 * chunks that use them, one round trip later, while the large chunks (PrimeReact's table, React) are
 * still downloading: so they are left to the imports. Stylesheets are always preloaded (Vite loads a
 * page's CSS only this way), and so is every large chunk, to keep the downloads in parallel.
 */
export const PRELOAD_MIN_BYTES = 4096;

export function preloadLargeChunks(): { plugin: Plugin; resolveDependencies: (file: string, deps: string[]) => string[] } {
  const bytes = new Map<string, number>();
  return {
    plugin: {
      name: 'plac-preload-large-chunks',
      apply: 'build',
      // Before Vite's own generateBundle writes the preload lists: the chunks' final (minified) sizes.
      generateBundle: {
        order: 'pre',
        handler(_options, bundle) {
          for (const [file, output] of Object.entries(bundle)) if (output.type === 'chunk') bytes.set(file, Buffer.byteLength(output.code));
        },
      },
    },
    // A chunk of unknown size is preloaded, as Vite would.
    resolveDependencies: (_file, deps) => deps.filter((dep) => (bytes.get(dep) ?? Infinity) >= PRELOAD_MIN_BYTES),
  };
}
