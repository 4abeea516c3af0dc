/**
 * Vitest global setup of the integration projects: one twin for the whole run, on free ports with a
 * throw-away data folder, API only (the browser tests start their own with the built portal).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../infra/local/emulators/ports';
import { startTwin } from '../../infra/local/twin';

declare module 'vitest' {
  export interface ProvidedContext {
    twin: { url: string; tlsUrl: string; mailUrl: string; sefazUrl: string; dataDir: string; env: Record<string, string> };
  }
}

type Provided = ProvidedContext['twin'];

/**
 * The two integration projects (vitest.config.ts: the shared-process files, then the isolated ones)
 * each run this setup; the first starts the twin, the second is given the same one, and the last
 * teardown stops it. Global setups run in vitest's main process, hence the global.
 */
const shared = globalThis as { placTwin?: { started: Promise<{ provided: Provided; stop: () => Promise<void> }>; users: number } };

export default async function setup(project: TestProject) {
  const entry = (shared.placTwin ??= { started: startShared(), users: 0 });
  entry.users++;
  const twin = await entry.started;
  project.provide('twin', twin.provided);
  return async () => {
    if (--entry.users > 0) return;
    delete shared.placTwin;
    await twin.stop();
  };
}

async function startShared() {
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
    // The data folder is thrown away at the end: DynamoDB Local's tables in memory write about twice as fast.
    dynamodbInMemory: true,
    schedules: false,
    // Tests that pull from the simulator see a fixed sequence unless they add documents themselves.
    sefaz: { backlog: 60, trickle: false },
  });
  return {
    provided: { url: twin.url, tlsUrl: twin.tlsUrl, mailUrl: twin.mailUrl, sefazUrl: twin.sefazUrl, dataDir, env: twin.env },
    stop: async () => {
      await reportAnswers(dataDir);
      await twin.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Issue 29 item 2: the run's count of answers checked against the OpenAPI description, and of mismatches. */
async function reportAnswers(dataDir: string) {
  const text = await readFile(join(dataDir, 'openapi-answers.jsonl'), 'utf8').catch(() => '');
  const files = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { file: string; checked: number; mismatches: string[] });
  if (!files.length) return;
  const checked = files.reduce((sum, f) => sum + f.checked, 0);
  const mismatches = files.flatMap((f) => f.mismatches.map((m) => `${f.file}: ${m}`));
  console.log(`OpenAPI: ${checked} answers checked against the description, ${mismatches.length} mismatches`);
  for (const m of mismatches) console.log(`  ${m}`);
}
