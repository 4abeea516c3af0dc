/**
 * `npm start`: the whole portal on this machine, with demo data. Ports and folders come from the
 * environment (README, "Configuration"); Ctrl-C stops every part.
 */
import { fileURLToPath } from 'node:url';
import { PrerequisiteError } from './emulators/errors';
import { isUf, type Uf } from '@plac/shared/domain';
import { SEFAZ_FAULTS, type SefazFault } from './sefaz/simulator';
import { DEMO_SEFAZ } from './demo-data';
import { startTwin, type TwinOptions } from './twin';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const numberFrom = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`${name} must be a port number, not "${process.env[name]}".`);
    process.exit(1);
  }
  return value;
};

/**
 * The Sefaz simulator's settings from the environment (docs/sefaz-simulator.md): PLAC_SEFAZ_SEED,
 * PLAC_SEFAZ_BACKLOG, PLAC_SEFAZ_BACKLOGS (volume mode per UF: "SP=100000,RJ=20000"), PLAC_SEFAZ_TRICKLE_MS
 * (0 turns the trickle off), PLAC_SEFAZ_FAULTS ("BA=656,SP=stall").
 */
function sefazOptions(): NonNullable<TwinOptions['sefaz']> | undefined {
  const options: NonNullable<TwinOptions['sefaz']> = {};
  if (process.env.PLAC_SEFAZ_SEED) options.seed = Number(process.env.PLAC_SEFAZ_SEED);
  if (process.env.PLAC_SEFAZ_BACKLOG) options.backlog = Number(process.env.PLAC_SEFAZ_BACKLOG);
  if (process.env.PLAC_SEFAZ_TRICKLE_MS) {
    const ms = Number(process.env.PLAC_SEFAZ_TRICKLE_MS);
    options.trickle = ms > 0 ? { intervalMs: ms } : false;
  }
  if (process.env.PLAC_SEFAZ_BACKLOGS) {
    const backlogs: Partial<Record<Uf, number>> = {};
    for (const pair of process.env.PLAC_SEFAZ_BACKLOGS.split(',')) {
      const [uf, n] = pair.split('=').map((x) => x.trim());
      if (!uf || !isUf(uf) || !/^\d+$/.test(n ?? '')) {
        console.error(`PLAC_SEFAZ_BACKLOGS: "${pair}" is not UF=number.`);
        process.exit(1);
      }
      backlogs[uf] = Number(n);
    }
    options.backlogs = backlogs;
  }
  if (process.env.PLAC_SEFAZ_FAULTS) {
    const faults: Partial<Record<Uf, SefazFault>> = {};
    for (const pair of process.env.PLAC_SEFAZ_FAULTS.split(',')) {
      const [uf, fault] = pair.split('=').map((x) => x.trim());
      if (!uf || !isUf(uf) || !SEFAZ_FAULTS.includes(fault as SefazFault)) {
        console.error(`PLAC_SEFAZ_FAULTS: "${pair}" is not UF=fault (faults: ${SEFAZ_FAULTS.join(', ')}).`);
        process.exit(1);
      }
      faults[uf] = fault as SefazFault;
    }
    options.faults = faults;
  }
  // The demo's load situation (demo-data.ts) for whatever the environment leaves unset.
  return { ...DEMO_SEFAZ, ...options };
}

const majorNode = Number(process.versions.node.split('.')[0]);
if (majorNode < 22) {
  console.error(`Node ${process.versions.node} is too old: this project needs Node 24 (see .nvmrc).`);
  process.exit(1);
}

const started = performance.now();
try {
  const web = (process.env.PLAC_WEB ?? 'dev') as 'dev' | 'dist' | 'none';
  const twin = await startTwin({
    dataDir: process.env.PLAC_DATA_DIR ?? `${repo}.data`,
    host: process.env.PLAC_HOST ?? '127.0.0.1',
    ports: {
      http: numberFrom('PLAC_PORT', 3000),
      https: numberFrom('PLAC_TLS_PORT', 3443),
      dynamodb: numberFrom('PLAC_DYNAMODB_PORT', 8000),
      aws: numberFrom('PLAC_AWS_PORT', 4566),
      mail: numberFrom('PLAC_MAIL_PORT', 8025),
      sefaz: numberFrom('PLAC_SEFAZ_PORT', 8443),
    },
    web,
    webDir: `${repo}web`,
    // PLAC_WEB_DIST: another build folder than web/dist (e.g. `vite build --outDir /tmp/x` for a parallel e2e run).
    webDistDir: process.env.PLAC_WEB_DIST,
    accessLog: process.env.PLAC_ACCESS_LOG !== '0',
    // PLAC_SCHEDULES=0: no scheduled runs (the Sefaz loads, the monthly reference load).
    schedules: process.env.PLAC_SCHEDULES !== '0',
    sefaz: sefazOptions(),
    ...(process.env.PLAC_SQS_RETRY_DELAY ? { sqsRetryDelaySeconds: Number(process.env.PLAC_SQS_RETRY_DELAY) } : {}),
    // PLAC_DYNAMODB_MEMORY=1: the tables in DynamoDB Local's memory, gone at stop (the browser tests' throw-away twin).
    dynamodbInMemory: process.env.PLAC_DYNAMODB_MEMORY === '1',
  });
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping PLAC local…');
    await twin.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `PLAC local ready: portal ${twin.url}  api ${twin.url}/api/v1  docs ${twin.url}/api/docs  ` +
      `mTLS ${twin.tlsUrl}  sefaz ${twin.sefazUrl}  mail ${twin.mailUrl.replace('//127.0.0.1:', '//localhost:')}  (${seconds}s)`,
  );
} catch (error) {
  if (error instanceof PrerequisiteError) {
    console.error(error.message);
  } else {
    console.error('PLAC local could not start:', error);
  }
  process.exit(1);
}
