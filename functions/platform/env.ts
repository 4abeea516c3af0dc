/**
 * Configuration comes from the environment (set by the CDK stack in AWS, by the twin locally).
 * Read lazily so that a module can be imported (tests, bundling) without every variable present.
 */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

export const config = {
  get tableName() {
    return env('TABLE_NAME');
  },
  get idempotencyTableName() {
    return env('IDEMPOTENCY_TABLE_NAME');
  },
  get documentsBucket() {
    return env('DOCUMENTS_BUCKET');
  },
  /** The evidence archive (issue 41): the archive job writes it, the evidence download reads it. */
  get arquivoBucket() {
    return env('ARQUIVO_BUCKET');
  },
  get webhookQueueUrl() {
    return env('WEBHOOK_QUEUE_URL');
  },
  /** The loader's domain events (one message per document newly stored), read by the webhook producers. */
  get documentosQueueUrl() {
    return env('DOCUMENTOS_QUEUE_URL');
  },
  /** `local` in the twin: enables development-only behaviour such as the debug-detail header. */
  get stage() {
    return process.env.APP_STAGE ?? 'prod';
  },
  /** Only an explicit APP_STAGE=local counts: a missing variable must never turn on local behaviour. */
  get isLocal() {
    return process.env.APP_STAGE === 'local';
  },
  /** Certificate revocation (functions/auth/revocation.ts): how long a fetched CRL is used before it is fetched again. */
  get crlMaxAgeSeconds() {
    return positive('CRL_MAX_AGE_SECONDS', 3600);
  },
  /** One deadline for all the distribution points of a CRL; within the HTTP functions' 10 s. */
  get crlFetchTimeoutMs() {
    return positive('CRL_FETCH_TIMEOUT_MS', 5000);
  },
  /** The largest CRL read (an ICP-Brasil CA's lists a few hundred thousand certificates). */
  get crlMaxBytes() {
    return positive('CRL_MAX_BYTES', 32 * 1024 * 1024);
  },
  version: '2.10.0',
};

/** A positive number from the environment, or the default when unset or not a positive number. */
function positive(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
