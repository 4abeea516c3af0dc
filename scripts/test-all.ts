/**
 * `npm test`: every check a change can break, in order — lint, type check, the API description's
 * lint (Redocly), unit + component tests (vitest), the portal's build, then the integration tests
 * (vitest, its project starts and stops a twin) beside the end-to-end tests in headless Chromium
 * (Playwright, with a twin of its own). Prints each runner's own summary, then one closing line with
 * the totals.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = `${root}test-results`;
/** The JSON reports of the two vitest stages (read for the totals at the end). */
const vitestReports = ['vitest', 'integration'].map((report) => `${results}/${report}.json`);
for (const report of vitestReports) rmSync(report, { force: true });
rmSync(`${results}/playwright.json`, { force: true });
mkdirSync(results, { recursive: true });

const only = process.argv.slice(2);
/** A vitest run of some projects, with its JSON report in test-results/<report>.json. */
function vitest(report: string, projects: string[]): string[] {
  return ['npx', 'vitest', 'run', ...projects.map((p) => `--project=${p}`), '--reporter=default', '--reporter=json', `--outputFile.json=${results}/${report}.json`];
}
/**
 * `together`: a stage that runs at the same time as the named one when both are run (the first of the group prints
 * as it goes, the others' output is kept and printed when they end, so lines never interleave). Only
 * checks that leave a core idle are grouped: eslint beside the type checks uses the second core
 * (measured on 2 cores: 35 s + 91 s one after the other), and the integration tests beside the browser
 * tests: alone, the integration files kept the two cores 59 % busy (one file at a time against one
 * twin, waiting on DynamoDB Local) and the browser tests 76 % (one flow at a time), so each fills the
 * other's idle time. Each has its own twin, on its own ports and data folder. The unit and component
 * tests are not grouped with anything: on two workers they use both cores (and timing-sensitive
 * component tests failed when a twin competed with them).
 */
const allStages: { name: string; command: string[]; together?: string }[] = [
  { name: 'lint', command: ['npx', 'eslint', '--max-warnings=0', '.'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'], together: 'lint' },
  // The API description through Redocly's recommended rules (scripts/openapi-lint.ts).
  { name: 'openapi', command: ['npx', 'tsx', 'scripts/openapi-lint.ts'], together: 'lint' },
  // Unit and component tests (the projects `unit` and `web` of vitest.config.ts).
  { name: 'vitest', command: vitest('vitest', ['unit', 'web']) },
  { name: 'build', command: ['npm', 'run', '--silent', 'build', '-w', 'web'] },
  { name: 'integration', command: vitest('integration', ['integration', 'integration-isolated']) },
  { name: 'e2e', command: ['npx', 'playwright', 'test'], together: 'integration' },
];
// `npm test -- unit` must not pass by running nothing: a name that is not a stage is an error.
const unknown = only.filter((name) => !allStages.some((stage) => stage.name === name));
if (unknown.length) {
  console.error(`Unknown stage: ${unknown.join(', ')}. The stages are: ${allStages.map((s) => s.name).join(', ')}.`);
  process.exit(2);
}
const stages = allStages.filter((stage) => only.length === 0 || only.includes(stage.name));

const failedStages: string[] = [];
// The stages in groups: a stage marked `together` joins the group of the stage it names, when that
// stage runs too (`npm test -- build e2e` builds, then runs e2e: never e2e beside the build it needs).
const groups: (typeof stages)[] = [];
for (const stage of stages) {
  const group = groups.at(-1);
  if (stage.together && group?.some((s) => s.name === stage.together)) group.push(stage);
  else groups.push([stage]);
}
for (const group of groups) {
  const started = Date.now();
  for (const stage of group) console.log(`\n▶ ${stage.name}: ${stage.command.join(' ')}`);
  const statuses = await runTogether(group.map((stage) => stage.command), group.map((stage) => `${results}/${stage.name}.log`));
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  group.forEach((stage, i) => {
    if (statuses[i] !== 0) {
      failedStages.push(stage.name);
      console.log(`✖ ${stage.name} failed (${seconds}s)`);
    } else {
      console.log(`✔ ${stage.name} (${seconds}s)`);
    }
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
const reports = vitestReports.filter((file) => existsSync(file));
if (reports.length) {
  const v = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
  for (const file of reports) {
    const r = JSON.parse(readFileSync(file, 'utf8')) as typeof v;
    for (const key of Object.keys(v) as (keyof typeof v)[]) v[key] += r[key];
  }
  console.log(`\nvitest: ${v.numPassedTests} passed, ${v.numFailedTests} failed, ${v.numPendingTests + v.numTodoTests} skipped`);
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
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

/**
 * Runs the commands at the same time: the first with its output on the console, each other's kept in
 * its log file and printed once all have ended. Answers each command's exit status.
 */
async function runTogether(commands: string[][], logs: string[]): Promise<(number | null)[]> {
  const runs = commands.map((command, i) => {
    const inherit = i === 0;
    const child = spawn(command[0]!, command.slice(1), { cwd: root, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: plainOutput() });
    const file = inherit ? null : createWriteStream(logs[i]!);
    if (file) {
      child.stdout!.pipe(file, { end: false });
      child.stderr!.pipe(file, { end: false });
    }
    return new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        if (file) file.end(() => resolve(code));
        else resolve(code);
      }),
    );
  });
  const statuses = await Promise.all(runs);
  commands.slice(1).forEach((command, i) => {
    console.log(`\n▶ ${command.join(' ')} (beside the above):`);
    process.stdout.write(readFileSync(logs[i + 1]!, 'utf8'));
  });
  return statuses;
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
