/**
 * The resources of the production topology as plain data, with no CDK import, so that the CDK stacks
 * (infra/lib) and the local twin (infra/local) create the same tables, buckets and queues and wire
 * the same functions. Change a resource here and both follow.
 */
import { contracts, httpContexts } from '@plac/shared/contracts';
import { isCreate } from '@plac/shared/contracts/define';

export const APP = 'plac';

/** Single-table design (docs/data-model.md). ElectroDB's generic key names. */
export const applicationTable = {
  id: 'ApplicationTable',
  localName: 'plac-app',
  partitionKey: 'pk',
  sortKey: 'sk',
  /**
   * What each index copies of an item (docs/data-model.md, "Index projections"): gsi1 and gsi2 every
   * attribute, as their lists show whole items; gsi3 the keys only, for look-ups that need no more than
   * the keys (the instalments: their copy is a third of a Fat-e's bytes when whole).
   */
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'KEYS_ONLY' },
  ],
  timeToLiveAttribute: 'expiresAt',
} as const;

/** Powertools idempotency records (https://docs.powertools.aws.dev: id partition key, expiration TTL). */
export const idempotencyTable = {
  id: 'IdempotencyTable',
  localName: 'plac-idempotency',
  partitionKey: 'id',
  timeToLiveAttribute: 'expiration',
} as const;

export const documentsBucket = { id: 'DocumentsBucket', localName: 'plac-documents' } as const;

/**
 * The evidence archive (issue 41, docs/arquivo.md): each client's month of request log, charged webhook
 * deliveries, prepaid debits and invoice lines as Parquet (shared/src/arquivo.ts), kept five years and
 * a month, read by Athena through the Glue tables and by the evidence download.
 */
export const arquivoBucket = { id: 'ArquivoBucket', localName: 'plac-arquivo' } as const;

/**
 * The Sefaz documents' raw XML in the documents bucket (functions/fate/service.ts `chaveXml`): kept five
 * years (the Fat-e's TTL) plus the month by which an object may outlive its Fat-e, then expired.
 */
export const SEFAZ_XML_PREFIX = 'sefaz';
export const SEFAZ_XML_RETENCAO_DIAS = 5 * 365 + 1 + 31;

/** Webhook deliveries: a message is tried maxReceiveCount times, then kept in the dead-letter queue. */
export const webhookQueue = {
  id: 'WebhookQueue',
  localName: 'plac-webhooks',
  visibilityTimeoutSeconds: 180, // at least 6× the dispatcher’s timeout, as AWS advises; a failed delivery sets its own wait
  maxReceiveCount: 13, // functions/webhooks/espera.ts: 12 waits of ≥ 26.5 h in all
  deadLetter: { id: 'WebhookDeadLetterQueue', localName: 'plac-webhooks-dlq', retentionDays: 14 },
} as const;

/**
 * Domain events of the Sefaz load: one message per document newly stored (a Fat-e, an event), read
 * by the webhook producers (functions/webhooks/produtores). A message that fails maxReceiveCount
 * times is kept in its dead-letter queue (docs/webhooks.md, "Producers").
 */
export const documentosQueue = {
  id: 'DocumentsQueue',
  localName: 'plac-documentos',
  visibilityTimeoutSeconds: 360, // at least 6× the producer's timeout
  maxReceiveCount: 5,
  deadLetter: { id: 'DocumentsDeadLetterQueue', localName: 'plac-documentos-dlq', retentionDays: 14 },
} as const;

