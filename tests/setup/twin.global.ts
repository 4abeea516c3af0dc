/**
 * Vitest global setup of the integration project: one twin for the whole run, on free ports with a
 * throw-away data folder, API only (the browser tests start their own with the built portal).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../infra/local/emulators/ports';
import { startTwin } from '../../infra/local/twin';

declare module 'vitest' {
  export interface ProvidedContext {
    twin: { url: string; tlsUrl: string; mailUrl: string; sefazUrl: string; dataDir: string; env: Record<string, string> };
  }
}

export default async function setup(project: TestProject) {
  // The handlers' WARN lines (failed logins, refused CRLs, webhook retries) are what the tests provoke:
  // the run's log keeps errors only, unless the caller asks for more.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-twin-'));
  const twin = await startTwin({
    dataDir,
    ports: { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() },
    web: 'none',
    webDir: fileURLToPath(new URL('../../web', import.meta.url)),
    sqsRetryDelaySeconds: 1,
    schedules: false,
    // Tests that pull from the simulator see a fixed sequence unless they add documents themselves.
    sefaz: { backlog: 60, trickle: false },
  });
  project.provide('twin', { url: twin.url, tlsUrl: twin.tlsUrl, mailUrl: twin.mailUrl, sefazUrl: twin.sefazUrl, dataDir, env: twin.env });
  return async () => {
    await twin.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
