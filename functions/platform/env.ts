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
  version: '2.10.0',
};
