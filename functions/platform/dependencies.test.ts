import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Bounded contexts depend on each other one way only: if users reads clients, clients never imports
 * users (it receives what it needs through a narrow interface that its handler, the composition root,
 * wires in). A cycle between two contexts' rules makes neither understandable alone, so this test
 * fails on any. The Lambda entries (handler.ts of an HTTP API, run.ts of a Step Functions task) may
 * import any service: they are the composition roots, and only wire (e.g. rateio's shares into
 * billing's payment rows, functions/rateio/ligacao.ts).
 */
const functionsDir = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && name !== 'handler.ts' && name !== 'run.ts' ? [path] : [];
  });
}

const contextOf = (path: string) => relative(functionsDir, path).split(sep)[0]!;

function contextGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(functionsDir)) {
    const from = contextOf(file);
    if (from === 'platform') continue; // the platform is the kernel every context may use
    const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)) {
      const to = contextOf(join(file, '..', spec!));
      if (to !== from && to !== 'platform') edges.add(to);
    }
  }
  return graph;
}

function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const visit = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === path[0]) found.push([...path, next]);
      else if (!path.includes(next)) visit(next, [...path, next]);
    }
  };
  for (const node of graph.keys()) visit(node, [node]);
  return found;
}

describe('dependencies between contexts', () => {
  it('the graph is read from the imports (users reads clients)', () => {
    expect(contextGraph().get('users')?.has('clientes')).toBe(true);
  });

  it("reaches another context only through its service, never its store", () => {
    const offending = sourceFiles(functionsDir).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)]
        .map(([, spec]) => join(file, '..', spec!))
        .filter((target) => contextOf(target) !== contextOf(file) && /[\\/]store$/.test(target))
        .map((target) => `${relative(functionsDir, file)} → ${relative(functionsDir, target)}`),
    );
    expect(offending).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cycles(contextGraph()).map((c) => c.join(' → '))).toEqual([]);
  });
});
