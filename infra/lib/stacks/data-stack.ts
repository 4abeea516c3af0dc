/**
 * Stateful resources, in a stack of their own so that the compute and edge stacks can be replaced
 * or destroyed freely: the application and idempotency tables, the documents bucket, the access-log
 * bucket, the webhook queue with its dead-letter queue and alarms, the secrets (the key-derivation
 * root, the rotated session signing key, the CloudFront origin value), the SES identity, and the
 * evidence archive (issue 41) with what queries it (constructs/arquivo-consultas.ts).
 * Everything that holds data here is RETAIN, the tables also have deletion protection and the stack
 * termination protection (the archive's Glue and Athena definitions hold none: code recreates them).
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { DIAS_NO_ARQUIVO } from '@plac/shared/arquivo';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { AppConfig } from '../config';
import { ArquivoConsultas } from '../constructs/arquivo-consultas';
import { bucketPrivado } from '../constructs/bucket-defaults';
import { applicationTable, arquivoBucket, documentosQueue, documentsBucket, idempotencyTable, SEFAZ_XML_PREFIX, SEFAZ_XML_RETENCAO_DIAS, webhookQueue } from '../topology';

export interface DataStackProps extends StackProps {
  readonly config: AppConfig;
}

/** Access logs (S3 server access logs, CloudFront standard logs) are kept this long, then expire. */
export const ACCESS_LOG_RETENTION_DAYS = 365;

/** Prefix of the S3 server access logs in the log bucket; each bucket writes under its own `<prefix><id>/`. */
export const S3_ACCESS_LOG_PREFIX = 's3/';
/** Prefix of CloudFront's standard logs in the log bucket. */
export const CLOUDFRONT_LOG_PREFIX = 'cloudfront/';

/**
 * The archive's objects of at least 128 KiB move to Glacier Instant Retrieval (S3's filter is strictly
 * greater than, hence the minus one): that class bills a smaller object as 128 KiB, so those stay Standard.
 */
export const ARQUIVO_TAMANHO_MINIMO_GLACIER = 128 * 1024 - 1;
/** Days in Standard before that transition: the month just archived is the one read (disputes, checks). */
export const ARQUIVO_DIAS_ATE_GLACIER = 30;
/** How long an overwritten or deleted archive object stays recoverable (as the documents' old versions). */
export const ARQUIVO_DIAS_VERSAO_ANTERIOR = 90;

/** A message older than this in the webhook queue means the dispatcher is not keeping up (or down). */
export const OLDEST_MESSAGE_ALARM_SECONDS = 900;

