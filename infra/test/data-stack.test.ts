import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FALLBACK_PORTAL_ORIGIN } from '../lib/config';
import { OLDEST_MESSAGE_ALARM_SECONDS } from '../lib/stacks/data-stack';
import { applicationTable, idempotencyTable, webhookQueue } from '../lib/topology';
import { logicalIdOf, pathOf, resources, synth } from './synth';

describe('data stack', () => {
  const { data, artifacts } = synth();

  it('has termination protection', () => {
    expect(artifacts.data.terminationProtection).toBe(true);
  });

  it('creates the application table as topology.ts describes, protected and retained', () => {
    const id = logicalIdOf(data, `PlacData/${applicationTable.id}/Resource`);
    const table = resources(data, 'AWS::DynamoDB::Table')[id]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      // Five years of Fat-e: storage dominates the bill (docs/data-model.md, "Retention").
      TableClass: 'STANDARD_INFREQUENT_ACCESS',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    });
    const indexes = (table.Properties!.GlobalSecondaryIndexes as { IndexName: string; KeySchema: unknown; Projection: unknown }[]).map((i) => [i.IndexName, i.KeySchema, i.Projection]);
    expect(indexes).toEqual(
      applicationTable.globalIndexes.map((g) => [
        g.name,
        [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        { ProjectionType: g.projection },
      ]),
    );
    // Issue 38: the instalments' index holds their keys only.
    expect(indexes.find(([name]) => name === 'gsi3')?.[2]).toEqual({ ProjectionType: 'KEYS_ONLY' });
  });

  it('creates the idempotency table with the Powertools key and TTL, protected and retained', () => {
    const id = logicalIdOf(data, `PlacData/${idempotencyTable.id}/Resource`);
    const table = resources(data, 'AWS::DynamoDB::Table')[id]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
    });
  });

  it('keeps the documents bucket private, versioned, encrypted, SSL-only and retained', () => {
    const id = logicalIdOf(data, 'PlacData/DocumentsBucket/Resource');
    const bucket = resources(data, 'AWS::S3::Bucket')[id]!;
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: {
        Rules: [
          expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 90 }, Status: 'Enabled' }),
          // The raw Sefaz XML: a cheaper class after 90 days (objects S3 moves: 128 KiB and up by default), expired after five years and a month.
          expect.objectContaining({
            Prefix: 'sefaz/',
            Transitions: [{ StorageClass: 'GLACIER_IR', TransitionInDays: 90 }],
            ExpirationInDays: 1857,
            Status: 'Enabled',
          }),
          // A bank return file kept for its import's job: a month.
          expect.objectContaining({ Prefix: 'retornos/', ExpirationInDays: 30, Status: 'Enabled' }),
          // What a report job's step leaves for the next: a week.
          expect.objectContaining({ Prefix: 'relatorios-pendentes/', ExpirationInDays: 7, Status: 'Enabled' }),
          // A past month's evidence as CSV, made again from the archive when asked after (issue 41): two weeks.
          expect.objectContaining({ Prefix: 'evidencias/', ExpirationInDays: 14, Status: 'Enabled' }),
        ],
      },
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('lets only the portal origin use presigned URLs from a browser', () => {
    data.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: [FALLBACK_PORTAL_ORIGIN], AllowedMethods: ['GET', 'PUT', 'HEAD'] })] },
    });
    const withDomain = synth({ portalDomainName: 'portal.plac.example.gov.br', portalCertificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc' });
    withDomain.data.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['https://portal.plac.example.gov.br'] })] },
    });
  });

  it('sends undeliverable webhooks to an encrypted, SSL-only dead-letter queue after maxReceiveCount tries', () => {
    const dlq = logicalIdOf(data, `PlacData/${webhookQueue.deadLetter.id}/Resource`);
    data.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: webhookQueue.maxReceiveCount },
      VisibilityTimeout: webhookQueue.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
    });
    data.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true });
    const policies = Object.values(resources(data, 'AWS::SQS::QueuePolicy'));
    // The webhook queue and the documents queue, each with its dead-letter queue.
    expect(policies).toHaveLength(4);
    for (const policy of policies) {
      expect(JSON.stringify(policy.Properties)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('alarms to the SNS topic on dead letters and on a stuck queue', () => {
    const topic = logicalIdOf(data, 'PlacData/AlarmTopic/Resource');
    const dlq = logicalIdOf(data, `PlacData/${webhookQueue.deadLetter.id}/Resource`);
    const queue = logicalIdOf(data, `PlacData/${webhookQueue.id}/Resource`);
    data.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      AlarmActions: [{ Ref: topic }],
    });
    data.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }],
      Threshold: OLDEST_MESSAGE_ALARM_SECONDS,
      AlarmActions: [{ Ref: topic }],
    });
  });

  it('generates the token-signing secret (64 characters) and keeps it', () => {
    const secrets = Object.values(resources(data, 'AWS::SecretsManager::Secret')).filter((s) => pathOf(s).includes('/TokenSigningSecret/'));
    expect(secrets).toHaveLength(1);
    expect(secrets[0]!.DeletionPolicy).toBe('Retain');
    expect(secrets[0]!.Properties).toMatchObject({ GenerateSecretString: { PasswordLength: 64 } });
    expect(secrets[0]!.Properties).not.toHaveProperty('SecretString');
  });

  it('verifies the mail domain in SES (default and from context)', () => {
    data.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'plac.example.gov.br' });
    synth({ mailDomain: 'mail.sefaz.example.gov.br' }).data.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'mail.sefaz.example.gov.br',
    });
  });

  it('outputs the table names, the bucket and the queue URL', () => {
    const outputs = Object.keys(data.toJSON().Outputs as object);
    expect(outputs).toEqual(expect.arrayContaining(['TableName', 'IdempotencyTableName', 'DocumentsBucketName', 'WebhookQueueUrl']));
  });
});
