import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contracts } from '@plac/shared/contracts';
import { openApiDocument, statusesOf } from '@plac/shared/openapi';
import type { MessageKey } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';

/**
 * Issue 29 item 2: the description tells each catalogue key under the status the code answers it
 * with. The statuses are read here from the functions' code — `notFound('k')`, `conflict('k')`,
 * `forbidden('k')`, `invalid('k')`, `new HttpError(403, 'k')`, auth's `fail(429, 'k')` — and held
 * against ERROR_STATUS (shared/src/contracts/openapi.ts) (a key missing there is described as a 400).
 */

const root = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : sources(join(dir, e.name))) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

const HELPERS: Record<string, number> = { invalid: 400, unauthorized: 401, forbidden: 403, notFound: 404, conflict: 409 };

function thrown(): Map<string, Set<number>> {
  const statuses = new Map<string, Set<number>>();
  const add = (key: string, status: number) => statuses.set(key, (statuses.get(key) ?? new Set()).add(status));
  for (const file of sources(root)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(invalid|unauthorized|forbidden|notFound|conflict)\('(\w+)'/g)) add(m[2]!, HELPERS[m[1]!]!);
    for (const m of text.matchAll(/\b(?:new HttpError|fail)\((\d{3}), '(\w+)'/g)) add(m[2]!, Number(m[1]));
  }
  return statuses;
}

describe('the statuses of the catalogue keys in the OpenAPI description', () => {
  const statuses = thrown();

  it('finds the keys the code answers (the scan works)', () => {
    expect(statuses.get('recursoDuplicado')).toEqual(new Set([409]));
    expect(statuses.size).toBeGreaterThan(40);
  });

  it('ERROR_STATUS gives each key the status the code answers it with', () => {
    const wrong = [...statuses].flatMap(([key, set]) =>
      [...set].filter((status) => !statusesOf(key as MessageKey).includes(status)).map((status) => `${key}: code ${status}, description ${statusesOf(key as MessageKey).join(' ')}`),
    );
    expect(wrong).toEqual([]);
  });

  it('each operation lists every key it names under that status, with a body schema', () => {
    const document = openApiDocument('test') as { paths: Record<string, Record<string, { responses: Record<string, { description: string; content?: unknown }> }>> };
    const missing: string[] = [];
    for (const contract of contracts) {
      const responses = document.paths[contract.path]![contract.method.toLowerCase()]!.responses;
      for (const key of contract.errors) {
        for (const status of statusesOf(key).map(String)) {
          if (!responses[status]?.description.includes(`\`${key}\``) || !responses[status]?.content) missing.push(`${contract.id}: ${key} (${status})`);
        }
      }
      for (const status of ['400', '403', '429', '500']) if (!responses[status]) missing.push(`${contract.id}: no ${status}`);
      if (contract.access !== 'public' && !responses['401']) missing.push(`${contract.id}: no 401`);
    }
    expect(missing).toEqual([]);
  });
});
