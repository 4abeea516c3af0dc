import { defineConfig } from 'vitest/config';

/**
 * Five projects: `unit` (pure code and CDK assertions), `web` (components in jsdom, configured in
 * web/vite.config.ts), `integration` (handlers and HTTP against the local twin, which the global
 * setup starts on free ports with a throw-away data folder and stops at the end), `integration-isolated`
 * (the integration files that need a fresh module state each, run after the others) and `faults` (jobs
 * killed mid-way with the twin as a child process, issue 42: `npm run test:faults`, minutes long, not
 * part of `npm test`).
 *
 * Workers: vitest's default is one less than the cores, one worker on a 2-core machine, so every file
 * ran one after the other. The unit and component files need nothing shared and run on two workers
 * (the unit project measured 247 s on one, 179 s on two); then, in a group of its own (`groupOrder`),
 * the integration files one at a time: they share the one twin and its data (a billed month, counted
 * partitions), and the twin's own work is the second core's.
 *
 * The integration files share one worker process too (`isolate: false`): each file in a fresh process
 * of its own cost 3.5 s of start-up and imports beside the browser tests (301 s of the stage), and
 * sharing one took `.ci/run`'s integration stage from 1,413 s to 1,307 s. The files that need a module
 * graph of their own run after them, each
 * isolated, against the same twin (`integration-isolated`): the migrations' tests (their own table,
 * bound by the stores on first use), and the files that read configuration or counters kept by a
 * module since the first file that used it.
 */
const INTEGRATION = ['functions/**/*.int.test.ts', 'infra/**/*.int.test.ts', 'tests/api/**/*.test.ts'];
const ISOLATED_INTEGRATION = [
  'infra/migrations/**/*.int.test.ts',
  'functions/consumo/relatorio-qualquer-tamanho.int.test.ts',
  'tests/api/partitions.test.ts',
];
/** What both integration projects share: the one twin (its global setup starts it once) and its environment. */
const integration = {
  environment: 'node' as const,
  globalSetup: ['tests/setup/twin.global.ts'],
  setupFiles: ['tests/setup/twin.env.ts', 'tests/setup/openapi-answers.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  maxWorkers: 1,
};
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'infra/**/*.test.ts', 'scripts/**/*.test.ts', 'web/scripts/**/*.test.ts', 'tests/load/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts'],
          setupFiles: ['tests/setup/cdk-outdir.ts'],
          testTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      'web/vite.config.ts',
      {
        test: {
          ...integration,
          name: 'integration',
          include: INTEGRATION,
          exclude: ['**/node_modules/**', ...ISOLATED_INTEGRATION],
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...integration,
          name: 'integration-isolated',
          include: ISOLATED_INTEGRATION,
          exclude: ['**/node_modules/**'],
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'faults',
          environment: 'node',
          include: ['tests/faults/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          // Each file starts, kills and restarts a twin of its own (tests/faults/twin-process.ts): minutes
          // a file, and two twins at once would share the two cores and slow each other's jobs.
          testTimeout: 1_800_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
