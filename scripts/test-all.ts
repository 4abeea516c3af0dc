/**
 * `npm test`: every check a change can break, in order — lint, type check, the API description's
 * lint (Redocly), unit + component + integration tests (vitest, the integration project starts and
 * stops the twin), then the portal's
 * build and the end-to-end tests in headless Chromium (Playwright). Prints each runner's own
 * summary, then one closing line with the totals.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = `${root}test-results`;
rmSync(`${results}/vitest.json`, { force: true });
rmSync(`${results}/playwright.json`, { force: true });
mkdirSync(results, { recursive: true });

const only = process.argv.slice(2);
/**
 * `together`: stages that run at the same time as the stage before them (the first of the group prints
 * as it goes, the others' output is kept and printed when they end, so lines never interleave). Only
 * single-threaded checks are grouped: eslint beside the type checks uses the second core (measured on
 * 2 cores: 35 s + 91 s one after the other). The test runners are not: the integration tests' twin and
 * the component tests' jsdom each want a core, and side by side both took longer (measured: vitest 957 s
 * side by side against 910 s one after the other, and timing-sensitive component tests failed).
 */
const allStages: { name: string; command: string[]; together?: boolean }[] = [
  { name: 'lint', command: ['npx', 'eslint', '--max-warnings=0', '.'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'], together: true },
  // The API description through Redocly's recommended rules (scripts/openapi-lint.ts).
  { name: 'openapi', command: ['npx', 'tsx', 'scripts/openapi-lint.ts'], together: true },
  {
    name: 'vitest',
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}/vitest.json`],
  },
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
// The stages in groups: a stage marked `together` joins the group of the one before it.
const groups: (typeof stages)[] = [];
for (const stage of stages) {
  if (stage.together && groups.length > 0) groups.at(-1)!.push(stage);
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
if (existsSync(`${results}/vitest.json`)) {
  const v = JSON.parse(readFileSync(`${results}/vitest.json`, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
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
