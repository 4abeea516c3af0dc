import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `npm test -- <stage>` runs only the named stages; a name that is no stage fails instead of passing on nothing. */
describe('npm test stages', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));

  it.each([['unit'], ['lint', 'unit']])('refuses the unknown stage in %j', (...names) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test-all.ts', ...names], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('The stages are: lint, typecheck, openapi, vitest, build, integration, e2e.');
    expect(run.stdout).not.toContain('▶');
  });
});