export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly idempotencyTable: dynamodb.Table;
  readonly documents: s3.Bucket;
  /** The evidence archive (issue 41): Parquet per table, month and client (shared/src/arquivo.ts). */
  readonly arquivo: s3.Bucket;
  /** Its Glue tables, Athena workgroup, results bucket and named queries. */
  readonly arquivoConsultas: ArquivoConsultas;
  /** Access logs of every bucket and of CloudFront (see accessLogsBucket). */
  readonly logBucket: s3.Bucket;
  readonly webhookQueue: sqs.Queue;
  readonly webhookDeadLetterQueue: sqs.Queue;
  readonly documentosQueue: sqs.Queue;
  readonly documentosDeadLetterQueue: sqs.Queue;
  readonly alarmTopic: sns.Topic;
  /** The queue alarms defined here, for the operations dashboard (constructs/alarms.ts). */
  readonly queueAlarms: cloudwatch.Alarm[] = [];
  /** The session tokens' signing key, rotated by the API stack's schedule (functions/platform/auth/signing-keys.ts). */
  readonly sessionKeySecret: secretsmanager.Secret;
  /** The value CloudFront adds to every request it forwards to the web API (functions/platform/origin-verify.ts). */
  readonly originVerifySecret: secretsmanager.Secret;
  readonly tokenSecret: secretsmanager.Secret;
  readonly mailIdentity: ses.EmailIdentity;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, { terminationProtection: true, ...props });
    const { config } = props;

    this.table = new dynamodb.Table(this, applicationTable.id, {
      ...tableDefaults,
      partitionKey: { name: applicationTable.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: applicationTable.sortKey, type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: applicationTable.timeToLiveAttribute,
      // Storage dominates at national volume (five years of Fat-e, docs/data-model.md "Retention"):
      // Standard-IA stores at 40 % of Standard's price for 25 % more per request.
      tableClass: dynamodb.TableClass.STANDARD_INFREQUENT_ACCESS,
    });
    for (const index of applicationTable.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType[index.projection],
      });
    }

    this.idempotencyTable = new dynamodb.Table(this, idempotencyTable.id, {
      ...tableDefaults,
      partitionKey: { name: idempotencyTable.partitionKey, type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: idempotencyTable.timeToLiveAttribute,
    });

    this.logBucket = accessLogsBucket(this);

    const accessLogs = { bucket: this.logBucket, prefix: S3_ACCESS_LOG_PREFIX };
    this.documents = new s3.Bucket(this, documentsBucket.id, {
      ...bucketPrivado(documentsBucket.id, accessLogs),
      versioned: true,
      // Browsers upload and download through short-lived presigned URLs, from the portal's origin only.
      cors: [
        {
          allowedOrigins: [config.portalOrigin],
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.PUT, s3.HttpMethods.HEAD],
          allowedHeaders: ['Content-Type', 'Content-MD5', 'Content-Disposition', 'x-amz-*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        {
          id: 'noncurrent-versions',
          noncurrentVersionExpiration: Duration.days(90),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
        {
          // The Sefaz documents' raw XML (sefaz/<uf>/…xml.gz) is kept five years and a month from when it
          // was stored, so it never expires before its Fat-e (whose TTL is five years after emission). After 90 days it is read only on demand (an error document's
          // 'Baixar XML', an audit): Glacier Instant Retrieval, still read in milliseconds. S3's default
          // minimum size for transitions (128 KiB) keeps the small XML in Standard, where it is cheaper
          // (an object under 128 KiB is billed as 128 KiB in Glacier IR).
          id: 'sefaz-xml-retention',
          prefix: `${SEFAZ_XML_PREFIX}/`,
          transitions: [{ storageClass: s3.StorageClass.GLACIER_INSTANT_RETRIEVAL, transitionAfter: Duration.days(90) }],
          expiration: Duration.days(SEFAZ_XML_RETENCAO_DIAS),
        },
        {
          // A bank return file kept for its import's job (functions/faturamento/retorno): read by the
          // job's steps within the hour; its outcome lives in the table. A month covers any retry.
          id: 'retorno-job-files',
          prefix: 'retornos/',
          expiration: Duration.days(30),
        },
        {
          // What a report job's step leaves for the next (functions/consumo/relatorio-job.ts): read by
          // the next step within minutes; the job deletes only its last one. A week covers any retry.
          id: 'report-job-pending',
          prefix: 'relatorios-pendentes/',
          expiration: Duration.days(7),
        },
        {
          // A past month's evidence as CSV (functions/faturamento/evidencia.ts): made again from the
          // archive each week it is asked for; the archive itself is what is kept.
          id: 'evidence-downloads',
          prefix: 'evidencias/',
          expiration: Duration.days(14),
        },
      ],
    });

    this.arquivo = new s3.Bucket(this, arquivoBucket.id, {
      ...bucketPrivado(arquivoBucket.id, accessLogs),
      // Versioned, as the documents: the archive job may overwrite and delete (a re-run replaces a
      // month's parts), and this is the evidence of what was charged; a faulty run's overwrite or delete
      // stays recoverable for ARQUIVO_DIAS_VERSAO_ANTERIOR days. Re-runs are rare: old versions cost little.
      versioned: true,
      lifecycleRules: [
        {
          // Five years and a month (CTN art. 173 and 174), the life of what backs an invoice; the
          // expired version then stays ARQUIVO_DIAS_VERSAO_ANTERIOR days more, as any replaced one.
          id: 'arquivo-retencao',
          expiration: Duration.days(DIAS_NO_ARQUIVO),
          noncurrentVersionExpiration: Duration.days(ARQUIVO_DIAS_VERSAO_ANTERIOR),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
        {
          // Written once, read rarely (an audit, a dispute, a past month's evidence) and kept five years:
          // Glacier Instant Retrieval stores for a fraction of Standard and still reads in milliseconds
          // (Athena and the evidence download read it as any object). Only objects of 128 KiB and more
          // (ARQUIVO_TAMANHO_MINIMO_GLACIER): a smaller one is billed as 128 KiB there, so the manifests
          // and a small client's parts stay Standard, where they cost less.
          id: 'arquivo-glacier-ir',
          objectSizeGreaterThan: ARQUIVO_TAMANHO_MINIMO_GLACIER,
          transitions: [{ storageClass: s3.StorageClass.GLACIER_INSTANT_RETRIEVAL, transitionAfter: Duration.days(ARQUIVO_DIAS_ATE_GLACIER) }],
        },
        {
          // An expired object's delete marker, once its last version is gone, marks nothing: removed.
          id: 'arquivo-marcadores',
          expiredObjectDeleteMarker: true,
        },
      ],
    });
    // CloudFormation Validate's W9003: aws-cdk-lib writes ObjectSizeGreaterThan as a number where the
    // resource schema says string; CloudFormation accepts both, so the warning is acknowledged here only.
    Validations.of(this.arquivo).acknowledge({ id: 'CloudFormation-Validate::W9003', reason: 'ObjectSizeGreaterThan is a number in aws-cdk-lib, a string in the schema: CloudFormation coerces it.' });
    this.arquivoConsultas = new ArquivoConsultas(this, 'ArquivoConsultas', {
      arquivo: this.arquivo,
      accessLogs: { bucket: this.logBucket, prefix: S3_ACCESS_LOG_PREFIX },
    });

    this.webhookDeadLetterQueue = new sqs.Queue(this, webhookQueue.deadLetter.id, {
      ...queueDefaults,
      retentionPeriod: Duration.days(webhookQueue.deadLetter.retentionDays),
    });
    this.webhookQueue = new sqs.Queue(this, webhookQueue.id, {
      ...queueDefaults,
      visibilityTimeout: Duration.seconds(webhookQueue.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.webhookDeadLetterQueue, maxReceiveCount: webhookQueue.maxReceiveCount },
    });

    this.documentosDeadLetterQueue = new sqs.Queue(this, documentosQueue.deadLetter.id, {
      ...queueDefaults,
      retentionPeriod: Duration.days(documentosQueue.deadLetter.retentionDays),
    });
    this.documentosQueue = new sqs.Queue(this, documentosQueue.id, {
      ...queueDefaults,
      visibilityTimeout: Duration.seconds(documentosQueue.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.documentosDeadLetterQueue, maxReceiveCount: documentosQueue.maxReceiveCount },
    });

    // CloudWatch cannot publish to a topic encrypted with the AWS-managed SNS key, so the topic is
    // unencrypted (it carries alarm names, no data) and SSL-only.
    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', { displayName: 'PLAC alarms', enforceSSL: true });
    if (config.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    const alarmAction = new cwActions.SnsAction(this.alarmTopic);

    this.watch(new cloudwatch.Alarm(this, 'WebhookDeadLettersAlarm', {
      alarmDescription: 'Webhook deliveries gave up and are waiting in the dead-letter queue',
      metric: this.webhookDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }), alarmAction);
    this.watch(new cloudwatch.Alarm(this, 'WebhookBacklogAlarm', {
      alarmDescription: 'The oldest webhook delivery has waited too long: the dispatcher is failing or too slow',
      metric: this.webhookQueue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: OLDEST_MESSAGE_ALARM_SECONDS,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }), alarmAction);

    this.watch(new cloudwatch.Alarm(this, 'DocumentsDeadLettersAlarm', {
      alarmDescription: 'Domain events of stored documents gave up: their webhook deliveries were not produced',
      metric: this.documentosDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }), alarmAction);

    // The root the functions derive their purpose keys from (functions/platform/auth/tokens.ts
    // derivedKey: the stored webhook passwords' encryption, page cursors, captcha signatures). Generated
    // by Secrets Manager, never in the template. Until issue 29 it also signed the session tokens, which
    // now have a rotated key of their own (sessionKeySecret).
    this.tokenSecret = new secretsmanager.Secret(this, 'TokenSigningSecret', {
      description: 'PLAC key-derivation root (stored secrets, cursors, captcha)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.tokenSecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'Keys derived from it encrypt data at rest (webhook passwords in the table): a rotation would make them unreadable without a re-encryption job. The session tokens are signed with SessionSigningKey, which is rotated every 30 days.',
      },
    ]);

    // HMAC key of the session tokens, rotated by the API stack (SESSION_KEY_ROTATION_DAYS); its version
    // id is the tokens' kid, and the previous version still verifies (signing-keys.ts).
    this.sessionKeySecret = new secretsmanager.Secret(this, 'SessionSigningKey', {
      description: 'PLAC session-token signing key (rotated)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.sessionKeySecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'Rotated every 30 days by the RotationSchedule of the API stack, where its rotation function lives (a schedule here would make the data stack depend on the API stack); the rule only looks in this stack. operations.test.ts checks the schedule.',
      },
    ]);

    // Shared by CloudFront (a custom origin header) and the web API's functions, which refuse a request
    // on the API's own execute-api host without it: the API is reachable only through CloudFront, its
    // WAF and its logs. Not rotated: it proves the path a request took, not who sent it, and rotating it
    // would need CloudFront and every function to switch at the same instant.
    this.originVerifySecret = new secretsmanager.Secret(this, 'OriginVerifySecret', {
      description: 'PLAC: header CloudFront adds to the requests it forwards to the web API',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.originVerifySecret, [
      { id: 'AwsSolutions-SMG4', reason: 'It marks requests that came through CloudFront and grants no access by itself; CloudFront and the functions read it at deploy time, so a rotation could not reach both at once.' },
    ]);

    // Easy DKIM; the three CNAMEs to publish are in the outputs.
    this.mailIdentity = new ses.EmailIdentity(this, 'MailIdentity', { identity: ses.Identity.domain(config.mailDomain) });
    this.mailIdentity.applyRemovalPolicy(RemovalPolicy.RETAIN);

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'IdempotencyTableName', { value: this.idempotencyTable.tableName });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.documents.bucketName });
    new CfnOutput(this, 'ArquivoBucketName', { value: this.arquivo.bucketName });
    new CfnOutput(this, 'ArquivoWorkGroup', { value: this.arquivoConsultas.workGroup.ref });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.webhookQueue.queueUrl });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', { value: this.webhookDeadLetterQueue.queueUrl });
    new CfnOutput(this, 'DocumentsQueueUrl', { value: this.documentosQueue.queueUrl });
    this.mailIdentity.dkimRecords.forEach((record, i) =>
      new CfnOutput(this, `MailDkimRecord${i + 1}`, { value: `${record.name} CNAME ${record.value}`, description: 'Publish in DNS for SES' }),
    );
  }

  private watch(alarm: cloudwatch.Alarm, action: cwActions.SnsAction): void {
    alarm.addAlarmAction(action);
    this.queueAlarms.push(alarm);
  }
}

