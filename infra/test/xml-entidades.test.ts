import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildBuildOptions } from '../lib/bundle-options';
import { repoRoot } from '../lib/paths';

/**
 * In a Lambda bundle, fast-xml-parser's check of the entities a DOCTYPE declares is our stand-in
 * (functions/platform/xml-entidades-declaradas.ts, by the bundles' alias): a parser bundled with the
 * functions' options refuses every declared entity and still decodes the predefined ones.
 */
const esbuild = createRequire(join(repoRoot, 'package.json'))('esbuild') as typeof Esbuild;
const dir = mkdtempSync(join(tmpdir(), 'plac-xml-entidades-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('XML parsing in the bundles', () => {
  it('leaves a DOCTYPE-declared entity unexpanded, and decodes &amp;', async () => {
    const result = await esbuild.build({
      ...esbuildBuildOptions(),
      splitting: false,
      absWorkingDir: repoRoot,
      stdin: {
        contents: "import { XMLParser } from 'fast-xml-parser'; export const parse = (xml) => new XMLParser().parse(xml);",
        resolveDir: repoRoot,
        sourcefile: 'sonda.js',
      },
      outdir: dir,
      entryNames: 'sonda',
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('functions/platform/xml-entidades-declaradas.ts');
    expect(inputs.filter((file) => file.includes('node_modules/is-unsafe/'))).toEqual([]);
    const { parse } = (await import(pathToFileURL(join(dir, 'sonda.mjs')).href)) as { parse: (xml: string) => { x: string } };
    expect(parse('<!DOCTYPE x [<!ENTITY nome "Sefaz">]><x>A &amp; B &nome;</x>').x).toBe('A & B &nome;');
    expect(parse('<x>A &amp; B &lt;C&gt;</x>').x).toBe('A & B <C>');
  });
});
