/**
 * `npm test`: every check a change can break, in order — lint, type check, the API description's
 * lint (Redocly), unit + component + integration tests (vitest, the integration project starts and
 * stops the twin), then the portal's
 * build and the end-to-end tests in headless Chromium (Playwright). Prints each runner's own
 * summary, then one closing line with the totals.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = `${root}test-results`;
/** Vitest's two runs (see the vitest stage) each write a JSON report; the closing line adds them up. */
const VITEST_REPORTS = [`${results}/vitest-integration.json`, `${results}/vitest-unit-web.json`];
for (const file of [...VITEST_REPORTS, `${results}/vitest.json`, `${results}/playwright.json`]) rmSync(file, { force: true });
mkdirSync(results, { recursive: true });

const vitest = (projects: string[], report: string) => [
  'npx', 'vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
];

interface Stage {
  name: string;
  command: string[];
  /**
   * A command run at the same time as `command`, its output kept in a file and printed when both end.
   * Vitest gives a 2-core machine one worker, so its projects run one after the other; the integration
   * project must stay one file at a time (its files share one twin), but the unit and component tests
   * need no twin and run beside it in a second vitest (measured on 2 cores: 910 s one after the other).
   */
  beside?: string[];
}
const only = process.argv.slice(2);
const allStages: Stage[] = [
  { name: 'lint', command: ['npx', 'eslint', '--max-warnings=0', '.'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  // The API description through Redocly's recommended rules (scripts/openapi-lint.ts).
  { name: 'openapi', command: ['npx', 'tsx', 'scripts/openapi-lint.ts'] },
  { name: 'vitest', command: vitest(['integration'], VITEST_REPORTS[0]!), beside: vitest(['unit', 'web'], VITEST_REPORTS[1]!) },
  { name: 'build', command: ['npm', 'run', '--silent', 'build', '-w', 'web'] },
  { name: 'e2e', command: ['npx', 'playwright', 'test'] },
];
// `npm test -- unit` must not pass by running nothing: a name that is not a stage is an error.
const unknown = only.filter((name) => !allStages.some((stage) => stage.name === name));
if (unknown.length) {
  console.error(`Unknown stage: ${unknown.join(', ')}. The stages are: ${allStages.map((s) => s.name).join(', ')}.`);
  process.exit(2);
}
const stages = allStages.filter((stage) => only.length === 0 || only.includes(stage.name));

const failedStages: string[] = [];
for (const stage of stages) {
  console.log(`\n▶ ${stage.name}: ${stage.command.join(' ')}`);
  const started = Date.now();
  const status = stage.beside ? await runBeside(stage.command, stage.beside, `${results}/${stage.name}-beside.log`) : run(stage.command);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (status !== 0) {
    failedStages.push(stage.name);
    console.log(`✖ ${stage.name} failed (${seconds}s)`);
  } else {
    console.log(`✔ ${stage.name} (${seconds}s)`);
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const vitestReports = VITEST_REPORTS.filter((file) => existsSync(file)).map(
  (file) => JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number },
);
if (vitestReports.length) {
  const sum = (pick: (v: (typeof vitestReports)[number]) => number) => vitestReports.reduce((total, v) => total + pick(v), 0);
  const v = { passed: sum((r) => r.numPassedTests), failed: sum((r) => r.numFailedTests), skipped: sum((r) => r.numPendingTests + r.numTodoTests) };
  console.log(`\nvitest: ${v.passed} passed, ${v.failed} failed, ${v.skipped} skipped`);
  passed += v.passed;
  failed += v.failed;
  skipped += v.skipped;
}
if (existsSync(`${results}/playwright.json`)) {
  const p = JSON.parse(readFileSync(`${results}/playwright.json`, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  console.log(`playwright: ${p.stats.expected + p.stats.flaky} passed, ${p.stats.unexpected} failed, ${p.stats.skipped} skipped`);
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
}
if (failedStages.length) console.log(`failed stages: ${failedStages.join(', ')}`);
// The closing line CI reads: totals of every test runner.
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedStages.length || failed ? 1 : 0);

function run(command: string[]): number | null {
  return spawnSync(command[0]!, command.slice(1), { cwd: root, stdio: 'inherit', env: plainOutput() }).status;
}

/**
 * `main` with its output on the console and `beside` at the same time, its output in `log` and
 * printed after `main` ends (two runners writing at once would interleave their lines). Non-zero
 * when either fails.
 */
async function runBeside(main: string[], beside: string[], log: string): Promise<number> {
  const file = createWriteStream(log);
  const second = spawn(beside[0]!, beside.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: plainOutput() });
  second.stdout.pipe(file, { end: false });
  second.stderr.pipe(file, { end: false });
  const secondEnded = new Promise<number | null>((resolve) => second.on('close', resolve));
  const first = spawn(main[0]!, main.slice(1), { cwd: root, stdio: 'inherit', env: plainOutput() });
  const firstStatus = await new Promise<number | null>((resolve) => first.on('close', resolve));
  const secondStatus = await secondEnded;
  await new Promise<void>((resolve) => file.end(resolve));
  console.log(`\n▶ beside it: ${beside.join(' ')}`);
  process.stdout.write(readFileSync(log, 'utf8'));
  return firstStatus === 0 && secondStatus === 0 ? 0 : 1;
}

/**
 * The runners' output without ANSI colour codes (CI logs are read as text). NO_COLOR is the one
 * every runner here honours; FORCE_COLOR in any form, even 0, makes some of them colour anyway.
 */
function plainOutput(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  return env;
}
