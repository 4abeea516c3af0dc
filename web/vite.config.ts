import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { accessibleThemePlugin } from './src/app/accessibleTheme';
// The product's version (shown to the user as 2.10.0) has one source: the root package.
import rootPackage from '../package.json' with { type: 'json' };

export default defineConfig({
  // The green theme at WCAG AA contrast (src/app/accessibleTheme.ts).
  plugins: [react(), accessibleThemePlugin()],
  define: {
    __APP_VERSION__: JSON.stringify(rootPackage.version),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the portal supports preloads modules natively; one without it (Safari < 17)
    // still loads them, only without the head start, so the entry need not carry a polyfill.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Two vendor chunks, for caching across deploys and to keep the entry lean:
        // - `react`: React, ReactDOM and the router, which the entry needs anyway. Its priority also
        //   keeps them from being pulled into the PrimeReact chunk as PrimeReact's dependencies (which
        //   would make the entry import that chunk).
        // - `primereact`: PrimeReact and what only it uses, loaded with the lazy shell (its CSS too,
        //   since only the shell imports the theme).
        // `codeSplitting` is rolldown's successor of Rollup's `manualChunks`.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
              priority: 20,
            },
            {
              name: 'primereact',
              test: /[\\/]node_modules[\\/](primereact|primeicons|react-transition-group|@babel[\\/]runtime|dom-helpers)[\\/]/,
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
  },
});
