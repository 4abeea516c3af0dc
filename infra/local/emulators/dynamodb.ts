/**
 * DynamoDB Local — AWS's own emulator — for the twin.
 *
 * The jar ships inside the npm package amplify-dynamodb-simulator; that package's JS launcher and its
 * dependencies are replaced by empty packages (root package.json `overrides`), so we start the jar
 * ourselves. Data lives in `<dataDir>/dynamodb/` (one shared SQLite file thanks to -sharedDb, so every
 * credential and region sees the same tables) and the JVM's output goes to a log file there, not to
 * the console where it would bury the twin's own messages.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { PrerequisiteError } from './errors';
import { assertPortFree, portEnvVars } from './ports';

export interface DynamoDbLocal {
  /** http://127.0.0.1:<port> */
  readonly endpoint: string;
  /** Stops the JVM (SIGTERM, then SIGKILL after a grace period). Safe to call more than once. */
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** The twin's data folder; DynamoDB Local keeps its files in `<dataDir>/dynamodb/`. */
  dataDir: string;
  port: number;
  /**
   * How long to wait for the first successful ListTables. Default 60 s: a cold JVM takes ~5 s on a
   * small machine, several times that when tests start a few at once.
   */
  readyTimeoutMs?: number;
  /**
   * Keep the tables in the JVM's memory (`-inMemory`) instead of the SQLite file: for throw-away data
   * (the test runs), where it halves the time DynamoDB Local spends on each write (measured: the report
   * job's 40,000-line month written in 45 s instead of 94 s on 2 cores). The data is gone when the JVM
   * stops, so the developer's twin (`npm start`) keeps the file.
   */
  inMemory?: boolean;
}

const MIN_JAVA = 17;
const JAVA_HINT = `Java ${MIN_JAVA} or newer is required for DynamoDB Local: install it with \`apt-get install openjdk-17-jre-headless\`.`;

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const { port, readyTimeoutMs = 60_000 } = options;
  await assertJava();
  await assertPortFree(port, 'DynamoDB Local', portEnvVars.dynamodb);

  const dir = join(options.dataDir, 'dynamodb');
  mkdirSync(dir, { recursive: true });
  const logFile = join(dir, 'dynamodb-local.log');
  const emulatorDir = locateEmulator();

  // The log is opened in append mode and handed to the child as a file descriptor, so the JVM writes
  // straight to disk and nothing in this process has to drain a pipe.
  const logFd = openSync(logFile, 'a');
  const javaArgs = [
    // C1 JIT only: DynamoDB Local answered ~2 s sooner (≈2.7 s instead of ≈4.7 s on 2 cores) and was
    // no slower under load in our measurement (the C2 compiler competes with the emulator for the CPUs).
    '-XX:TieredStopAtLevel=1',
    `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(emulatorDir, 'DynamoDBLocal.jar'),
    '-sharedDb',
    ...(options.inMemory ? ['-inMemory'] : ['-dbPath', dir]),
    '-port',
    String(port),
    // DynamoDB Local ≥ 1.24 phones home by default; the twin must work offline and stay quiet.
    '-disableTelemetry',
  ];
  let child: ChildProcess;
  try {
    child = spawnWithParentWatch('java', javaArgs, emulatorDir, logFd);
  } finally {
    closeSync(logFd); // the child has its own copy
  }

  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      // Tell the watcher the JVM is gone so it leaves without signalling a pid the OS may reuse.
      if (child.stdin && !child.stdin.writableEnded) child.stdin.end('gone\n');
      resolve(code);
    });
    child.once('error', () => resolve(null)); // e.g. /bin/sh missing; waitUntilReady reports it
  });
  const endpoint = `http://127.0.0.1:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin?.end(); // EOF: the watcher sends SIGTERM too, harmlessly
        child.kill('SIGTERM'); // the JVM's shutdown hook closes its SQLite file cleanly
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    })();
    return stopping;
  };
  // Normal exits of the parent (including process.exit) signal the JVM synchronously; SIGTERM rather
  // than SIGKILL so its shutdown hooks still close the database and delete the SQLite native library
  // it unpacked into the temp folder. Deaths that run no JS at all (SIGKILL, crash) are covered by the
  // parent-watch in spawnWithParentWatch.
  const killOnExit = (): void => {
    child.kill('SIGTERM');
  };
  process.on('exit', killOnExit);

  try {
    await waitUntilReady(endpoint, exited, readyTimeoutMs, logFile, port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, stop };
}

