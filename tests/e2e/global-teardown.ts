import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';

/**
 * Removes the run's throw-away twin data folder (/tmp/plac-e2e-*) when the run ends. Playwright runs
 * this before it stops the web server; the twin no longer writes once the tests are over, and open
 * files of a removed folder are harmless on Linux. A folder given by the developer through
 * PLAC_E2E_DATA (PLAC_E2E_KEEP_DATA=1 keeps ours too) is left alone.
 */
export default async function globalTeardown() {
  const dir = process.env.PLAC_E2E_DATA;
  if (!dir || process.env.PLAC_E2E_KEEP_DATA === '1' || process.env.PLAC_E2E_DATA_OWNED !== '1') return;
  // Only our own folder shape, never anything else the variable might point to.
  if (dirname(dir) !== tmpdir() || !basename(dir).startsWith('plac-e2e-')) return;
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