export type Grant =
  | 'table:read'
  | 'table:write'
  | 'idempotency'
  | 'documents:read'
  | 'documents:write'
  | 'webhooks:send'
  /** Publish the loader's domain events on the documents queue (DOCUMENTOS_QUEUE_URL). */
  | 'documentos:publish'
  | 'mail:send'
  | 'tokens:verify'
  | 'tokens:sign'
  | 'referenceLoad:start'
  /** Delete objects of the documents bucket (an error document's XML is removed with it). */
  | 'documents:delete'
  /** Call the Sefaz distribution services with the platform's e-CNPJ (the secret and the URL). */
  | 'sefaz:call'
  /** Start the billing run's state machine (the admin's run of a month). */
  | 'faturamento:start'
  /** Start the repasse's state machine (the admin's simulation or definitive run of a month). */
  | 'repasse:start'
  /** Start the bank-return import's job (a file whose payments do not fit in the route's time). */
  | 'retorno:start'
  /** Start a report job (the consumption report, an invoice's detail ZIP): functions/consumo/relatorio-job.ts. */
  | 'relatorio:start'
  /** Start the job of the carrier report's filtered grand total: functions/consulta/total-transportadoras.ts. */
  | 'totalTransportadoras:start'
  /** Read the evidence archive (ARQUIVO_BUCKET): the evidence download reads a month's Parquet files. */
  | 'arquivo:read'
  /** Write and delete in the evidence archive: the archive job (functions/arquivo). */
  | 'arquivo:write';

export interface FunctionSpec {
  /** Construct id and the twin's name for it. */
  readonly id: string;
  /** Module under functions/, exporting `handler`. */
  readonly entry: string;
  readonly memoryMb: number;
  readonly timeoutSeconds: number;
  readonly grants: readonly Grant[];
  /**
   * Concurrent executions kept for this function alone (docs/operations.md, "Isolation"): what a client
   * waits on keeps running when a backlog elsewhere takes the account's executions. Also its ceiling.
   */
  readonly reservedConcurrency?: number;
  /** For a queue consumer: at most this many concurrent invocations from its queue (SQS maximum concurrency). */
  readonly queueMaxConcurrency?: number;
}

/**
 * Reserved concurrency of the functions a client waits on (issue 36, docs/operations.md "Isolation"):
 * sized by Little's law with room for bursts: executions = requests per second × seconds each. The
 * integrator's look-ups: 500/s at about 60 ms warm is 30, 100 covers a burst to the stage's 2,000 at
 * 50 ms; the logins and certificate logins (the Argon2id hash on a whole vCPU ~31 ms, CRL checks up to
 * ~300 ms) 20/s is 6 at most, 30 kept; the assignments 10. The account's default is 1,000, of which AWS keeps 100 unreserved: these 240 leave
 * 660 for everything else.
 */
const concorrenciaReservada: Record<string, number> = { consulta: 100, auth: 30, cessao: 10 };

/** Grants per HTTP context; a context not listed gets read access to the table only. */
const httpGrants: Record<string, readonly Grant[]> = {
  platform: ['table:read'],
  dominio: ['table:read'],
  auth: ['table:read', 'table:write', 'mail:send', 'tokens:sign', 'documents:read'],
  users: ['table:read', 'table:write', 'mail:send', 'documents:read', 'documents:write'],
  // The onboarding: creates the client and its first user, e-mails the registration and the access.
  cadastro: ['table:read', 'table:write', 'mail:send'],
  clientes: ['table:read', 'table:write'],
  instituicoes: ['table:read', 'table:write', 'documents:read', 'documents:write'],
  servicos: ['table:read', 'table:write'],
  // documentos:publish: the batch import stores documents too, and publishes their domain events.
  fate: ['table:read', 'table:write', 'documents:read', 'documents:write', 'documents:delete', 'sefaz:call', 'documentos:publish'],
  // totalTransportadoras:start: a filter's grand total of the carrier report is a job (functions/consulta/total-transportadoras.ts).
  consulta: ['table:read', 'table:write', 'documents:read', 'totalTransportadoras:start'],
  // relatorio:start: the consumption report is a job (functions/consumo/relatorio-job.ts).
  consumo: ['table:read', 'table:write', 'documents:read', 'documents:write', 'relatorio:start'],
  degustacao: ['table:read', 'table:write', 'mail:send'],
  tarifas: ['table:read', 'table:write'],
  // Sharing groups, banks and the repasse's transfer orders.
  rateio: ['table:read', 'table:write', 'repasse:start'],
  consentimento: ['table:read', 'table:write'],
  // documents: the tax notes (uploaded, checked, replaced: the replaced one deleted) and the detail ZIP.
  // retorno:start: a bank return file too big for the route goes on as a job (functions/faturamento/retorno);
  // relatorio:start: the invoice's detail ZIP is a report job (functions/consumo/relatorio-job.ts).
  faturamento: ['table:read', 'table:write', 'faturamento:start', 'documents:read', 'documents:write', 'documents:delete', 'retorno:start', 'relatorio:start'],
  // The delivery log (read; a replay sets a delivery back to pending) and the replay's queue.
  webhooks: ['table:read', 'table:write', 'webhooks:send'],
  // The monitored keys and their metering ('Monitoramento de Documentos').
  monitoramento: ['table:read', 'table:write'],
  // Reservations, their DAEs (the PDF written to and presigned from the documents bucket), the account.
  prepago: ['table:read', 'table:write', 'documents:read', 'documents:write'],
  // The assignment registry (conditional creates) and its metering ('Registro de Cessão').
  cessao: ['table:read', 'table:write'],
};

