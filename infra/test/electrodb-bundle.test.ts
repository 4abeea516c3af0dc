import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildBuildOptions } from '../lib/bundle-options';
import { repoRoot } from '../lib/paths';

/**
 * The Lambda bundles give ElectroDB a validator that accepts every model (bundle-options.ts aliases
 * `jsonschema` to functions/platform/electrodb-sem-validacao.ts). The same ElectroDB program, run here
 * from the sources (the real jsonschema) and as a bundle built with the deployed options, must answer
 * alike: services built from entity instances and from models, their keys, and an instance never
 * mistaken for a model.
 */
const programa = `
import { Entity, Service } from 'electrodb';
const modelo = (entity) => ({
  model: { entity, version: '1', service: 'teste' },
  attributes: { id: { type: 'string', required: true }, nome: { type: 'string' }, n: { type: 'number' } },
  indexes: {
    porId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
    porNome: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['nome'] }, sk: { field: 'gsi1sk', composite: ['id'] } },
  },
});
const cfg = { table: 't' };
const a = new Entity(modelo('a'), cfg);
const b = new Entity(modelo('b'), cfg);
const deInstancias = new Service({ a, b }, cfg);
const deModelos = new Service({ a: modelo('a'), b: modelo('b') }, cfg);
export const resposta = () => ({
  mesmaInstancia: deInstancias.entities.a === a,
  get: deInstancias.entities.a.get({ id: 'X1' }).params(),
  put: deModelos.entities.b.put({ id: 'Y', nome: 'Nome', n: 2 }).params(),
  query: deInstancias.entities.b.query.porNome({ nome: 'Nome' }).params(),
  colecao: Object.keys(deModelos.entities).sort(),
});
`;

const esbuild = createRequire(join(repoRoot, 'package.json'))('esbuild') as typeof Esbuild;
const dir = mkdtempSync(join(tmpdir(), 'plac-electrodb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ElectroDB in a Lambda bundle (no model validator)', () => {
  it('answers as from the sources: services of instances and of models, the same keys', async () => {
    const fonte = join(dir, 'programa.mjs');
    writeFileSync(fonte, programa);
    const esperado = (await import(/* @vite-ignore */ fonte)) as { resposta: () => unknown };

    const saida = join(dir, 'bundle.mjs');
    const r = await esbuild.build({
      ...esbuildBuildOptions(),
      // One file: a program with no dynamic import (the functions' chunks need an outdir).
      splitting: false,
      sourcemap: false,
      absWorkingDir: repoRoot,
      stdin: { contents: `${programa}\nconsole.log(JSON.stringify(resposta()));`, resolveDir: repoRoot, loader: 'js' },
      outdir: dir,
      entryNames: 'bundle',
      metafile: true,
    });
    expect(Object.keys(r.metafile.inputs).filter((f) => f.includes('node_modules/jsonschema/'))).toEqual([]);
    expect(Object.keys(r.metafile.inputs)).toContain('functions/platform/electrodb-sem-validacao.ts');

    const doBundle = JSON.parse(execFileSync(process.execPath, [saida], { encoding: 'utf8' })) as unknown;
    expect(doBundle).toEqual(JSON.parse(JSON.stringify(esperado.resposta())));
    expect(doBundle).toMatchObject({ mesmaInstancia: true, colecao: ['a', 'b'], get: { Key: { pk: '$teste#id_x1', sk: '$a_1' } } });
  }, 60_000);
});
