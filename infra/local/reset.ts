/**
 * `npm run reset`: wipes the twin's data (`.data/` at the repository root, or PLAC_DATA_DIR when set,
 * as for `npm start`) so the next `npm start` begins from an empty world (and seeds the demo data again).
 *
 * It refuses while a twin is running, because the emulators hold open files there (DynamoDB Local's
 * and fauxqs's SQLite files): deleting them underneath a running twin leaves it serving from unlinked
 * files and the next start from a half-written state. The running twin is recognised by
 * `<data>/twin.pid` (written by the twin) naming a live process.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const defaultDataDir = join(repoRoot, '.data');
const dataDir = resolve(process.env.PLAC_DATA_DIR ?? defaultDataDir);
const pidFile = join(dataDir, 'twin.pid');
/** Subfolders the emulators create (infra/local/emulators): proof that a folder is a twin's data. */
const twinMarkers = ['dynamodb', 'aws', 'mail', 'pki'];
/** How the folder is named in messages: relative to the repository when inside it. */
const shown = relative(repoRoot, dataDir).startsWith('..') ? dataDir : `${relative(repoRoot, dataDir)}/`;

function main(): number {
  if (!isSafeToDelete(dataDir)) {
    console.error(`Refusing to delete ${dataDir}: it does not look like the twin's data folder (check PLAC_DATA_DIR).`);
    return 1;
  }
  if (!existsSync(dataDir)) {
    console.log(`Nothing to remove: ${shown} does not exist.`);
    return 0;
  }
  const pid = runningTwinPid();
  if (pid !== undefined) {
    console.error(`The twin is running (pid ${pid}): stop it (Ctrl+C in its terminal) before resetting.`);
    return 1;
  }
  const entries = readdirSync(dataDir).sort();
  for (const entry of entries) {
    const path = join(dataDir, entry);
    const size = sizeOf(path);
    rmSync(path, { recursive: true, force: true });
    console.log(`removed ${join(shown, entry)} (${formatBytes(size)})`);
  }
  rmSync(dataDir, { recursive: true, force: true });
  console.log(entries.length ? `Removed ${shown} (${entries.length} entries).` : `Removed the empty ${shown}.`);
  return 0;
}

/**
 * A mistyped PLAC_DATA_DIR must not wipe the file system root, a home folder, the repository or any
 * folder of the developer's: a folder other than the default must hold something only the twin
 * creates (its emulators' subfolders), and must not contain the repository.
 */
function isSafeToDelete(dir: string): boolean {
  if (dir === defaultDataDir) return true;
  const containsRepo = (repoRoot + sep).startsWith(dir.endsWith(sep) ? dir : dir + sep);
  if (dir === parse(dir).root || dir === homedir() || containsRepo) return false;
  return !existsSync(dir) || twinMarkers.some((name) => existsSync(join(dir, name)));
}

/** The pid in twin.pid if that process is alive; a stale file (twin killed with -9) counts as none. */
function runningTwinPid(): number | undefined {
  let text: string;
  try {
    text = readFileSync(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(/\d+/.exec(text)?.[0]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to another user — still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

function sizeOf(path: string): number {
  const stat = lstatSafe(path);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}

/** lstat: a symbolic link counts as itself, so sizing never wanders outside the folder (rm does not either). */
function lstatSafe(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

process.exitCode = main();
