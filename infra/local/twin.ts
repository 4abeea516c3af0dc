/**
 * The local twin of the AWS topology, started as one unit: emulators (DynamoDB Local, fauxqs for S3
 * and SQS, the SES capture), the resources provisioned from infra/lib/topology.ts, the demo data,
 * the SQS consumers, the state machines, the schedules, the Sefaz distribution simulator and the
 * gateway with the portal.
 * `npm start` (start.ts) and the integration tests (tests/setup) both start it through here.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  documentosQueue,
  faturamentoStateMachine,
  lcrRefreshStateMachine,
  referenceLoadStateMachine,
  relatorioStateMachine,
  repasseStateMachine,
  sefazLoadStateMachine,
  retornoStateMachine,
  arquivoStateMachine,
  totalTransportadorasStateMachine,
  webhookDispatcherFunction,
  webhookProducerFunction,
  webhookQueue,
} from '../lib/topology';
import { startEmulators } from './emulators';
import { assertPortFree } from './emulators/ports';
import { localStateMachineArn, startStepFunctionsEndpoint } from './emulators/step-functions';
import { ensureTestIcp, TEST_CRL_FILES } from './emulators/test-pki';
import { ensureLocalPki } from './emulators/tls';
import { SEFAZ_CLIENT_COMPANY, startSefazSimulator, type SefazFault, type SefazSimulator } from './sefaz/simulator';
import type { Uf } from '@plac/shared/domain';
import { DEMO_CLIENTES, DEMO_EMISSOR } from './demo-data';
import { startGateway } from './gateway';
import { localFunction } from './lambda-runtime';
import { startQueueConsumer, type Consumer } from './queue-consumers';
import { startSchedule, type LocalSchedule } from './schedules';
import { seedDemoData } from './seed';
import { localStateMachines, type LocalStateMachine } from './state-machines';
import { distWebServer, viteWebServer, type WebServer } from './web-server';

export interface TwinOptions {
  dataDir: string;
  host?: string;
  ports: { http: number; https: number; dynamodb: number; aws: number; mail: number; sefaz: number };
  /** `dev`: Vite with hot reload; `dist`: the built portal, as CloudFront serves it; `none`: API only. */
  web: 'dev' | 'dist' | 'none';
  webDir: string;
  /** The built portal served with `web: 'dist'`; `<webDir>/dist` unless said (parallel builds use their own). */
  webDistDir?: string | undefined;
  accessLog?: boolean;
  /** Seconds between a failed webhook delivery's retries (tests shorten the 1 min → 6 h schedule). */
  sqsRetryDelaySeconds?: number;
  /** Concurrent consumers of the webhook queue (Lambda's concurrent batches); 1 unless said. */
  webhookConsumers?: number;
  /**
   * The functions' DynamoDB endpoint, when not the emulator's own: a recording relay in front of it
   * (bench/partitions.ts counts what each request puts on each partition).
   */
  dynamodbEndpoint?: string;
  /** DynamoDB Local's tables in memory, gone when the twin stops: for throw-away data folders (tests). */
  dynamodbInMemory?: boolean;
  schedules?: boolean;
  /** The Sefaz simulator's options (docs/sefaz-simulator.md); by default 300 documents per UF, one new per UF every 5 s. */
  sefaz?: {
    seed?: number;
    backlog?: number;
    /** Volume mode: the NF-e backlog of given UFs (e.g. `{ SP: 100_000 }`). */
    backlogs?: Partial<Record<Uf, number>>;
    trickle?: { intervalMs: number; perTick?: number } | false;
    faults?: Partial<Record<Uf, SefazFault>>;
    stallHours?: Partial<Record<Uf, number>>;
  };
}

export interface Twin {
  url: string;
  tlsUrl: string;
  mailUrl: string;
  /** The Sefaz distribution simulator (mutual TLS), e.g. https://localhost:8443. */
  sefazUrl: string;
  sefaz: SefazSimulator;
  env: Record<string, string>;
  stateMachines: Map<string, LocalStateMachine>;
  stop(): Promise<void>;
}

