import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's headless Chromium (never a downloaded browser) against a twin of
 * their own: the built portal on port 3100, a throw-away data folder.
 */
const port = Number(process.env.PLAC_E2E_PORT ?? 3100);
const dataDir = process.env.PLAC_E2E_DATA ?? join(tmpdir(), `plac-e2e-${Date.now()}`);
// The tests read the twin's token secret from its data folder to sign real sessions.
process.env.PLAC_E2E_DATA = dataDir;

export default defineConfig({
  testDir: 'tests/e2e',
  // Its own folder: Playwright empties it at start, and test-results/ also holds vitest's report.
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'pt-BR',
    timezoneId: 'America/Bahia',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
      PLAC_TLS_PORT: String(port + 443),
      PLAC_DYNAMODB_PORT: String(port + 5000),
      PLAC_AWS_PORT: String(port + 1566),
      PLAC_MAIL_PORT: String(port + 5025),
      PLAC_ACCESS_LOG: '0',
    },
  },
});