/**
 * Memory and timeout of a context's function, from what its routes do (issue 26 item 6). API Gateway's
 * HTTP API answers 503 after 30 s whatever the function's timeout, so no route may need more than 29 s.
 * The default fits a route that reads one page by key and writes a few items: 512 MB, 10 s.
 */
const httpLimits: Record<string, { memoryMb: number; timeoutSeconds: number }> = {
  // Reference data (UFs, municipalities, services) and the session check: small keyed reads.
  platform: { memoryMb: 256, timeoutSeconds: 5 },
  dominio: { memoryMb: 256, timeoutSeconds: 5 },
  // The bank return import matches up to 20,000 payments in the route (32 at a time, functions/faturamento/
  // retorno/service.ts); the invoice and DAE PDFs are drawn in memory.
  faturamento: { memoryMb: 1024, timeoutSeconds: 29 },
  // The batch import waits on one Sefaz distribution call (20 s at most, functions/fate/distribuicao.ts).
  fate: { memoryMb: 512, timeoutSeconds: 29 },
  // The CSV batch look-ups: up to 50 keys read and metered per request.
  consulta: { memoryMb: 1024, timeoutSeconds: 15 },
  // Every login hashes a password (Argon2id at 19 MiB, functions/platform/passwords.ts: ~31 ms of one
  // core, and as long for an unknown e-mail, on purpose). Lambda gives a function CPU in proportion to
  // its memory, a whole vCPU at 1,769 MB: at 512 MB the hash took about 3.5 times as long. CPU-bound, a login
  // costs about the same GB-seconds at either size (issue 39: the logins are waited on).
  auth: { memoryMb: 1769, timeoutSeconds: 10 },
};

/** Whether a context has a create route (POST answering 201): its function keeps Idempotency-Key records. */
const criaRecursos = (context: string) => contracts.some((c) => c.context === context && isCreate(c));

/** One Lambda per bounded context that serves HTTP routes (derived from the contract table). */
export const httpFunctions: readonly FunctionSpec[] = httpContexts.map((context) => ({
  id: `${pascal(context)}Api`,
  entry: `${context}/handler.ts`,
  ...(httpLimits[context] ?? { memoryMb: 512, timeoutSeconds: 10 }),
  // Every HTTP function may answer with a refreshed token (sliding sessions), so every one signs; one
  // whose context creates (a 201 POST) keeps the Idempotency-Key records (functions/platform/idempotencia.ts).
  grants: [...new Set<Grant>([...(httpGrants[context] ?? ['table:read']), 'tokens:sign', ...(criaRecursos(context) ? (['idempotency'] as const) : [])])],
  ...(concorrenciaReservada[context] ? { reservedConcurrency: concorrenciaReservada[context] } : {}),
}));