export async function startTwin(options: TwinOptions): Promise<Twin> {
  const host = options.host ?? '127.0.0.1';
  const { ports } = options;
  await assertPortFree(ports.http, 'the portal', 'PLAC_PORT');
  await assertPortFree(ports.https, 'the mutual-TLS API', 'PLAC_TLS_PORT');
  await assertPortFree(ports.sefaz, 'the Sefaz simulator', 'PLAC_SEFAZ_PORT');
  await mkdir(options.dataDir, { recursive: true });

  const stops: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn();
    stops.length = 0;
  };
  try {
    const emulators = await startEmulators({
      dataDir: options.dataDir,
      ports: { dynamodb: ports.dynamodb, aws: ports.aws, mail: ports.mail },
      dynamodbInMemory: options.dynamodbInMemory ?? false,
    });
    stops.push(() => emulators.stop());

    const portalUrl = `http://localhost:${ports.http}`;
    const mtlsUrl = `https://localhost:${ports.https}`;
    const testIcp = await ensureTestIcp(options.dataDir, [
      ...DEMO_CLIENTES.map((c) => ({ cnpj: c.cnpj, razaoSocial: c.razaoSocial.toUpperCase() })),
      { cnpj: DEMO_EMISSOR.cnpj, razaoSocial: DEMO_EMISSOR.razaoSocial.toUpperCase() },
      // The platform's own e-CNPJ, which it presents to the Sefaz simulator.
      SEFAZ_CLIENT_COMPANY,
      // Its certificates name the CRLs that the gateway serves at /_pki (revocation: functions/auth/revocation.ts).
    ], { crlBaseUrl: `${portalUrl}/_pki` });
    const pki = await ensureLocalPki(options.dataDir);
    const sefaz = await startSefazSimulator({
      port: ports.sefaz,
      host,
      dataDir: options.dataDir,
      ...options.sefaz,
      // The server certificate of the local CA; callers chain to the local CA or the test ICP-Brasil.
      tls: { key: pki.serverKeyPem, cert: pki.serverCertPem, ca: [pki.caCertPem, testIcp.rootPem, testIcp.intermediatePem] },
    });
    stops.push(() => sefaz.stop());
    const sefazCertificate = testIcp.certificates[SEFAZ_CLIENT_COMPANY.cnpj]!;
    const env: Record<string, string> = {
      ...emulators.env,
      ...(options.dynamodbEndpoint ? { AWS_ENDPOINT_URL_DYNAMODB: options.dynamodbEndpoint } : {}),
      APP_STAGE: 'local',
      PORTAL_URL: portalUrl,
      MTLS_BASE_URL: mtlsUrl,
      MAIL_FROM: 'PLAC Fat-e <nao-responda@plac.local>',
      // The test ICP-Brasil hierarchy of this twin: trusted only because APP_STAGE is local.
      PLAC_LOCAL_TRUST_DIR: testIcp.trustDir,
      // Presigned URLs on the portal's origin, relayed to the S3 emulator by the gateway.
      PLAC_S3_PUBLIC_ENDPOINT: `${portalUrl}/_s3`,
      TOKEN_SECRET: await localSecret(options.dataDir),
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
      POWERTOOLS_SERVICE_NAME: 'plac-local',
      PLAC_WEBHOOK_ALLOW_LOCAL: '1',
      // Tests shorten the webhook retry schedule (1 minute doubling to 6 hours) to seconds.
      ...(options.sqsRetryDelaySeconds !== undefined
        ? { WEBHOOK_ESPERA_BASE_S: String(options.sqsRetryDelaySeconds), WEBHOOK_ESPERA_MAXIMA_S: String(options.sqsRetryDelaySeconds) }
        : {}),
      // The Sefaz distribution simulator: its URL, the CA of its server certificate, the client certificate.
      PLAC_SEFAZ_URL: sefaz.url,
      // The twin is a homologação stage: the simulator's documents are tpAmb 2, the fixtures' tpAmb 1 (docs/sefaz-simulator.md).
      PLAC_SEFAZ_TPAMB: '2',
      // The service asks an hour's wait after a caught-up answer (functions/fate/carga.ts); the twin asks
      // again at the next load, so a file dropped in the simulator's inbox shows within minutes.
      PLAC_SEFAZ_ESPERA_EM_DIA_MIN: '0',
      PLAC_SEFAZ_CA_FILE: join(options.dataDir, 'pki', 'ca.cert.pem'),
      PLAC_SEFAZ_CERT_FILE: sefazCertificate.certPath,
      PLAC_SEFAZ_KEY_FILE: sefazCertificate.keyPath,
    };
    // The handlers run in this process, so they read the same environment the CDK stack gives them.
    Object.assign(process.env, env);

    const stateMachines = localStateMachines();
    // Step Functions' API for the functions that start a machine (the admin's billing run).
    const machinesByLocalName = new Map(
      [
        referenceLoadStateMachine,
        sefazLoadStateMachine,
        faturamentoStateMachine,
        repasseStateMachine,
        retornoStateMachine,
        relatorioStateMachine,
        totalTransportadorasStateMachine,
        arquivoStateMachine,
        lcrRefreshStateMachine,
      ].flatMap((m) => {
        const machine = stateMachines.get(m.id);
        return machine ? [[m.localName, machine] as const] : [];
      }),
    );
    const stepFunctions = await startStepFunctionsEndpoint(machinesByLocalName);
    stops.push(() => stepFunctions.stop());
    env.AWS_ENDPOINT_URL_SFN = stepFunctions.url;
    env.FATURAMENTO_STATE_MACHINE_ARN = localStateMachineArn(faturamentoStateMachine.localName);
    env.REPASSE_STATE_MACHINE_ARN = localStateMachineArn(repasseStateMachine.localName);
    env.RETORNO_STATE_MACHINE_ARN = localStateMachineArn(retornoStateMachine.localName);
    env.RELATORIO_STATE_MACHINE_ARN = localStateMachineArn(relatorioStateMachine.localName);
    env.TOTAL_TRANSPORTADORAS_STATE_MACHINE_ARN = localStateMachineArn(totalTransportadorasStateMachine.localName);
    Object.assign(process.env, env);
    await seedDemoData({ stateMachines });

    const consumers: Consumer[] = [
      // As many concurrent batches as Lambda would run (one by default; the webhook load test asks more).
      ...Array.from({ length: options.webhookConsumers ?? 1 }, () =>
        startQueueConsumer({
          queueUrl: emulators.resources.webhookQueueUrl,
          queueArn: `arn:aws:sqs:${env.AWS_REGION ?? 'us-east-1'}:000000000000:${webhookQueue.localName}`,
          // The dispatcher sets a failed delivery's own wait (functions/webhooks/espera.ts), as in AWS.
          invoke: localFunction(webhookDispatcherFunction),
        }),
      ),
      // The producers: the loader's domain events become webhook deliveries.
      startQueueConsumer({
        queueUrl: emulators.resources.documentosQueueUrl,
        queueArn: `arn:aws:sqs:${env.AWS_REGION ?? 'us-east-1'}:000000000000:${documentosQueue.localName}`,
        invoke: localFunction(webhookProducerFunction),
        ...(options.sqsRetryDelaySeconds !== undefined ? { retryDelaySeconds: options.sqsRetryDelaySeconds } : {}),
      }),
    ];
    stops.push(() => Promise.all(consumers.map((c) => c.stop())).then(() => undefined));

    if (options.schedules !== false) {
      const referenceLoad = stateMachines.get(referenceLoadStateMachine.id);
      const schedules: LocalSchedule[] = referenceLoad
        ? [startSchedule(referenceLoadStateMachine.id, referenceLoadStateMachine.schedule, () => referenceLoad.execute({}))]
        : [];
      const sefazLoad = stateMachines.get(sefazLoadStateMachine.id);
      if (sefazLoad) {
        // One Sefaz load at a time: the first starts now (the demo's documents in the first minute),
        // the schedule's next ones only once it has finished.
        let running: Promise<unknown> | null = null;
        const load = () => (running ??= sefazLoad.execute({ trigger: 'schedule' }).finally(() => (running = null)));
        schedules.push(startSchedule(sefazLoadStateMachine.id, sefazLoadStateMachine.schedule, load));
        load().catch((error: unknown) => console.error('[schedule] first Sefaz load failed:', (error as Error).message));
      }
      // Started through the Step Functions endpoint, as EventBridge Scheduler starts it in AWS: the run
      // records its execution's name, and an admin's start judges the month's lock by it (DescribeExecution).
      if (stateMachines.has(faturamentoStateMachine.id)) {
        schedules.push(startSchedule(faturamentoStateMachine.id, faturamentoStateMachine.schedule, () => stepFunctions.start(faturamentoStateMachine.localName, { trigger: 'schedule' })));
      }
      const lcrRefresh = stateMachines.get(lcrRefreshStateMachine.id);
      if (lcrRefresh) {
        // The CRLs a certificate check registered, kept for every container (functions/auth/lcr-atualizacao.ts); one run at a time.
        let running: Promise<unknown> | null = null;
        const refresh = () => (running ??= lcrRefresh.execute({ trigger: 'schedule' }).finally(() => (running = null)));
        schedules.push(startSchedule(lcrRefreshStateMachine.id, lcrRefreshStateMachine.schedule, refresh));
      }
      if (stateMachines.has(arquivoStateMachine.id)) {
        schedules.push(startSchedule(arquivoStateMachine.id, arquivoStateMachine.schedule, () => stepFunctions.start(arquivoStateMachine.localName, { trigger: 'schedule' })));
      }
      stops.push(() => schedules.forEach((s) => s.stop()));
    }

    let web: WebServer | undefined;
    if (options.web === 'dist') web = distWebServer(options.webDistDir ?? join(options.webDir, 'dist'));
    if (options.web === 'dev') web = await viteWebServer(options.webDir);
    if (web?.close) stops.push(() => web.close!());
    const gateway = await startGateway({
      host,
      port: ports.http,
      // The test ICP root in `ca` lets browsers offer the matching client certificates.
      tls: { port: ports.https, key: pki.serverKeyPem, cert: pki.serverCertPem, ca: [pki.caCertPem, testIcp.rootPem] },
      corsOrigins: [portalUrl, `http://127.0.0.1:${ports.http}`],
      // The relay checks presigned URLs with the key the functions sign them with.
      crl: { dir: testIcp.crl.dir, files: Object.values(TEST_CRL_FILES) },
      s3: {
        endpoint: emulators.env.AWS_ENDPOINT_URL_S3!,
        region: emulators.env.AWS_REGION!,
        credentials: { accessKeyId: emulators.env.AWS_ACCESS_KEY_ID!, secretAccessKey: emulators.env.AWS_SECRET_ACCESS_KEY! },
      },
      ...(web ? { web } : {}),
      accessLog: options.accessLog ?? false,
    });
    stops.push(() => gateway.stop());

    // For `npm run reset` (is a twin running?) and `npm run invoke` (the twin's environment).
    const pidFile = join(options.dataDir, 'twin.pid');
    const envFile = join(options.dataDir, 'twin-env.json');
    await writeFile(pidFile, String(process.pid));
    await writeFile(envFile, JSON.stringify(env, null, 2), { mode: 0o600 });
    stops.unshift(() => Promise.all([rm(pidFile, { force: true }), rm(envFile, { force: true })]).then(() => undefined));

    return { url: gateway.url, tlsUrl: gateway.tlsUrl!, mailUrl: emulators.endpoints.mail, sefazUrl: sefaz.url, sefaz, env, stateMachines, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The token-signing secret of this twin: random, kept with its data, never used outside it. */
async function localSecret(dataDir: string): Promise<string> {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const saved = JSON.parse(await readFile(file, 'utf8')) as { tokenSecret?: string };
    if (saved.tokenSecret) return saved.tokenSecret;
  }
  const tokenSecret = randomBytes(48).toString('base64url');
  await writeFile(file, JSON.stringify({ tokenSecret }, null, 2), { mode: 0o600 });
  return tokenSecret;
}
