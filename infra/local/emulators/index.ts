/**
 * Starts the twin's emulators together, provisions the topology in them, and says how to reach them.
 *
 * `env` is the whole contract with the processes that talk to the emulators (our handlers, tests,
 * scripts): the standard AWS SDK variables (service-specific AWS_ENDPOINT_URL_* are read by SDK v3
 * itself) plus the resource names the functions read. Pointing the twin at LocalStack or AWS is then
 * a matter of a different `env`, never of code.
 */
import { startFauxqs } from './aws';
import { startDynamoDbLocal } from './dynamodb';
import { startMailCapture, type MailCapture } from './mail';
import { provision, type ProvisionedResources } from './provision';

export { PrerequisiteError } from './errors';
export { assertPortFree, defaultPorts, freePort, portEnvVars } from './ports';
export { ensureLocalPki, type LocalPki } from './tls';
export type { CapturedMail, MailCapture } from './mail';
export type { ProvisionedResources } from './provision';

export interface EmulatorPorts {
  dynamodb: number;
  /** fauxqs: S3 and SQS. */
  aws: number;
  mail: number;
}

export interface StartEmulatorsOptions {
  /** The twin's data folder (`.data/` in the repository, a temporary folder in tests). */
  dataDir: string;
  ports: EmulatorPorts;
  /** DynamoDB Local's tables in memory (throw-away data: the test runs); see DynamoDbLocalOptions. */
  dynamodbInMemory?: boolean;
}

export interface Emulators {
  endpoints: { dynamodb: string; aws: string; mail: string };
  resources: ProvisionedResources;
  /** The captured e-mail (also readable over HTTP at endpoints.mail). */
  mail: Pick<MailCapture, 'list'>;
  /** What a process needs in its environment to use these emulators. */
  env: Record<string, string>;
  /** Stops every emulator; safe to call more than once. */
  stop(): Promise<void>;
}

interface Stoppable {
  stop(): Promise<void>;
}

export async function startEmulators(options: StartEmulatorsOptions): Promise<Emulators> {
  const { dataDir, ports } = options;
  // In parallel: the JVM takes seconds to start, the others milliseconds.
  const started = await Promise.allSettled([
    startDynamoDbLocal({ dataDir, port: ports.dynamodb, inMemory: options.dynamodbInMemory ?? false }),
    startFauxqs({ dataDir, port: ports.aws }),
    startMailCapture({ dataDir, port: ports.mail }),
  ] as const);
  const running = started.flatMap((r): Stoppable[] => (r.status === 'fulfilled' ? [r.value] : []));
  const stopAll = once(() => Promise.all(running.map((e) => e.stop())).then(() => undefined));

  const [dynamodb, aws, mail] = started;
  if (dynamodb.status === 'rejected' || aws.status === 'rejected' || mail.status === 'rejected') {
    await stopAll();
    // The first failure is the one to report (a PrerequisiteError keeps its one-sentence message).
    throw firstReason(started);
  }

  const endpoints = { dynamodb: dynamodb.value.endpoint, aws: aws.value.endpoint, mail: mail.value.url };
  let resources: ProvisionedResources;
  try {
    resources = await provision({ dynamodbEndpoint: endpoints.dynamodb, awsEndpoint: endpoints.aws });
  } catch (error) {
    await stopAll();
    throw error;
  }

  return {
    endpoints,
    resources,
    mail: { list: (to) => mail.value.list(to) },
    env: emulatorEnv(endpoints, resources),
    stop: stopAll,
  };
}

export function emulatorEnv(
  endpoints: Emulators['endpoints'],
  resources: ProvisionedResources,
): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    // Placeholders: the emulators accept any credentials, and real ones must never reach them.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.aws,
    AWS_ENDPOINT_URL_SQS: endpoints.aws,
    AWS_ENDPOINT_URL_SESV2: endpoints.mail,
    TABLE_NAME: resources.tableName,
    IDEMPOTENCY_TABLE_NAME: resources.idempotencyTableName,
    DOCUMENTS_BUCKET: resources.documentsBucket,
    ARQUIVO_BUCKET: resources.arquivoBucket,
    WEBHOOK_QUEUE_URL: resources.webhookQueueUrl,
    WEBHOOK_DLQ_URL: resources.webhookDlqUrl,
    DOCUMENTOS_QUEUE_URL: resources.documentosQueueUrl,
    DOCUMENTOS_DLQ_URL: resources.documentosDlqUrl,
    // fauxqs serves buckets by path (http://host:port/bucket/key): `bucket.127.0.0.1` cannot resolve.
    PLAC_S3_FORCE_PATH_STYLE: '1',
  };
}

function firstReason(results: readonly PromiseSettledResult<unknown>[]): unknown {
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  return failed?.reason;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => (result ??= fn());
}
