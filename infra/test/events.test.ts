import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../../bench/sample-events';
import { allFunctions, httpFunctions } from '../lib/topology';

/**
 * events/ holds one sample event per trigger (README's table): every file parses and is listed, and
 * every function that is not an HTTP API (those get a request built from their contracts) has one, so
 * the bench's cold-start probe sends each a first request it accepts (issue 29 item 5).
 */
const dir = join(__dirname, '../../events');
const readme = readFileSync(join(dir, 'README.md'), 'utf8');
const rows = [...readme.matchAll(/^\| ([\w/.*-]+\.json) \| (\w+)/gm)].map((m) => ({ file: m[1]!, fn: m[2]! }));

describe('sample events', () => {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));

  it('every file parses and is in the README table', () => {
    for (const file of files) {
      expect(() => JSON.parse(readFileSync(join(dir, file), 'utf8')), file).not.toThrow();
      const listed = rows.some((r) => (r.file.includes('*') ? new RegExp(`^${r.file.replace('*', '.*')}$`).test(file) : r.file === file));
      expect(listed, `${file} in events/README.md`).toBe(true);
    }
  });

  it('every function that is not an HTTP API has one', () => {
    const http = new Set(httpFunctions.map((f) => f.id));
    const others = allFunctions.filter((f) => !http.has(f.id)).map((f) => f.id);
    expect(others.filter((id) => !rows.some((r) => r.fn === id))).toEqual([]);
  });

  it("the bench's cold-start probe sends each function its own listed sample, and every function that is not an HTTP API has one", () => {
    const ids = new Set(allFunctions.map((f) => f.id));
    for (const [fn, file] of Object.entries(SAMPLE_FILES)) {
      expect(ids.has(fn), `${fn} is a function of the topology`).toBe(true);
      const relative = file.replace(/^events\//, '');
      expect(files, `${file} exists`).toContain(relative);
      expect(rows.some((r) => r.fn === fn && (r.file === relative || (r.file.includes('*') && new RegExp(`^${r.file.replace('*', '.*')}$`).test(relative)))), `${file} listed for ${fn} in events/README.md`).toBe(true);
    }
    const http = new Set(httpFunctions.map((f) => f.id));
    expect(allFunctions.filter((f) => !http.has(f.id) && !SAMPLE_FILES[f.id]).map((f) => f.id)).toEqual([]);
  });
});
