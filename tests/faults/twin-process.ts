/**
 * The fault tests' twin (issue 42): `npm start`'s own entry point (infra/local/start.ts) run as a child
 * process, so that it dies the way a Lambda's container or a developer's `kill -9` does it: SIGKILL to
 * its whole process group (the Node process with the handlers and the Step Functions runner, DynamoDB
 * Local's JVM and its watcher), no shutdown code run, nothing flushed. It then starts again on the same
 * data folder and the same ports, as an operator restarts it.
 *
 * What differs from the integration tests' twin (tests/setup/twin.global.ts) and why:
 * - a child process, not startTwin() in the test's process: a kill of the test's own process would end
 *   the test, and an in-process stop() runs the shutdown code that a real death never runs;
 * - DynamoDB Local on its SQLite file (PLAC_DYNAMODB_MEMORY unset): the tables must outlive the kill;
 * - its own process group (`detached`), so one signal reaches every process of the twin and none of
 *   the test runner's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertPortFree, freePort } from '../../infra/local/emulators/ports';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The environment the twin is started with, taken before a test copies the twin's own environment
 * (endpoints, token secret) into its process to sign sessions: the child must not inherit that.
 */
const baseEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('PLAC_')));

export interface TwinPorts {
  http: number;
  https: number;
  dynamodb: number;
  aws: number;
  mail: number;
  sefaz: number;
}

export interface TwinProcess {
  /** The gateway, e.g. http://localhost:41234 (the API under /api/v1). */
  url: string;
  /** This run's folder: the twin's data folder (`data/`) and one log per start. */
  root: string;
  dataDir: string;
  ports: TwinPorts;
  /** The variables given to every start of this twin (PLAC_SEFAZ_BACKLOG, PLAC_SCHEDULES, …). */
  extraEnv: Record<string, string>;
  /** The environment the twin gives its handlers (twin-env.json): endpoints, table, token secret. */
  env: Record<string, string>;
  child: ChildProcess;
  /** How many times it was started (1 for the first start). */
  starts: number;
  log: string;
}

/** Processes still to be killed if the test's worker ends before the test does (a failure, Ctrl-C). */
const live = new Set<number>();
process.on('exit', () => {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Six different free ports. */
async function freePorts(): Promise<TwinPorts> {
  const taken = new Set<number>();
  const next = async () => {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    return port;
  };
  return { http: await next(), https: await next(), dynamodb: await next(), aws: await next(), mail: await next(), sefaz: await next() };
}

/** First start: a new throw-away folder under the system's temp folder, free ports. */
export async function startTwinProcess(extraEnv: Record<string, string> = {}): Promise<TwinProcess> {
  const root = await mkdtemp(join(tmpdir(), 'plac-faults-'));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  return launch({ root, dataDir, ports: await freePorts(), extraEnv, starts: 1 });
}

/** Starts the twin again after a kill: the same data folder, ports and variables. */
export async function restartTwinProcess(twin: TwinProcess): Promise<TwinProcess> {
  if (twin.child.exitCode === null && twin.child.signalCode === null) throw new Error('the twin is still running: kill it first');
  return launch({ root: twin.root, dataDir: twin.dataDir, ports: twin.ports, extraEnv: twin.extraEnv, starts: twin.starts + 1 });
}

async function launch(p: { root: string; dataDir: string; ports: TwinPorts; extraEnv: Record<string, string>; starts: number }): Promise<TwinProcess> {
  // The ports of a killed twin are free once its processes are gone; wait for the last of them.
  await waitPortsFree(p.ports);
  const log = join(p.root, `twin-${p.starts}.log`);
  const fd = openSync(log, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'infra/local/start.ts')], {
      cwd: repo,
      // Its own process group: process.kill(-pid) reaches the twin and everything it started, nothing else.
      detached: true,
      stdio: ['ignore', fd, fd],
      env: {
        ...baseEnv,
        PLAC_DATA_DIR: p.dataDir,
        PLAC_HOST: '127.0.0.1',
        PLAC_PORT: String(p.ports.http),
        PLAC_TLS_PORT: String(p.ports.https),
        PLAC_DYNAMODB_PORT: String(p.ports.dynamodb),
        PLAC_AWS_PORT: String(p.ports.aws),
        PLAC_MAIL_PORT: String(p.ports.mail),
        PLAC_SEFAZ_PORT: String(p.ports.sefaz),
        PLAC_WEB: 'none',
        PLAC_ACCESS_LOG: '0',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        ...p.extraEnv,
      },
    });
  } finally {
    closeSync(fd);
  }
  if (!child.pid) throw new Error('the twin did not start');
  live.add(child.pid);
  const pid = child.pid;
  child.once('exit', () => live.delete(pid));
  const url = `http://localhost:${p.ports.http}`;
  await waitReady(child, url, log);
  const env = JSON.parse(readFileSync(join(p.dataDir, 'twin-env.json'), 'utf8')) as Record<string, string>;
  return { url, root: p.root, dataDir: p.dataDir, ports: p.ports, extraEnv: p.extraEnv, env, child, starts: p.starts, log };
}

