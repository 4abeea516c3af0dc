/// <reference types="node" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin } from 'vite';

/** The placeholder of web/index.html that the scripts replace; the build replaces it first in '/'. */
export const BOOT_MARKUP = '<div id="root"><div class="boot">Carregando…</div></div>';

/**
 * The login page's text in the HTML (issue 29 item 3): the build writes two pages.
 * - `index.html`, served for '/' (CloudFront's default root object): the login page rendered by
 *   web/src/app/prerender.tsx with React's server renderer, so a phone paints the page's text from
 *   the HTML alone, before any script has loaded.
 * - `spa.html`, served for every other path of the portal (the SPA rewrite of the web stack and the
 *   twin's web server): the plain placeholder, since those pages need the user's data anyway.
 * Both load the same scripts. The prerender runs the components in Node through a Vite server of
 * its own (SSR), with this build's defines.
 */
export function prerenderLoginPlugin(define: Record<string, string>): Plugin {
  const root = fileURLToPath(new URL('..', import.meta.url));
  return {
    name: 'plac-prerender-login',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (!page || page.type !== 'asset') throw new Error('prerender: the build has no index.html');
      const html = String(page.source);
      if (!html.includes(BOOT_MARKUP)) throw new Error(`prerender: index.html has no ${BOOT_MARKUP}`);
      this.emitFile({ type: 'asset', fileName: 'spa.html', source: html });
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        define,
        plugins: [react()],
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { loginMarkup } = (await server.ssrLoadModule('/src/app/prerender.tsx')) as { loginMarkup: () => string };
        page.source = html.replace(BOOT_MARKUP, `<div id="root">${loginMarkup()}</div>`);
      } finally {
        await server.close();
      }
    },
  };
}
