/**
 * `sefazCatchUp` (issue 26): how the Sefaz loads catch up when São Paulo has a backlog of
 * BENCH_CATCHUP_SP documents (100,000 by default) and the other 26 UFs BENCH_CATCHUP_OTHERS each (1,000),
 * on a twin of its own with the simulator's volume mode. The Sefaz load state machine is run back to
 * back, as the 5-minute schedule would start it while a run is still going, each stream's run with the
 * budget BENCH_CATCHUP_BUDGET_S (20 s; AWS's is 240 s); the streams' cursors are read every second.
 * The twin runs at most 5 streams at a time, so one execution lasts about 11 waves of a budget: at
 * 240 s that passes the machine's 15-minute timeout (States.Timeout), which in AWS, with all 54 streams
 * at once, bounds two attempts of one stream. The shorter budget only makes the runs more numerous.
 *
 * Reported: `firstDocumentAllUfsS` (every UF has its first document stored; the aim is one schedule
 * period, 300 s), `caughtUpS` (every stream at its maxNSU), `documents`, `documentsPerSecond`, `runs`,
 * and the time each UF caught up (`caughtUpByUfS`). The twin runs every Lambda in one process on one
 * DynamoDB Local and caps a Map at PLAC_LOCAL_MAP_CONCURRENCY streams at a time (5): its documents per
 * second are this machine's, not AWS's, where each stream is a Lambda of its own.
 *
 * Run alone with `npx tsx bench/sefaz-catchup.ts` (merged into bench/results/volume.json as
 * `sefazCatchUp`); `npm run bench` runs it after bench/volume.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLUXOS, UF_SIGLAS, type Uf } from '@plac/shared/domain';
import { sefazLoadStateMachine } from '../infra/lib/topology';
import { freePort } from '../infra/local/emulators/ports';
import { startTwin } from '../infra/local/twin';

const SP = Number(process.env.BENCH_CATCHUP_SP ?? 100_000);
const OTHERS = Number(process.env.BENCH_CATCHUP_OTHERS ?? 1_000);
const BUDGET_S = process.env.BENCH_CATCHUP_BUDGET_S ?? '20';
/** Gives up after this long (the figures then say how far it got). */
const MAX_S = Number(process.env.BENCH_CATCHUP_MAX_S ?? 3 * 3600);

export async function sefazCatchUp(root: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'plac-bench-catchup-'));
  const ports = { http: await freePort(), https: await freePort(), dynamodb: await freePort(), aws: await freePort(), mail: await freePort(), sefaz: await freePort() };
  process.env.PLAC_SEFAZ_ORCAMENTO_S = BUDGET_S;
  const twin = await startTwin({
    dataDir,
    ports,
    web: 'none',
    webDir: join(root, 'web'),
    schedules: false,
    sefaz: { backlog: OTHERS, backlogs: { SP }, trickle: false },
  });
  try {
    const { lerCursor } = await import('../functions/fate/carga-store');
    const streams = UF_SIGLAS.flatMap((uf) => FLUXOS.map((fluxo) => ({ uf, fluxo, max: twin.sefaz.maxNsu(uf, fluxo) })));
    const documents = streams.reduce((sum, s) => sum + s.max, 0);
    const machine = twin.stateMachines.get(sefazLoadStateMachine.id)!;

    const t0 = performance.now();
    const seconds = () => Math.round((performance.now() - t0) / 100) / 10;
    const firstByUf = new Map<Uf, number>();
    const caughtUpByUf = new Map<Uf, number>();
    let loaded = 0;
    let done = false;
    const watch = (async () => {
      while (!done) {
        const cursors = await Promise.all(streams.map(async (s) => ({ ...s, at: (await lerCursor(s.uf, s.fluxo)) ?? 0 })));
        loaded = cursors.reduce((sum, c) => sum + c.at, 0);
        for (const uf of UF_SIGLAS) {
          const mine = cursors.filter((c) => c.uf === uf);
          if (!firstByUf.has(uf) && mine.some((c) => c.at > 0)) firstByUf.set(uf, seconds());
          if (!caughtUpByUf.has(uf) && mine.every((c) => c.at >= c.max)) caughtUpByUf.set(uf, seconds());
        }
        if (caughtUpByUf.size === UF_SIGLAS.length) return;
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();

    let runs = 0;
    while (caughtUpByUf.size < UF_SIGLAS.length && seconds() < MAX_S) {
      await machine.execute({ trigger: 'bench' });
      runs += 1;
      // Let the watcher see the run's last cursors before deciding on another run.
      await new Promise((r) => setTimeout(r, 1100));
    }
    done = true;
    await watch;
    const total = seconds();
    const firstAll = firstByUf.size === UF_SIGLAS.length ? Math.max(...firstByUf.values()) : null;
    const caughtUp = caughtUpByUf.size === UF_SIGLAS.length ? Math.max(...caughtUpByUf.values()) : null;
    return {
      backlog: { SP, others: OTHERS, documents },
      budgetS: Number(BUDGET_S),
      runs,
      firstDocumentAllUfsS: firstAll,
      firstDocumentWithinSchedulePeriod: firstAll !== null && firstAll <= 300,
      caughtUpS: caughtUp,
      documentsLoaded: loaded,
      documentsPerSecond: Math.round((loaded / total) * 10) / 10,
      caughtUpByUfS: Object.fromEntries([...caughtUpByUf].sort((a, b) => a[1] - b[1])),
    };
  } finally {
    await twin.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = await sefazCatchUp(root);
  const file = join(root, 'bench/results/volume.json');
  const previous = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...previous, sefazCatchUp: result }, null, 2) + '\n');
  console.log(JSON.stringify(result));
}
