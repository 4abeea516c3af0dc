/**
 * Least privilege: each function gets exactly the grants its FunctionSpec lists (topology.ts), and
 * the environment variable that goes with a grant only when it has that grant (a function that may
 * not read the token secret is not told where it is).
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as ses from 'aws-cdk-lib/aws-ses';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions, type NagPackSuppression } from 'cdk-nag';
import type { Grant } from '../topology';

export interface GrantTargets {
  readonly table: dynamodb.ITable;
  readonly idempotencyTable: dynamodb.ITable;
  readonly documents: s3.IBucket;
  /** The evidence archive (issue 41). */
  readonly arquivo: s3.IBucket;
  readonly webhookQueue: sqs.IQueue;
  /** The loader's domain events (documentosQueue). */
  readonly documentosQueue: sqs.IQueue;
  readonly mailIdentity: ses.IEmailIdentity;
  readonly mailFrom: string;
  readonly tokenSecret: secretsmanager.ISecret;
  /** The rotated session-token signing key. */
  readonly sessionKeySecret: secretsmanager.ISecret;
  readonly referenceLoad: sfn.IStateMachine;
  /** The billing run (functions/faturamento). */
  readonly faturamento: sfn.IStateMachine;
  /** The repasse run (functions/rateio). */
  readonly repasse: sfn.IStateMachine;
  /** The bank-return import's job (functions/faturamento/retorno). */
  readonly retorno: sfn.IStateMachine;
  /** The report jobs (functions/consumo/relatorio-job.ts). */
  readonly relatorio: sfn.IStateMachine;
  /** The carrier report's filtered grand total (functions/consulta/total-transportadoras.ts). */
  readonly totalTransportadoras: sfn.IStateMachine;
  /** The Sefaz distribution service and the platform's e-CNPJ; absent until configured (no loads then). */
  readonly sefaz?: { readonly url: string; readonly credentials: secretsmanager.ISecret; readonly ufs?: string };
  /** tpAmb of the stage's Sefaz environment: '1' produção, '2' homologação (functions/fate/parse-rules.ts). */
  readonly sefazTpAmb: '1' | '2';
}

const grantors: Record<Grant, (fn: lambda.Function, t: GrantTargets) => void> = {
  'table:read': (fn, t) => acknowledge(fn, t.table.grantReadData(fn) && TABLE_INDEXES),
  'table:write': (fn, t) => acknowledge(fn, t.table.grantReadWriteData(fn) && TABLE_INDEXES),
  idempotency: (fn, t) => t.idempotencyTable.grantReadWriteData(fn),
  // Presigned GET / PUT URLs act with the signer's permissions, so these bound what browsers can do.
  'documents:read': (fn, t) => acknowledge(fn, t.documents.grantRead(fn) && DOCUMENT_OBJECTS),
  'documents:write': (fn, t) => acknowledge(fn, t.documents.grantPut(fn) && DOCUMENT_OBJECTS),
  'webhooks:send': (fn, t) => t.webhookQueue.grantSendMessages(fn),
  'documentos:publish': (fn, t) => {
    t.documentosQueue.grantSendMessages(fn);
    fn.addEnvironment('DOCUMENTOS_QUEUE_URL', t.documentosQueue.queueUrl);
  },
  'mail:send': (fn, t) => {
    t.mailIdentity.grantSendEmail(fn);
    fn.addEnvironment('MAIL_FROM', t.mailFrom);
  },
  'tokens:verify': (fn, t) => grantTokenSecret(fn, t),
  'tokens:sign': (fn, t) => grantTokenSecret(fn, t),
  'documents:delete': (fn, t) => acknowledge(fn, t.documents.grantDelete(fn) && DOCUMENT_OBJECTS),
  'sefaz:call': (fn, t) => {
    // The environment decides which documents become Fat-e, also in a batch import without a Sefaz URL.
    fn.addEnvironment('PLAC_SEFAZ_TPAMB', t.sefazTpAmb);
    if (!t.sefaz) return;
    t.sefaz.credentials.grantRead(fn);
    fn.addEnvironment('PLAC_SEFAZ_URL', t.sefaz.url);
    fn.addEnvironment('PLAC_SEFAZ_CREDENTIALS_ARN', t.sefaz.credentials.secretArn);
    if (t.sefaz.ufs) fn.addEnvironment('PLAC_SEFAZ_UFS', t.sefaz.ufs);
  },
  'referenceLoad:start': (fn, t) => {
    t.referenceLoad.grantStartExecution(fn);
    fn.addEnvironment('REFERENCE_LOAD_STATE_MACHINE_ARN', t.referenceLoad.stateMachineArn);
  },
  'faturamento:start': (fn, t) => {
    t.faturamento.grantStartExecution(fn);
    // A start finds whether the run holding the month's lock still runs (functions/faturamento/service.ts `iniciar`).
    acknowledge(fn, t.faturamento.grantExecution(fn, 'states:DescribeExecution') && BILLING_EXECUTIONS);
    fn.addEnvironment('FATURAMENTO_STATE_MACHINE_ARN', t.faturamento.stateMachineArn);
  },
  'repasse:start': (fn, t) => {
    t.repasse.grantStartExecution(fn);
    fn.addEnvironment('REPASSE_STATE_MACHINE_ARN', t.repasse.stateMachineArn);
  },
  'retorno:start': (fn, t) => {
    t.retorno.grantStartExecution(fn);
    fn.addEnvironment('RETORNO_STATE_MACHINE_ARN', t.retorno.stateMachineArn);
  },
  'relatorio:start': (fn, t) => {
    t.relatorio.grantStartExecution(fn);
    fn.addEnvironment('RELATORIO_STATE_MACHINE_ARN', t.relatorio.stateMachineArn);
  },
  // The archive's objects (Parquet parts and manifests), and where they are: ARQUIVO_BUCKET.
  'arquivo:read': (fn, t) => {
    acknowledge(fn, t.arquivo.grantRead(fn) && ARQUIVO_OBJECTS);
    fn.addEnvironment('ARQUIVO_BUCKET', t.arquivo.bucketName);
  },
  // Write includes delete: a re-run of a month replaces its parts and removes those left over.
  'arquivo:write': (fn, t) => {
    acknowledge(fn, t.arquivo.grantPut(fn) && ARQUIVO_OBJECTS);
    acknowledge(fn, t.arquivo.grantDelete(fn) && ARQUIVO_OBJECTS);
    fn.addEnvironment('ARQUIVO_BUCKET', t.arquivo.bucketName);
  },
  'totalTransportadoras:start': (fn, t) => {
    t.totalTransportadoras.grantStartExecution(fn);
    fn.addEnvironment('TOTAL_TRANSPORTADORAS_STATE_MACHINE_ARN', t.totalTransportadoras.stateMachineArn);
  },
};