/**
 * The one bucket for access logs: S3 server access logs of every bucket of the app (documents, archive,
 * Athena results, web build, mTLS truststore) and CloudFront's standard logs, each under its own
 * prefix, expired after ACCESS_LOG_RETENTION_DAYS. CloudFront's standard logging still writes through an object ACL
 * (awslogsdelivery), so ACLs stay enabled with the bucket owner preferred; public access is blocked
 * and SSE-S3 is used because CloudFront cannot write to a KMS-encrypted log bucket.
 * The S3 log-delivery service may write under s3/ from this account only, so buckets of the other
 * stacks can log here without each adding to this policy.
 */
function accessLogsBucket(scope: Construct): s3.Bucket {
  const bucket = new s3.Bucket(scope, 'AccessLogsBucket', {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [
      { id: 'access-log-retention', expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
  });
  bucket.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'S3ServerAccessLogs',
      principals: [new iam.ServicePrincipal('logging.s3.amazonaws.com')],
      actions: ['s3:PutObject'],
      resources: [bucket.arnForObjects(`${S3_ACCESS_LOG_PREFIX}*`)],
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
  );
  NagSuppressions.addResourceSuppressions(bucket, [
    { id: 'AwsSolutions-S1', reason: 'This is the access-log bucket itself: logging it into itself would loop, and into another bucket would only move the question.' },
  ]);
  return bucket;
}

const tableDefaults = {
  billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  deletionProtection: true,
  encryption: dynamodb.TableEncryption.AWS_MANAGED,
  removalPolicy: RemovalPolicy.RETAIN,
} satisfies Partial<dynamodb.TableProps>;

const queueDefaults = {
  encryption: sqs.QueueEncryption.SQS_MANAGED,
  enforceSSL: true,
} satisfies sqs.QueueProps;