/** Checks `java -version` (printed on stderr: `openjdk version "17.0.15"` or `"1.8.0_402"`). */
async function assertJava(): Promise<void> {
  const output = await new Promise<string | undefined>((resolve) => {
    execFile('java', ['-version'], { timeout: 15_000 }, (error, stdout, stderr) => {
      resolve(error ? undefined : `${stderr}\n${stdout}`);
    });
  });
  const match = output?.match(/version "(\d+)(?:\.(\d+))?/);
  if (!match) throw new PrerequisiteError(JAVA_HINT);
  const major = Number(match[1]) === 1 ? Number(match[2]) : Number(match[1]);
  if (!(major >= MIN_JAVA)) throw new PrerequisiteError(JAVA_HINT);
}

function locateEmulator(): string {
  const require = createRequire(import.meta.url);
  let packageJson: string;
  try {
    packageJson = require.resolve('amplify-dynamodb-simulator/package.json');
  } catch (error) {
    throw new PrerequisiteError('DynamoDB Local is missing: run `npm install` at the repository root.', { cause: error });
  }
  return join(dirname(packageJson), 'emulator');
}

/**
 * Spawns `command` through a tiny POSIX shell that then `exec`s it, so `child.pid` is the JVM itself.
 * Before the exec, the shell forks a watcher that blocks reading our stdin pipe: when this process
 * dies by any means the kernel closes the pipe, the read returns, and the watcher sends SIGTERM to
 * the JVM. This is what keeps a `kill -9` of the twin from leaving an orphan JVM holding the port.
 */
function spawnWithParentWatch(command: string, args: string[], cwd: string, logFd: number): ChildProcess {
  // $$ in the subshell is the outer shell's pid, which `exec` hands over to the JVM. The watcher
  // signals only on EOF; the line "gone" (sent when the JVM has exited) makes it leave quietly. Its
  // own stdio is detached from the log so the log file is not held open after the JVM ends.
  const script =
    '(read -r line <&3; [ "$line" = gone ] || kill -TERM $$ 2>/dev/null) </dev/null >/dev/null 2>&1 & exec 3<&- "$@"';
  const shell = spawn('/bin/sh', ['-c', `exec 3<&0; ${script}`, 'dynamodb-local', command, ...args], {
    cwd,
    stdio: ['pipe', logFd, logFd],
  });
  // Never end the pipe ourselves except in stop(); an error on it (EPIPE) must not crash the twin.
  shell.stdin?.on('error', () => {});
  return shell;
}

async function waitUntilReady(
  endpoint: string,
  exited: Promise<number | null>,
  timeoutMs: number,
  logFile: string,
  port: number,
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  let done = false;
  const early = exited.then((code) => {
    if (done) return;
    const log = readTail(logFile);
    if (/Address already in use|BindException/i.test(log)) {
      throw new PrerequisiteError(
        `Port ${port} for DynamoDB Local is taken: stop what uses it or set ${portEnvVars.dynamodb}.`,
      );
    }
    throw new Error(`DynamoDB Local exited with code ${code} before it was ready; see ${logFile}:\n${log}`);
  });
  const deadline = Date.now() + timeoutMs;
  const poll = (async () => {
    while (!done) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        if (done) return;
        if (Date.now() > deadline) {
          throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms; see ${logFile}.`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  })();
  try {
    await Promise.race([poll, early]);
  } finally {
    done = true;
    client.destroy();
  }
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}