/**
 * Ready: start.ts printed its ready line (written after twin-env.json, so the file read next is this
 * start's) and the API answers its health check.
 */
async function waitReady(child: ChildProcess, url: string, log: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the twin stopped while starting:\n${tail(log)}`);
    if (readFileSync(log, 'utf8').includes('PLAC local ready')) {
      const ok = await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false);
      if (ok) return;
    }
    await sleep(500);
  }
  throw new Error(`the twin did not answer /api/v1/health within ${timeoutMs / 1000} s:\n${tail(log)}`);
}

/** The death the tests are about: SIGKILL to the whole process group, then wait until it is gone. */
export async function killTwinProcess(twin: TwinProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (twin.child.exitCode !== null || twin.child.signalCode !== null) resolve();
    else twin.child.once('exit', () => resolve());
  });
  process.kill(-twin.child.pid!, 'SIGKILL');
  await exited;
  await waitPortsFree(twin.ports);
}

/** The end of a test: a normal stop (SIGTERM, the twin's own shutdown), SIGKILL if it hangs, and the folder removed. */
export async function stopTwinProcess(twin: TwinProcess | undefined, options: { keep?: boolean } = {}): Promise<void> {
  if (!twin) return;
  if (twin.child.exitCode === null && twin.child.signalCode === null) {
    const exited = new Promise<void>((resolve) => twin.child.once('exit', () => resolve()));
    try {
      process.kill(-twin.child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-twin.child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 20_000);
    await exited;
    clearTimeout(timer);
  }
  // DynamoDB Local's JVM ends a moment after the twin (its watcher signals it): wait for its port.
  await waitPortsFree(twin.ports).catch(() => undefined);
  if (options.keep || process.env.PLAC_FAULTS_KEEP === '1') {
    console.log(`fault test data kept in ${twin.root}`);
    return;
  }
  if (existsSync(twin.root)) await rm(twin.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

async function waitPortsFree(ports: TwinPorts, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const [name, port] of Object.entries(ports)) {
    for (;;) {
      try {
        await assertPortFree(port, name, name);
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(250);
      }
    }
  }
}

/** The last lines of a log, for a failure's message. */
export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A request to the twin's API. A connection the killed twin left in the pool fails once ("other side
 * closed"): the request is sent again, once, on a new one.
 */
export async function api(twin: TwinProcess, path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(twin.url + path, init);
      const text = await response.text();
      const json = (response.headers.get('content-type') ?? '').includes('application/json') && text;
      return { status: response.status, body: json ? (JSON.parse(text) as unknown) : text };
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(200);
    }
  }
}

/** Seconds since `t0` (performance.now()), one decimal. */
export const seconds = (t0: number, t1 = performance.now()) => Math.round((t1 - t0) / 100) / 10;

/** One line of the measurements, in the same shape for every job (docs/operations.md keeps the table). */
export function report(m: { job: string; lost: number; duplicated: number; stuck: number; acceptedS: number | null; finishedS: number | null; note?: string }) {
  const line =
    `FAULT ${m.job}: lost ${m.lost}, duplicated ${m.duplicated}, stuck ${m.stuck}, ` +
    `restart → re-run accepted ${m.acceptedS ?? '—'} s, → finished ${m.finishedS ?? '—'} s${m.note ? ` (${m.note})` : ''}`;
  console.log(line);
  return line;
}

/**
 * `fn` over every item, at most `concurrency` at once, results in the items' order: the checks read
 * thousands of items back, and the SDK's pool holds 50 sockets (more at once only queue, with a warning).
 */
export async function emParalelo<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, concurrency = 32): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let proximo = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (proximo < items.length) {
        const i = proximo++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}
