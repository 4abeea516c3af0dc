import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../infra/local/emulators/ports';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A twin of the bench's own (`npm start` in a child process): free ports, a throw-away data folder,
 * no access log and no scheduled loads (they would share the cores with what is measured). `web`
 * says what it serves at its URL: nothing, or the built portal as CloudFront does.
 */
export async function startOwnTwin(web: 'none' | 'dist') {
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-'));
  const ports = {
    PLAC_PORT: await freePort(),
    PLAC_TLS_PORT: await freePort(),
    PLAC_DYNAMODB_PORT: await freePort(),
    PLAC_AWS_PORT: await freePort(),
    PLAC_MAIL_PORT: await freePort(),
    PLAC_SEFAZ_PORT: await freePort(),
  };
  const child = spawn('npx', ['tsx', 'infra/local/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PLAC_DATA_DIR: dataDir,
      PLAC_WEB: web,
      PLAC_ACCESS_LOG: '0',
      PLAC_SCHEDULES: '0',
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('PLAC local ready:')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the twin exited (${code}) before it was ready`)));
  });
  return {
    url: `http://127.0.0.1:${ports.PLAC_PORT}`,
    tlsUrl: `https://127.0.0.1:${ports.PLAC_TLS_PORT}`,
    dataDir,
    /** The environment the twin's functions run with (endpoints, secrets' names). */
    env: JSON.parse(readFileSync(join(dataDir, 'twin-env.json'), 'utf8')) as Record<string, string>,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
