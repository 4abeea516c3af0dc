/**
 * Stateful resources, in a stack of their own so that the compute and edge stacks can be replaced
 * or destroyed freely: the application and idempotency tables, the documents bucket, the webhook
 * queue with its dead-letter queue and alarms, the token-signing secret and the SES identity.
 * Everything here is RETAIN, the tables also have deletion protection and the stack termination
 * protection.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { AppConfig } from '../config';
import { applicationTable, documentosQueue, documentsBucket, idempotencyTable, SEFAZ_XML_PREFIX, SEFAZ_XML_RETENCAO_DIAS, webhookQueue } from '../topology';

export interface DataStackProps extends StackProps {
  readonly config: AppConfig;
}

/** A message older than this in the webhook queue means the dispatcher is not keeping up (or down). */
export const OLDEST_MESSAGE_ALARM_SECONDS = 900;

export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly idempotencyTable: dynamodb.Table;
  readonly documents: s3.Bucket;
  readonly webhookQueue: sqs.Queue;
  readonly webhookDeadLetterQueue: sqs.Queue;
  readonly documentosQueue: sqs.Queue;
  readonly documentosDeadLetterQueue: sqs.Queue;
  readonly alarmTopic: sns.Topic;
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
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.idempotencyTable = new dynamodb.Table(this, idempotencyTable.id, {
      ...tableDefaults,
      partitionKey: { name: idempotencyTable.partitionKey, type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: idempotencyTable.timeToLiveAttribute,
    });

    this.documents = new s3.Bucket(this, documentsBucket.id, {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
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
      ],
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

    new cloudwatch.Alarm(this, 'WebhookDeadLettersAlarm', {
      alarmDescription: 'Webhook deliveries gave up and are waiting in the dead-letter queue',
      metric: this.webhookDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(alarmAction);
    new cloudwatch.Alarm(this, 'WebhookBacklogAlarm', {
      alarmDescription: 'The oldest webhook delivery has waited too long: the dispatcher is failing or too slow',
      metric: this.webhookQueue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: OLDEST_MESSAGE_ALARM_SECONDS,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(alarmAction);

    new cloudwatch.Alarm(this, 'DocumentsDeadLettersAlarm', {
      alarmDescription: 'Domain events of stored documents gave up: their webhook deliveries were not produced',
      metric: this.documentosDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(alarmAction);

    // HMAC key of the session tokens. Generated by Secrets Manager, never in the template.
    this.tokenSecret = new secretsmanager.Secret(this, 'TokenSigningSecret', {
      description: 'PLAC session-token signing key',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Easy DKIM; the three CNAMEs to publish are in the outputs.
    this.mailIdentity = new ses.EmailIdentity(this, 'MailIdentity', { identity: ses.Identity.domain(config.mailDomain) });
    this.mailIdentity.applyRemovalPolicy(RemovalPolicy.RETAIN);

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'IdempotencyTableName', { value: this.idempotencyTable.tableName });
    new CfnOutput(this, 'DocumentsBucketName', { value: this.documents.bucketName });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.webhookQueue.queueUrl });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', { value: this.webhookDeadLetterQueue.queueUrl });
    new CfnOutput(this, 'DocumentsQueueUrl', { value: this.documentosQueue.queueUrl });
    this.mailIdentity.dkimRecords.forEach((record, i) =>
      new CfnOutput(this, `MailDkimRecord${i + 1}`, { value: `${record.name} CNAME ${record.value}`, description: 'Publish in DNS for SES' }),
    );
  }
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
