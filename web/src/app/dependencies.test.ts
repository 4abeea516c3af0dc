import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The portal's zones (docs/architecture.md "The portal's layers"), checked on the imports themselves
 * (ESLint's no-restricted-imports says the same while one edits, eslint.config.js):
 * - a feature (src/features/<feature>) imports components/, lib/, shared and itself, never another
 *   feature: what two features need lives in components/ or lib/;
 * - components/ and lib/ serve every feature and import none;
 * - app/ (the shell, the routes, the dashboard) and test/ (the test kits) compose features.
 */
// The component tests run in jsdom, whose import.meta.url is not a file: the folder from where vitest runs.
const src = resolve(existsSync('web/src') ? 'web/src' : 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(tsx?|css)$/.test(name) ? [path] : [];
  });
}

/** The zone of a file: 'features/<feature>', 'components', 'lib', 'app', 'test' or the root. */
function zoneOf(path: string): string {
  const [first, second] = relative(src, path).split(sep);
  return first === 'features' ? `features/${second}` : first!;
}

/** Imports that leave their zone the wrong way, as 'from → to'. */
function crossings(sources: ReadonlyMap<string, string>): string[] {
  return [...sources].flatMap(([file, source]) => {
    const from = zoneOf(file);
    return [...source.matchAll(/(?:from\s+|import\s*\(?\s*)'(\.{1,2}\/[^']+)'/g)]
      .map(([, spec]) => join(dirname(file), spec!))
      .filter((target) => {
        const to = zoneOf(target);
        if (to === from || !to.startsWith('features/')) return false;
        return from.startsWith('features/') || from === 'components' || from === 'lib';
      })
      .map((target) => `${relative(src, file)} → ${relative(src, target)}`);
  });
}

describe('the portal’s zones', () => {
  const sources = new Map(files(src).map((file) => [file, readFileSync(file, 'utf8')] as const));

  it('reads every feature, component and test kit', () => {
    expect([...sources.keys()].some((f) => zoneOf(f) === 'features/clientes')).toBe(true);
    expect([...sources.keys()].some((f) => zoneOf(f) === 'components')).toBe(true);
  });

  it('has no feature importing another, and no component or lib module importing a feature', () => {
    expect(crossings(sources)).toEqual([]);
  });

  it('fails on a feature importing another, and on a component importing a feature (the rule can fail)', () => {
    const withViolations = new Map(sources);
    const page = join(src, 'features', 'degustacao', 'ConsultaPage.tsx');
    const component = join(src, 'components', 'Field.tsx');
    withViolations.set(page, `${sources.get(page)}\nimport { LABELS } from '../clientes/model';\n`);
    withViolations.set(component, `${sources.get(component)}\nimport '../features/faturas/faturas.css';\n`);
    expect(crossings(withViolations).sort()).toEqual([
      `components${sep}Field.tsx → features${sep}faturas${sep}faturas.css`,
      `features${sep}degustacao${sep}ConsultaPage.tsx → features${sep}clientes${sep}model`,
    ]);
  });
});