export const authorizerFunction: FunctionSpec = {
  id: 'Authorizer',
  entry: 'platform/auth/authorizer.ts',
  memoryMb: 256,
  timeoutSeconds: 5,
  // Verifies the token and that its session is still open.
  grants: ['tokens:verify', 'table:read'],
  // Every portal request and every integrator route with a session goes through it: ~1,000/s at ~30 ms
  // is 30; 100 kept (docs/operations.md "Isolation").
  reservedConcurrency: 100,
};

/** Consumes the webhook queue with partial batch failures. */
export const webhookDispatcherFunction: FunctionSpec = {
  id: 'WebhookDispatcher',
  entry: 'webhooks/dispatcher.ts',
  memoryMb: 256,
  timeoutSeconds: 30,
  // tokens:sign: the key the clients' webhook passwords and signing secrets are encrypted under
  // (read at send time); mail:send: the notice of a paused endpoint; webhooks:send: the resume and
  // replay-all jobs run in steps on this queue and queue their batches (functions/webhooks/jobs.ts).
  grants: ['table:read', 'table:write', 'tokens:sign', 'mail:send', 'webhooks:send'],
  // 5,000 deliveries/s platform-wide, 10 per batch posted at once, ~300 ms a post: ~150 batches at once;
  // a backlog or a resume never takes more than 200 of the account's executions (docs/operations.md).
  queueMaxConcurrency: 200,
};

/**
 * The webhook producers: consume the documents queue (partial batch failures) and put one message per
 * delivery on the webhook queue. Reads the monitored keys, the consents and the clients' configurations.
 */
export const webhookProducerFunction: FunctionSpec = {
  id: 'WebhookProducer',
  entry: 'webhooks/produtores/handler.ts',
  memoryMb: 256,
  timeoutSeconds: 60,
  grants: ['table:read', 'webhooks:send'],
  // 600 documents/s ingested, 10 per batch, ~100 ms a batch: ~6 at once; 20 at most.
  queueMaxConcurrency: 20,
};

/** The reference-data load: a state machine that fans out over the 27 UFs (Map) with Retry. */
export const referenceLoadFunction: FunctionSpec = {
  id: 'ReferenceLoadTask',
  entry: 'dominio/reference-load.ts',
  memoryMb: 512,
  timeoutSeconds: 60,
  grants: ['table:read', 'table:write'],
};

export const referenceLoadStateMachine = {
  id: 'ReferenceLoad',
  localName: 'plac-reference-load',
  /** EventBridge Scheduler: monthly refresh of the municipality list (01:00 on the 1st, Bahia time). */
  schedule: { expression: 'cron(0 1 1 * ? *)', timezone: 'America/Bahia' },
} as const;

/** The Sefaz load: a state machine that maps over the active Sefaz's streams and pulls each one's NSU sequence. */
export const sefazLoadFunction: FunctionSpec = {
  id: 'SefazLoadTask',
  entry: 'fate/loader.ts',
  memoryMb: 1024,
  // One UF's stream per invocation: calls of 50 documents for a 240 s budget (PLAC_SEFAZ_ORCAMENTO_S,
  // functions/fate/carga.ts), then the last call (20 s at most) and its ingestion.
  timeoutSeconds: 300,
  grants: ['table:read', 'table:write', 'documents:read', 'documents:write', 'sefaz:call', 'documentos:publish'],
};

export const sefazLoadStateMachine = {
  id: 'SefazLoad',
  localName: 'plac-sefaz-load',
  /** EventBridge Scheduler: every 5 minutes. */
  schedule: { expression: 'cron(0/5 * * * ? *)', timezone: 'America/Bahia' },
} as const;

