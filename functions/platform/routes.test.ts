import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contracts, httpContexts, isContract } from '@plac/shared/contracts';
import { describe, expect, it } from 'vitest';

/**
 * No route exists outside the contract table: every contract module is in the table, every context
 * of the table has its handler, and every handler binds exactly its own context's module.
 * (The CDK assertions check the synthesized routes; the gateway routes from the table itself.)
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const contractsDir = `${root}shared/src/contracts/`;
const helperFiles = new Set(['define.ts', 'index.ts', 'openapi.ts', 'common.ts']);

describe('the contract table', () => {
  it('has unique ids and unique method + path pairs under /api', () => {
    const ids = contracts.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = contracts.map((c) => `${c.method} ${c.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    for (const c of contracts) {
      expect(c.path).toMatch(/^\/api\//);
      expect(c.id.startsWith(`${c.context}.`), c.id).toBe(true);
    }
  });

  it('includes every contract module', async () => {
    const modules = readdirSync(contractsDir).filter((f) => f.endsWith('.ts') && !helperFiles.has(f));
    for (const file of modules) {
      const exported = (Object.values(await import(contractsDir + file)) as unknown[]).filter(isContract);
      for (const contract of exported) expect(contracts, `${file} is not in contracts/index.ts`).toContain(contract);
    }
  });

  it('has a handler for every context, binding that context’s own module', () => {
    for (const context of httpContexts) {
      const file = `${root}functions/${context}/handler.ts`;
      expect(existsSync(file), file).toBe(true);
      const source = readFileSync(file, 'utf8');
      expect(source, file).toMatch(new RegExp(`httpApi\\(${context},`));
    }
  });

});
