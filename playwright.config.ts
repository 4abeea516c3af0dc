import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { freePort } from './infra/local/emulators/ports';

/**
 * End-to-end tests in Debian's headless Chromium (never a downloaded browser) against a twin of
 * their own: the built portal on free ports, a throw-away data folder (removed at the end of the run
 * by tests/e2e/global-teardown.ts).
 *
 * The config is evaluated in the runner and again in every worker: the runner picks the ports and
 * the folder once and puts them in process.env, which the workers (and the web server) inherit, so
 * all of them agree. PLAC_E2E_PORT (and PLAC_E2E_TLS_PORT, …) pin them by hand.
 */
const PORT_VARS = ['PLAC_E2E_PORT', 'PLAC_E2E_TLS_PORT', 'PLAC_E2E_DYNAMODB_PORT', 'PLAC_E2E_AWS_PORT', 'PLAC_E2E_MAIL_PORT', 'PLAC_E2E_SEFAZ_PORT'] as const;
const OFFSETS = { PLAC_E2E_PORT: 0, PLAC_E2E_TLS_PORT: 443, PLAC_E2E_DYNAMODB_PORT: 5000, PLAC_E2E_AWS_PORT: 1566, PLAC_E2E_MAIL_PORT: 5025, PLAC_E2E_SEFAZ_PORT: 5443 };

if (process.env.PLAC_E2E_PORT) {
  // A hand-picked base port: the others follow it as they always did.
  const base = Number(process.env.PLAC_E2E_PORT);
  for (const name of PORT_VARS) process.env[name] ??= String(base + OFFSETS[name]);
} else {
  const taken = new Set<number>();
  for (const name of PORT_VARS) {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    process.env[name] = String(port);
  }
}
if (!process.env.PLAC_E2E_DATA) {
  process.env.PLAC_E2E_DATA = join(tmpdir(), `plac-e2e-${Date.now()}-${process.pid}`);
  // Ours to remove at the end of the run (a folder given by the developer is kept).
  process.env.PLAC_E2E_DATA_OWNED = '1';
}
const env = (name: (typeof PORT_VARS)[number]) => process.env[name]!;
/**
 * Debian's chromium-headless-shell when installed (`npm test` and .ci/run install it): the old headless
 * mode, without the full browser's compositor, took about 15 % less CPU than /usr/bin/chromium on the same
 * flows (163 against 189 CPU-seconds for three flow files), and the browser tests run beside the
 * integration tests on two cores. Debian's full chromium otherwise; CHROMIUM_PATH chooses by hand.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const port = Number(env('PLAC_E2E_PORT'));
// The tests read the twin's token secret from its data folder to sign real sessions.
const dataDir = process.env.PLAC_E2E_DATA;

export default defineConfig({
  testDir: 'tests/e2e',
  globalTeardown: './tests/e2e/global-teardown.ts',
  // Its own folder: Playwright empties it at start, and test-results/ also holds vitest's report.
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  /**
   * The flows one at a time (they share the twin's data: a month billed, a file imported, a list
   * counted); then the accessibility check, which only opens screens (its forms are submitted empty, its
   * one write tolerates a twin), two at a time: its 89 screens took 270-400 s one after the other, most
   * of it waiting for the page to settle. After the flows, not beside them, so a flow never runs against
   * a second browser (if a flow fails, the accessibility project is reported skipped).
   */
  workers: 2,
  projects: [
    { name: 'fluxos', testIgnore: /accessibility\.spec\.ts$/, workers: 1 },
    { name: 'acessibilidade', testMatch: /accessibility\.spec\.ts$/, dependencies: ['fluxos'], fullyParallel: true },
  ],
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  // The files that take longest are named at the end of the run: where to spread or shorten first.
  reportSlowTests: { max: 5, threshold: 45_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'pt-BR',
    timezoneId: 'America/Bahia',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'npx tsx infra/local/start.ts',
    url: `http://localhost:${port}/api/v1/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PLAC_WEB: 'dist',
      PLAC_DATA_DIR: dataDir,
      PLAC_PORT: String(port),
      PLAC_TLS_PORT: env('PLAC_E2E_TLS_PORT'),
      PLAC_DYNAMODB_PORT: env('PLAC_E2E_DYNAMODB_PORT'),
      PLAC_AWS_PORT: env('PLAC_E2E_AWS_PORT'),
      PLAC_MAIL_PORT: env('PLAC_E2E_MAIL_PORT'),
      PLAC_SEFAZ_PORT: env('PLAC_E2E_SEFAZ_PORT'),
      PLAC_ACCESS_LOG: '0',
      // The log keeps errors only (the tests provoke the handlers' warnings), and the simulator adds no
      // new document every few seconds: no test waits for the trickle, and its loads competed with the
      // browser for the two cores (issue 29 item 6).
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'ERROR',
      PLAC_SEFAZ_TRICKLE_MS: '0',
      // The demo's first load with 20 documents a UF instead of 150: the flows read its faults and its
      // stalled UFs, not its size, and its 4,050 documents held the twin's event loop for the first
      // minutes of the run on 2 cores (a page waited 1-2 s on each call; the first flows timed out).
      PLAC_SEFAZ_BACKLOG: process.env.PLAC_SEFAZ_BACKLOG ?? '20',
      // Webhook retries 1 s apart instead of 1 minute doubling to 6 hours: a failing delivery fails for good in seconds.
      PLAC_SQS_RETRY_DELAY: '1',
      // The data is thrown away at the end: DynamoDB Local keeps it in memory, not in its SQLite file (faster writes).
      PLAC_DYNAMODB_MEMORY: '1',
      ...(process.env.PLAC_WEB_DIST ? { PLAC_WEB_DIST: process.env.PLAC_WEB_DIST } : {}),
    },
  },
});
