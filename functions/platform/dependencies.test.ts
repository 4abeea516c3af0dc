import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house's rules between bounded contexts (docs/architecture.md "Contexts and their front doors"):
 * - **One front door.** A context is reached only through its `index.ts`: another context imports
 *   `../<ctx>` (or `../<ctx>/index`), never a module inside it. What the index exports is the context's
 *   published interface; everything else may change without another context noticing. A context may
 *   also have a direct door, `direto.ts`: the part of that interface that runs without the table layer,
 *   for the paths whose cold start must not load ElectroDB (issue 39; a bundle that imports the index
 *   loads every module the index re-exports that another chunk of it uses).
 * - **One way.** The contexts' dependencies form no cycle, counting every module of a context,
 *   its Lambda entries (handler.ts, run.ts, ...) included. Where a context needs work of one that
 *   depends on it, it names a port (an interface) and is handed the implementation by the entry that
 *   composes them, in the context above both.
 * - **No file circle.** No module imports itself back through others, inside a context or across.
 * The platform kernel (functions/platform) is below every context and imports none of them.
 */
const functionsDir = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const contextOf = (path: string) => relative(functionsDir, path).split(sep)[0]!;

/** The relative imports (and re-exports, and dynamic imports) of a file, as absolute paths without extension. */
function importsOf(file: string, source = readFileSync(file, 'utf8')): string[] {
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map(([, spec]) => spec!);
  return specs.map((spec) => join(file, '..', spec));
}

/** Whether `target` (absolute, no extension) is the front door of its context. */
const isFrontDoor = (target: string) => {
  const [, ...rest] = relative(functionsDir, target).split(sep);
  return rest.length === 0 || (rest.length === 1 && (rest[0] === 'index' || rest[0] === 'direto'));
};

/** Imports that go past another context's front door (or from the kernel into a context). */
function pastFrontDoors(files: ReadonlyMap<string, string>): string[] {
  return [...files].flatMap(([file, source]) =>
    importsOf(file, source)
      .filter((target) => {
        const from = contextOf(file);
        const to = contextOf(target);
        if (to === from || to === 'platform') return false;
        return from === 'platform' || !isFrontDoor(target);
      })
      .map((target) => `${relative(functionsDir, file)} → ${relative(functionsDir, target)}`),
  );
}

function contextGraph(files: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, source] of files) {
    const from = contextOf(file);
    const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    for (const target of importsOf(file, source)) {
      const to = contextOf(target);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/**
 * The graph's circles, as its strongly connected components of more than one node (Tarjan's algorithm:
 * linear in the graph, where listing every circular path would not be), each named by its nodes in order.
 */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort().join(' ↔ '));
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found.sort();
}

/** The module graph: each file to the files it imports (resolved to .ts/.tsx or an index). */
function moduleGraph(files: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const resolve = (target: string) =>
    [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((candidate) => files.has(candidate));
  return new Map(
    [...files].map(([file, source]) => [
      relative(functionsDir, file),
      new Set(importsOf(file, source).flatMap((t) => resolve(t) ?? []).map((t) => relative(functionsDir, t))),
    ]),
  );
}

const readAll = () => new Map(sourceFiles(functionsDir).map((file) => [file, readFileSync(file, 'utf8')] as const));

describe('dependencies between contexts', () => {
  const files = readAll();

  it('reads the graph from the imports, entries included (users reads clients; the billing API credits prepaid reservations)', () => {
    const graph = contextGraph(files);
    expect(graph.get('users')?.has('clientes')).toBe(true);
    expect(graph.get('faturamento')?.has('prepago')).toBe(true);
  });

  it('reaches another context only through its front door (index.ts)', () => {
    expect(pastFrontDoors(files)).toEqual([]);
  });

  it('has no cycle between contexts, their Lambda entries counted', () => {
    expect(cycles(contextGraph(files))).toEqual([]);
  });

  it('has no file circle', () => {
    expect(cycles(moduleGraph(files))).toEqual([]);
  });

  it('fails on an import past a front door, and on a cycle (the rules can fail)', () => {
    const withViolation = new Map(files);
    const file = join(functionsDir, 'servicos', 'service.ts');
    withViolation.set(file, `${files.get(file)}\nimport { tabelaPrecoDoMes } from '../tarifas/service';\n`);
    expect(pastFrontDoors(withViolation)).toEqual(['servicos/service.ts → tarifas/service']);
    expect(cycles(contextGraph(withViolation))).toContain('servicos ↔ tarifas');
  });
});
