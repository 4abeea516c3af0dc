import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { PRELOAD_MIN_BYTES, preloadLargeChunks } from './preload-plugin';

/**
 * A lazy page that imports a large module, a small one and a stylesheet, built by Vite with the plugin:
 * the page's preload list names the large chunk and the stylesheet, not the small chunk, which still
 * loads through the page's own import.
 */
describe('a lazy page preloads its large chunks and its styles, not its small chunks', () => {
  const root = mkdtempSync(join(tmpdir(), 'plac-preload-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('leaves the small chunk to the import', async () => {
    const large = `export const tabela = [${Array.from({ length: 2000 }, (_, i) => `'linha ${i}'`).join(',')}];\n`;
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="/main.js"></script>');
    writeFileSync(join(root, 'main.js'), "document.body.onclick = () => { import('./a.js'); import('./b.js'); import('./c.js'); };\n");
    // Page a uses both modules; b the large one and c the small one: each module is then a chunk of its own.
    writeFileSync(join(root, 'grande.js'), large);
    writeFileSync(join(root, 'pequeno.js'), 'export const formata = (v) => `R$ ${v}`;\n');
    writeFileSync(join(root, 'pagina.css'), '.pagina { color: green; }\n');
    writeFileSync(join(root, 'a.js'), "import './pagina.css';\nimport { tabela } from './grande.js';\nimport { formata } from './pequeno.js';\nexport default () => formata(tabela.length);\n");
    writeFileSync(join(root, 'b.js'), "import { tabela } from './grande.js';\nexport default () => tabela.length;\n");
    writeFileSync(join(root, 'c.js'), "import { formata } from './pequeno.js';\nexport default () => formata(1);\n");

    const preload = preloadLargeChunks();
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [preload.plugin],
      build: { outDir: 'dist', minify: false, modulePreload: { polyfill: false, resolveDependencies: preload.resolveDependencies } },
    });

    const assets = join(root, 'dist/assets');
    const files = readdirSync(assets);
    const chunk = (prefix: string) => files.find((f) => f.startsWith(prefix) && f.endsWith('.js'));
    const grande = chunk('grande-');
    const pequeno = chunk('pequeno-');
    expect(grande && readFileSync(join(assets, grande)).length).toBeGreaterThanOrEqual(PRELOAD_MIN_BYTES);
    expect(pequeno && readFileSync(join(assets, pequeno)).length).toBeLessThan(PRELOAD_MIN_BYTES);
    const entry = readFileSync(join(assets, chunk('index-')!), 'utf8');
    // The preload table (Vite's __vite__mapDeps) names what is preloaded.
    const table = /m\.f=\[([^\]]*)\]/.exec(entry)?.[1] ?? '';
    expect(table).toContain(grande);
    expect(table).toMatch(/\.css/);
    expect(table).not.toContain(pequeno);
    // The small chunk is still imported by the page that needs it.
    expect(readFileSync(join(assets, chunk('a-')!), 'utf8')).toContain(pequeno);
  });
});