/** The billing run's task: ListShards, FaturarShard (one shard of clients), Summarise, MarkFailed. */
export const faturamentoFunction: FunctionSpec = {
  id: 'FaturamentoTask',
  entry: 'faturamento/run.ts',
  memoryMb: 1024,
  // A shard is at most 100 clients (functions/faturamento/regras.ts): one Query and one write each.
  timeoutSeconds: 300,
  // relatorio:start: each invoice's detail ZIP is queued as a report job when its shard is billed.
  grants: ['table:read', 'table:write', 'relatorio:start'],
};

export const faturamentoStateMachine = {
  id: 'Faturamento',
  localName: 'plac-faturamento',
  /** EventBridge Scheduler: 02:00 on the 1st of each month, Bahia time, for the month before. */
  schedule: { expression: 'cron(0 2 1 * ? *)', timezone: 'America/Bahia' },
} as const;

/**
 * The report job's task (functions/consumo/relatorio-run.ts): one step reads at most
 * PLAC_RELATORIO_PAGINAS_POR_PASSO pages of the request log and holds at most one part of the file
 * (8 MiB) and one page: its memory does not grow with the month.
 */
export const relatorioFunction: FunctionSpec = {
  id: 'RelatorioTask',
  entry: 'consumo/relatorio-run.ts',
  memoryMb: 512,
  timeoutSeconds: 120,
  // documents:delete: a step's pending bytes (less than one part) are removed once the next step used them.
  // arquivo:read: a past month's evidence is written from the archive's Parquet files.
  grants: ['table:read', 'table:write', 'documents:read', 'documents:write', 'documents:delete', 'arquivo:read'],
};

export const relatorioStateMachine = {
  id: 'Relatorio',
  localName: 'plac-relatorio',
} as const;

/**
 * The carrier report's filtered grand total (functions/consulta/total-transportadoras-run.ts): one step
 * reads at most 4,000 items of the carrier registry and the month counters of at most 400 matching
 * carriers (by key, functions/fate/transportadores-store.ts `totaisDosTransportadores`): seconds.
 */
export const totalTransportadorasFunction: FunctionSpec = {
  id: 'TotalTransportadorasTask',
  entry: 'consulta/total-transportadoras-run.ts',
  memoryMb: 512,
  timeoutSeconds: 120,
  grants: ['table:read', 'table:write'],
};

export const totalTransportadorasStateMachine = {
  id: 'TotalTransportadoras',
  localName: 'plac-total-transportadoras',
} as const;

/** The repasse's task: Preparar, Distribuir, MarcarFalha (functions/rateio/run.ts). */
export const repasseFunction: FunctionSpec = {
  id: 'RepasseTask',
  entry: 'rateio/run.ts',
  memoryMb: 1024,
  // A month's paid invoices: one Query, the shares in memory, one write per invoice.
  timeoutSeconds: 300,
  grants: ['table:read', 'table:write'],
};

/** Writes the banks and the SEFAZ participants that are absent (functions/grupos-rateio/semente.ts), after each deploy. */
export const rateioSeedFunction: FunctionSpec = {
  id: 'RateioSeed',
  entry: 'grupos-rateio/semente.ts',
  memoryMb: 512,
  timeoutSeconds: 300,
  grants: ['table:read', 'table:write'],
};

/**
 * The bank-return import's job (functions/faturamento/retorno/run.ts): the payments the route had no
 * time for, 500 at a time, until the file is done. Reads the file the route kept in the documents bucket;
 * settles prepaid reservations' DAEs too (the prepaid context's table items).
 */
export const retornoFunction: FunctionSpec = {
  id: 'RetornoTask',
  entry: 'faturamento/retorno/run.ts',
  memoryMb: 1024,
  // A step stops starting batches after 240 s (functions/faturamento/retorno/run.ts) and finishes the one it is in.
  timeoutSeconds: 300,
  grants: ['table:read', 'table:write', 'documents:read'],
};

export const retornoStateMachine = {
  id: 'RetornoBancario',
  localName: 'plac-retorno-bancario',
} as const;

