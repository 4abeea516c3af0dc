import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every package a workspace imports is declared (in it, or at the root, which all share), and every
 * package a workspace declares is imported by its code (issue 29 item 4): an undeclared import works
 * only by hoisting luck, an unused one is weight, licences and audit noise for nothing. Packages used
 * only as a command or through a tool's configuration are listed below with where they are used.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/** Used without an import: the reason is where. */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  typescript: 'tsc in npm run typecheck',
  tsx: 'runs the scripts, the twin and the bench',
  eslint: 'npm run lint',
  '@redocly/cli': 'redocly lint of the API description (scripts/openapi-lint.ts, a stage of npm test)',
  'aws-cdk': 'the cdk CLI (infra/cdk.json)',
  jsdom: "vitest's web environment (web/vite.config.ts)",
  vite: 'vite build and vite in web (npm run build -w web)',
  primeicons: 'the icon font, imported as CSS in web/src/main.tsx',
  'amplify-dynamodb-simulator': 'ships the DynamoDB Local jar the twin starts (infra/local/emulators/dynamodb.ts)',
  '@plac/functions': 'the workspace whose handlers infra bundles by path',
};

const WORKSPACES: Record<string, readonly string[]> = {
  '.': ['tests', 'bench', 'scripts', 'vitest.config.ts', 'playwright.config.ts', 'eslint.config.js'],
  shared: ['src', 'test'],
  functions: ['.'],
  web: ['src', 'scripts', 'vite.config.ts', 'index.html'],
  infra: ['bin', 'lib', 'local', 'migrations', 'test'],
};

function files(path: string): string[] {
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return /\.(tsx?|m?js|html|css)$/.test(path) ? [path] : [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? (['node_modules', 'dist', 'cdk.out', '.data'].includes(e.name) ? [] : files(join(path, e.name))) : /\.(tsx?|m?js|html|css)$/.test(e.name) ? [join(path, e.name)] : [],
  );
}

const builtins = new Set(builtinModules);

/** The package names a workspace's files import (static, dynamic, require, CSS @import). */
function imported(workspace: string): Set<string> {
  const names = new Set<string>();
  for (const file of WORKSPACES[workspace]!.flatMap((p) => files(join(root, workspace, p)))) {
    const text = readFileSync(file, 'utf8');
    const specs = [
      ...text.matchAll(/^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm),
      ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
      ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ...text.matchAll(/\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g),
      ...text.matchAll(/\bcreateRequire\([^)]*\)(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g),
      ...text.matchAll(/^\s*@import\s+['"]([^'"]+)['"]/gm),
    ];
    for (const [, spec] of specs) {
      if (!spec || spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.startsWith('virtual:')) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (builtins.has(name)) continue;
      names.add(name);
    }
  }
  return names;
}

function declared(workspace: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')) as { dependencies?: object; devDependencies?: object };
  return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
}

/** A type package counts as used when its package is (aws-lambda's types are imported as 'aws-lambda'). */
const typesOf = (name: string) => (name.startsWith('@types/') ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2') : null);

describe('dependencies', () => {
  const rootDeclared = new Set(declared('.'));
  // The root's tests and bench drive every workspace: they may import what any workspace declares.
  const anyDeclared = new Set(Object.keys(WORKSPACES).flatMap(declared));
  for (const workspace of Object.keys(WORKSPACES)) {
    it(`${workspace === '.' ? 'root' : workspace}: every import declared, every declaration imported`, () => {
      // The root's development tools serve every workspace's tests (zbar decodes the DAE's barcode in functions).
      const uses = workspace === '.' ? new Set(Object.keys(WORKSPACES).flatMap((w) => [...imported(w)])) : imported(workspace);
      const own = declared(workspace);
      const mine = new Set(own);
      const visible = workspace === '.' ? anyDeclared : new Set([...mine, ...rootDeclared]);
      const undeclared = [...uses].filter((n) => !visible.has(n) && !visible.has(`@types/${n}`) && !n.startsWith('@plac/'));
      expect(undeclared.sort(), `imported but not declared in ${workspace}/package.json`).toEqual([]);
      const unused = own.filter((n) => !uses.has(n) && !USED_WITHOUT_IMPORT[n] && !(typesOf(n) && (uses.has(typesOf(n)!) || n === '@types/node')));
      expect(unused, `declared in ${workspace}/package.json but never imported`).toEqual([]);
    });
  }
});

describe('one version of a build tool', () => {
  it('esbuild: the bundles (infra/lib/bundle.ts) and tsx build with the same one', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    const versions = Object.entries(lock.packages).filter(([path]) => path.endsWith('node_modules/esbuild')).map(([, p]) => p.version);
    expect(new Set(versions).size, `esbuild versions in package-lock.json: ${versions.join(', ')}`).toBe(1);
  });
});

/**
 * What the product ships and deploys (every package of the lock that is not development-only: the
 * functions' bundles, the portal, the CDK app) carries an open-source licence a user of the product
 * may redistribute under (issue 29 item 4: the bank list once came from a package that declared
 * UNLICENSED and was bundled into the deploy's seed). An SPDX expression passes when every licence
 * it names is on the list. The workspaces themselves (@plac/*) are ours and private.
 */
const OPEN_LICENCES = new Set(['MIT', 'MIT-0', 'ISC', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD', 'BlueOak-1.0.0', 'Zlib']);

/** An SPDX expression of these packages' kind ("MIT", "(MIT OR GPL-3.0-or-later)", "(MIT AND Zlib)"): one alternative wholly open. */
const open = (expression: string | undefined) =>
  (expression ?? '')
    .replace(/[()]/g, '')
    .split(/\s+OR\s+/)
    .some((alternative) => alternative.split(/\s+AND\s+/).every((name) => OPEN_LICENCES.has(name.trim())));

describe('licences', () => {
  it('every package shipped or deployed declares an open licence from the list', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { license?: string; dev?: boolean; devOptional?: boolean; link?: boolean }>;
    };
    const refused = Object.entries(lock.packages)
      .filter(([path, p]) => path.includes('node_modules/') && !p.dev && !p.devOptional && !p.link && !open(p.license))
      .map(([path, p]) => `${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)} (${p.license ?? 'no licence'})`);
    expect(refused, 'shipped packages whose licence is not on the list').toEqual([]);
  });

  it('the check refuses what it must', () => {
    expect([open('MIT'), open('(MIT OR GPL-3.0-or-later)'), open('(MIT AND Zlib)')]).toEqual([true, true, true]);
    expect([open('UNLICENSED'), open(undefined), open('(MIT AND GPL-3.0-only)'), open('SEE LICENSE IN LICENSE')]).toEqual([false, false, false, false]);
  });
});