/** The application table's wildcard: its global secondary indexes, all declared in topology.ts. */
const TABLE_INDEXES: NagPackSuppression = {
  id: 'AwsSolutions-IAM5',
  reason: 'Queries on the application table global secondary indexes (topology.ts applicationTable.globalIndexes): index/* of this one table.',
  appliesTo: [{ regex: '/^Resource::.*ApplicationTable[A-Za-z0-9]*\\.?Arn.*\\/index\\/\\*$/' }],
};

/** The billing run's executions: DescribeExecution is granted on `execution:<its state machine>:*` (an execution's name is its run's id). */
const BILLING_EXECUTIONS: NagPackSuppression = {
  id: 'AwsSolutions-IAM5',
  reason: "DescribeExecution of the billing state machine's own executions (named by each run's id, unknown at deploy time): execution:<that machine>:*, read only.",
  appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:.*:\\*$/' }, { regex: '/^Resource::.*Faturamento.*\\*$/' }],
};

/** The documents bucket's wildcards: every object of the one bucket, with aws-cdk-lib's action groups. */
const DOCUMENT_OBJECTS: NagPackSuppression = {
  id: 'AwsSolutions-IAM5',
  reason:
    'Documents are keyed by client and id (functions/platform/documents.ts), so the grant covers the objects of the documents bucket; GetObject*, List*, Abort* and DeleteObject* are the aws-cdk-lib grant groups (versions, multipart uploads) on it alone.',
  appliesTo: [{ regex: '/^Action::s3:[A-Za-z]+\\*$/' }, { regex: '/^Resource::.*DocumentsBucket.*\\/\\*$/' }],
};

/** The archive bucket's wildcards: every object of the one bucket, with aws-cdk-lib's action groups. */
const ARQUIVO_OBJECTS: NagPackSuppression = {
  id: 'AwsSolutions-IAM5',
  reason:
    'The archive is keyed by table, month and client (shared/src/arquivo.ts), all written or read by the job and the evidence download, so the grant covers the objects of the archive bucket; GetObject*, List*, Abort* and DeleteObject* are the aws-cdk-lib grant groups (versions, multipart uploads) on it alone.',
  appliesTo: [{ regex: '/^Action::s3:[A-Za-z]+\\*$/' }, { regex: '/^Resource::.*ArquivoBucket.*\\/\\*$/' }],
};

function acknowledge(fn: lambda.Function, suppression: NagPackSuppression): void {
  NagSuppressions.addResourceSuppressions(fn, [suppression], true);
}

function grantTokenSecret(fn: lambda.Function, t: GrantTargets): void {
  // Verifying and signing both need the key itself (HMAC); the grant is the same. The root is read too:
  // the keys of the other purposes are derived from it (tokens.ts derivedKey).
  t.tokenSecret.grantRead(fn);
  fn.addEnvironment('TOKEN_SECRET_ARN', t.tokenSecret.secretArn);
  t.sessionKeySecret.grantRead(fn);
  fn.addEnvironment('SESSION_KEY_SECRET_ARN', t.sessionKeySecret.secretArn);
}

export function applyGrants(fn: lambda.Function, grants: readonly Grant[], targets: GrantTargets): void {
  const wanted = new Set(grants);
  // Read/write already includes every read action: one statement instead of two overlapping ones.
  if (wanted.has('table:write')) wanted.delete('table:read');
  for (const grant of wanted) grantors[grant](fn, targets);
}