/**
 * The archive job's task (functions/arquivo/run.ts): one step writes at most one Parquet part (up to
 * PLAC_ARQUIVO_LINHAS_POR_PARTE rows, read a page at a time): its memory does not grow with the month.
 */
export const arquivoFunction: FunctionSpec = {
  id: 'ArquivoTask',
  entry: 'arquivo/run.ts',
  memoryMb: 1024,
  timeoutSeconds: 300,
  grants: ['table:read', 'table:write', 'arquivo:read', 'arquivo:write'],
};

export const arquivoStateMachine = {
  id: 'Arquivo',
  localName: 'plac-arquivo',
  /** EventBridge Scheduler: 03:00 on the 5th of each month, Bahia time, for the month before (billed on the 1st). */
  schedule: { expression: 'cron(0 3 5 * ? *)', timezone: 'America/Bahia' },
} as const;

export const repasseStateMachine = {
  id: 'Repasse',
  localName: 'plac-repasse',
} as const;

/**
 * Rotates the session signing key every SESSION_KEY_ROTATION_DAYS (functions/auth/rotacao-chave.ts),
 * called by Secrets Manager; its permissions on that one secret come with the rotation schedule
 * (api-stack.ts), so it has no grant of its own.
 */
export const sessionKeyRotationFunction: FunctionSpec = {
  id: 'SessionKeyRotation',
  entry: 'auth/rotacao-chave.ts',
  memoryMb: 256,
  timeoutSeconds: 30,
  grants: [],
};

/**
 * The CRLs kept for every container (functions/auth/lcr-atualizacao.ts): one task per registered CRL,
 * which downloads it from the CA (an ICP-Brasil CA's is up to tens of MB, hundreds of thousands of
 * entries), checks and walks it (1,024 MB: the bytes and the walk's strings; CPU with them), and writes
 * what changed since the CRL applied before (the first time, every entry: 25 per BatchWriteItem).
 */
export const lcrRefreshFunction: FunctionSpec = {
  id: 'LcrRefreshTask',
  entry: 'auth/lcr-refresh.ts',
  memoryMb: 1024,
  timeoutSeconds: 300,
  grants: ['table:read', 'table:write'],
};

export const lcrRefreshStateMachine = {
  id: 'LcrRefresh',
  localName: 'plac-lcr-refresh',
  /** EventBridge Scheduler: every 15 minutes (a request trusts a kept CRL for CRL_MAX_AGE_SECONDS, an hour, after the job last tried it). */
  schedule: { expression: 'cron(0/15 * * * ? *)', timezone: 'America/Bahia' },
} as const;

/** How often the session signing key is replaced; the previous key still verifies until the next rotation. */
export const SESSION_KEY_ROTATION_DAYS = 30;

export const allFunctions: readonly FunctionSpec[] = [
  ...httpFunctions,
  authorizerFunction,
  webhookDispatcherFunction,
  webhookProducerFunction,
  referenceLoadFunction,
  sefazLoadFunction,
  faturamentoFunction,
  repasseFunction,
  retornoFunction,
  rateioSeedFunction,
  relatorioFunction,
  totalTransportadorasFunction,
  arquivoFunction,
  sessionKeyRotationFunction,
  lcrRefreshFunction,
];

/**
 * `DominioApi` → `dominio-api`: the Powertools service name in logs, metrics and traces
 * (POWERTOOLS_SERVICE_NAME), set by the stack in AWS and by the twin's runner, `npm run invoke` and
 * the bench locally.
 */
export function serviceName(spec: Pick<FunctionSpec, 'id'>): string {
  return spec.id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

function pascal(s: string): string {
  return s.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/**
 * The header CloudFront adds to every request it forwards to the web API, with the value of the data
 * stack's OriginVerifySecret; the HTTP functions refuse a request on the execute-api host without it.
 * functions/platform/origin-verify.ts has the same name (a test keeps them equal).
 */
export const ORIGIN_VERIFY_HEADER = 'x-plac-origin-verify';
