/**
 * `npm test`'s openapi stage (issue 29 item 2): the description the API serves at /api/v1/openapi.json
 * (the same function builds it), written to a temporary file and linted by Redocly with redocly.yaml
 * (the recommended rules). Any error fails the stage; warnings are printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '@plac/shared/openapi';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plac-openapi-'));
const file = join(dir, 'openapi.json');
try {
  writeFileSync(file, JSON.stringify(openApiDocument('lint'), null, 2));
  const run = spawnSync('npx', ['redocly', 'lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'stylish'], {
    cwd: root,
    stdio: 'inherit',
    // No usage reports nor update checks: CI may be offline, and nothing leaves the machine.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
