import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { portalIconsPlugin } from './scripts/icons-plugin';
import { preloadLargeChunks } from './scripts/preload-plugin';
import { prerenderLoginPlugin } from './scripts/prerender-plugin';
import { accessibleThemePlugin } from './src/app/accessibleTheme';
// The product's version (shown to the user as 2.10.0) has one source: the root package.
import rootPackage from '../package.json' with { type: 'json' };

const define = { __APP_VERSION__: JSON.stringify(rootPackage.version) };
const preload = preloadLargeChunks();

export default defineConfig({
  // The green theme at WCAG AA contrast (src/app/accessibleTheme.ts); the icons' font cut to the ones
  // used (scripts/icons-plugin.ts); the login page's text written into the HTML of '/'
  // (scripts/prerender-plugin.ts); a lazy page's small chunks left to its imports (scripts/preload-plugin.ts).
  plugins: [react(), accessibleThemePlugin(), portalIconsPlugin(), prerenderLoginPlugin(define), preload.plugin],
  define,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the portal supports preloads modules natively; one without it (Safari < 17)
    // still loads them, only without the head start, so the entry need not carry a polyfill.
    modulePreload: { polyfill: false, resolveDependencies: preload.resolveDependencies },
    rolldownOptions: {
      output: {
        // One vendor chunk, for caching across deploys and to keep the entry lean: `react` (React,
        // ReactDOM and the router), which the entry needs anyway. PrimeReact is left to the bundler's
        // own splitting, one chunk per component or per set of components used together, so a page
        // loads only the components it renders (the login page: TabView, InputText, Password, Button,
        // Dialog), not the whole library. `codeSplitting` is rolldown's successor of Rollup's `manualChunks`.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            {
              // The labelled field and what it is made of (its messages, its required mark, the text and
              // login fields over it): one small chunk instead of five tiny ones, each of which would
              // cost the login page a request and its own module wrapper.
              name: 'campos',
              test: /[\\/]src[\\/]components[\\/](FormField|FieldError|RequiredMark|TextField|LoginFields)\.tsx$/,
              // These modules alone: what they import (PrimeReact's InputText, the API client) keeps its own chunks.
              includeDependenciesRecursively: false,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    /**
     * The test files share one module graph per worker instead of loading React, PrimeReact and the
     * portal again for each (measured on 2 cores: 178 s isolated, 105 s shared). What one file leaves
     * behind is undone after every test by src/test/setup.ts (rendered trees, dialogs, session,
     * toasts, storage, stubs, timers, recorded charts), and modules are mocked there, once, not in a
     * file: a file's own vi.mock comes too late for a module another file already loaded.
     */
    isolate: false,
    // Two workers, beside the unit project's files (vitest.config.ts).
    maxWorkers: 2,
  },
});
