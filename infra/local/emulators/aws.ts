/**
 * fauxqs — S3 and SQS in this process — for the twin.
 *
 * Persistence (fauxqs ≥ 2): SQS state goes to a SQLite file (node:sqlite) in `<dataDir>/aws/`, written
 * through on every mutation; S3 objects are kept as plain files under `<dataDir>/aws/s3/` rather than
 * as SQLite blobs, so that uploaded PDFs and XML can be opened from disk and large files do not bloat
 * the database.
 *
 * Known gaps of fauxqs 2.4 that the twin must live with: it always listens on all interfaces (0.0.0.0)
 * whatever `host` is; it does not answer CORS preflights or store bucket CORS, versioning or encryption
 * settings; it does not check presigned-URL signatures or expiry.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFauxqs as startFauxqsServer } from 'fauxqs';
import { assertPortFree, portEnvVars } from './ports';

export interface Fauxqs {
  /** One endpoint for both S3 (path style) and SQS, e.g. http://127.0.0.1:4566 */
  readonly endpoint: string;
  /** Closes the server and the SQLite file. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface FauxqsOptions {
  /** The twin's data folder; fauxqs keeps its files in `<dataDir>/aws/`. */
  dataDir: string;
  port: number;
  /**
   * The host name clients use in `endpoint` (default 127.0.0.1: an IPv4 literal, because fauxqs
   * listens on IPv4 only and `localhost` may resolve to ::1 first). fauxqs itself binds 0.0.0.0.
   */
  host?: string;
}

export async function startFauxqs(options: FauxqsOptions): Promise<Fauxqs> {
  const { port, host = '127.0.0.1' } = options;
  await assertPortFree(port, 'fauxqs (S3 and SQS)', portEnvVars.aws);

  const dir = join(options.dataDir, 'aws');
  const s3Dir = join(dir, 's3');
  mkdirSync(s3Dir, { recursive: true });

  const server = await startFauxqsServer({
    port,
    logger: false, // Fastify's per-request JSON logs would flood the twin's console
    defaultRegion: 'us-east-1',
    dataDir: dir,
    s3StorageDir: s3Dir,
    // No `host`: fauxqs then builds queue URLs from the request's Host header (http://127.0.0.1:<port>/
    // 000000000000/<name>), which the SQS SDK can call directly; with `host` it would build
    // http://sqs.us-east-1.<host>:<port>/..., a name that does not resolve everywhere.
  });

  const endpoint = `http://${host}:${server.port}`;
  let stopping: Promise<void> | undefined;
  return {
    endpoint,
    // One event-loop turn after closing (fauxqs force-closes keep-alive sockets), so HTTP clients in this
    // same process (tests that restart it) see those sockets closed before they would reuse one.
    stop: () => (stopping ??= server.stop().then(() => new Promise<void>((resolve) => setImmediate(resolve)))),
  };
}
