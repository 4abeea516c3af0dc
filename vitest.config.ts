import { defineConfig } from 'vitest/config';

/**
 * Four projects: `unit` (pure code and CDK assertions), `web` (components in jsdom, configured in
 * web/vite.config.ts), `integration` (handlers and HTTP against the local twin, which the global
 * setup starts on free ports with a throw-away data folder and stops at the end) and `faults` (jobs
 * killed mid-way with the twin as a child process, issue 42: `npm run test:faults`, minutes long, not
 * part of `npm test`).
 *
 * Workers: vitest's default is one less than the cores, one worker on a 2-core machine, so every file
 * ran one after the other. The unit and component files need nothing shared and run on two workers
 * (the unit project measured 247 s on one, 179 s on two); then, in a group of its own (`groupOrder`),
 * the integration files one at a time: they share the one twin and its data (a billed month, counted
 * partitions), and the twin's own work is the second core's.
 */
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
          name: 'integration',
          environment: 'node',
          include: ['functions/**/*.int.test.ts', 'infra/**/*.int.test.ts', 'tests/api/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['tests/setup/twin.global.ts'],
          setupFiles: ['tests/setup/twin.env.ts', 'tests/setup/openapi-answers.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
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
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
