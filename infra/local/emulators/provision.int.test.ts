import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationTable, documentosQueue, idempotencyTable, webhookQueue } from '../../lib/topology';
import { PrerequisiteError } from './errors';
import { startEmulators, type Emulators } from './index';
import { assertPortFree, freePort } from './ports';
import { applicationTableInput, ensureIndexes, provision } from './provision';

describe('startEmulators and provision', () => {
  let dataDir: string;
  let emulators: Emulators;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-emulators-'));
    emulators = await startEmulators({ dataDir, ports: { dynamodb: await freePort(), aws: await freePort(), mail: await freePort() } });
    // Every client below is configured from `env` alone, the way the functions will be.
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
    Object.assign(process.env, emulators.env);
  });
  afterAll(async () => {
    for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
    Object.assign(process.env, savedEnv);
    await emulators?.stop();
    await emulators?.stop(); // a second stop is harmless
    await rm(dataDir, { recursive: true, force: true });
  });

  it('hands out the environment a process needs', () => {
    const { env, endpoints, resources } = emulators;
    expect(env).toEqual({
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
      AWS_ENDPOINT_URL_S3: endpoints.aws,
      AWS_ENDPOINT_URL_SQS: endpoints.aws,
      AWS_ENDPOINT_URL_SESV2: endpoints.mail,
      TABLE_NAME: 'plac-app',
      IDEMPOTENCY_TABLE_NAME: 'plac-idempotency',
      DOCUMENTS_BUCKET: 'plac-documents',
      ARQUIVO_BUCKET: 'plac-arquivo',
      WEBHOOK_QUEUE_URL: `${endpoints.aws}/000000000000/plac-webhooks`,
      WEBHOOK_DLQ_URL: `${endpoints.aws}/000000000000/plac-webhooks-dlq`,
      DOCUMENTOS_QUEUE_URL: `${endpoints.aws}/000000000000/plac-documentos`,
      DOCUMENTOS_DLQ_URL: `${endpoints.aws}/000000000000/plac-documentos-dlq`,
      PLAC_S3_FORCE_PATH_STYLE: '1',
    });
    expect(resources.webhookQueueUrl).toBe(env.WEBHOOK_QUEUE_URL);
  });

  it('creates the application table as the topology describes it', async () => {
    const db = new DynamoDBClient({});
    const { Table } = await db.send(new DescribeTableCommand({ TableName: process.env.TABLE_NAME }));
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((i) => ({ name: i.IndexName, keys: i.KeySchema?.map((k) => k.AttributeName), projection: i.Projection?.ProjectionType }));
    expect(indexes.sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      applicationTable.globalIndexes.map((i) => ({ name: i.name, keys: [i.partitionKey, i.sortKey], projection: i.projection })),
    );
    const ttl = await db.send(new DescribeTimeToLiveCommand({ TableName: process.env.TABLE_NAME }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: applicationTable.timeToLiveAttribute });

    const idem = await db.send(new DescribeTableCommand({ TableName: process.env.IDEMPOTENCY_TABLE_NAME }));
    expect(idem.Table?.KeySchema).toEqual([{ AttributeName: idempotencyTable.partitionKey, KeyType: 'HASH' }]);
    const idemTtl = await db.send(new DescribeTimeToLiveCommand({ TableName: process.env.IDEMPOTENCY_TABLE_NAME }));
    expect(idemTtl.TimeToLiveDescription?.AttributeName).toBe(idempotencyTable.timeToLiveAttribute);
    db.destroy();
  });

  it('adds an index the topology gained to a table made before it, filled from the items that carry its keys', async () => {
    const db = new DynamoDBClient({});
    const TableName = `plac-app-antes-${Date.now()}`;
    // The table as a data folder made before gsi3 (issue 38) holds it.
    const completa = applicationTableInput(TableName);
    const antes = { ...completa, GlobalSecondaryIndexes: completa.GlobalSecondaryIndexes!.filter((i) => i.IndexName !== 'gsi3'), AttributeDefinitions: completa.AttributeDefinitions!.filter((a) => !a.AttributeName!.startsWith('gsi3')) };
    await db.send(new CreateTableCommand(antes));
    const item = { pk: { S: 'p' }, sk: { S: 's' }, gsi3pk: { S: 'chave-do-indice' }, gsi3sk: { S: 'ordem' }, outro: { S: 'fora do índice' } };
    await db.send(new PutItemCommand({ TableName, Item: item }));

    await ensureIndexes(db, completa);
    await ensureIndexes(db, completa); // again: nothing to add
    const { Table } = await db.send(new DescribeTableCommand({ TableName }));
    expect(Table?.GlobalSecondaryIndexes?.map((i) => [i.IndexName, i.Projection?.ProjectionType]).sort()).toEqual([['gsi1', 'ALL'], ['gsi2', 'ALL'], ['gsi3', 'KEYS_ONLY']]);
    const { Items } = await db.send(new QueryCommand({ TableName, IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :k', ExpressionAttributeValues: { ':k': { S: 'chave-do-indice' } } }));
    // The item is in it, with its keys only.
    expect(Items).toEqual([{ pk: item.pk, sk: item.sk, gsi3pk: item.gsi3pk, gsi3sk: item.gsi3sk }]);
    db.destroy();
  });

  it('creates the webhook queue with its dead-letter queue, redrive policy and visibility timeout', async () => {
    const sqs = new SQSClient({});
    const { Attributes: dlq } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: process.env.WEBHOOK_DLQ_URL, AttributeNames: ['All'] }));
    const { Attributes: queue } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, AttributeNames: ['All'] }));
    expect(queue?.VisibilityTimeout).toBe(String(webhookQueue.visibilityTimeoutSeconds));
    expect(JSON.parse(queue?.RedrivePolicy ?? '{}')).toEqual({ deadLetterTargetArn: dlq?.QueueArn, maxReceiveCount: webhookQueue.maxReceiveCount });
    expect(dlq?.MessageRetentionPeriod).toBe(String(webhookQueue.deadLetter.retentionDays * 86_400));
    sqs.destroy();
  });

  it('creates the documents queue (the loader’s domain events) with its dead-letter queue and redrive policy', async () => {
    const sqs = new SQSClient({});
    const { Attributes: dlq } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: process.env.DOCUMENTOS_DLQ_URL, AttributeNames: ['All'] }));
    const { Attributes: queue } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: process.env.DOCUMENTOS_QUEUE_URL, AttributeNames: ['All'] }));
    expect(queue?.VisibilityTimeout).toBe(String(documentosQueue.visibilityTimeoutSeconds));
    expect(JSON.parse(queue?.RedrivePolicy ?? '{}')).toEqual({ deadLetterTargetArn: dlq?.QueueArn, maxReceiveCount: documentosQueue.maxReceiveCount });
    sqs.destroy();
  });

  it('is idempotent: a second provision keeps the resources and their data', async () => {
    const db = new DynamoDBClient({});
    const s3 = new S3Client({ forcePathStyle: process.env.PLAC_S3_FORCE_PATH_STYLE === '1' });
    const sqs = new SQSClient({}); // no explicit endpoint: the SDK calls the QueueUrl's host itself
    await db.send(new PutItemCommand({ TableName: process.env.TABLE_NAME, Item: { pk: { S: 'CLIENTE#1' }, sk: { S: 'PERFIL' } } }));
    await s3.send(new PutObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: 'dae/1.pdf', Body: '%PDF-1.7' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: 'entrega' }));

    const again = await provision({ dynamodbEndpoint: emulators.endpoints.dynamodb, awsEndpoint: emulators.endpoints.aws });
    expect(again).toEqual(emulators.resources);

    const item = await db.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { pk: { S: 'CLIENTE#1' }, sk: { S: 'PERFIL' } } }));
    expect(item.Item).toBeDefined();
    const object = await s3.send(new GetObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: 'dae/1.pdf' }));
    expect(await object.Body?.transformToString()).toBe('%PDF-1.7');
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL }));
    expect(Messages?.map((m) => m.Body)).toEqual(['entrega']);
    db.destroy();
    s3.destroy();
    sqs.destroy();
  });

  it('starts again on other ports with everything kept, and hands out URLs on the new ports', async () => {
    await emulators.stop();
    emulators = await startEmulators({ dataDir, ports: { dynamodb: await freePort(), aws: await freePort(), mail: await freePort() } });
    Object.assign(process.env, emulators.env);
    expect(emulators.env.WEBHOOK_QUEUE_URL).toBe(`${emulators.endpoints.aws}/000000000000/plac-webhooks`);

    const db = new DynamoDBClient({});
    const s3 = new S3Client({ forcePathStyle: true });
    const sqs = new SQSClient({});
    const item = await db.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { pk: { S: 'CLIENTE#1' }, sk: { S: 'PERFIL' } } }));
    expect(item.Item).toBeDefined();
    const object = await s3.send(new GetObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: 'dae/1.pdf' }));
    expect(await object.Body?.transformToString()).toBe('%PDF-1.7');
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.WEBHOOK_QUEUE_URL, MessageBody: 'depois do reinício' }));
    db.destroy();
    s3.destroy();
    sqs.destroy();
  });

  it('captures e-mail sent through the SES v2 endpoint in env', async () => {
    const ses = new SESv2Client({});
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: 'nao-responda@plac.example',
        Destination: { ToAddresses: ['gestor@sefaz.example'] },
        Content: { Simple: { Subject: { Data: 'Cadastro' }, Body: { Text: { Data: 'Bem-vindo' } } } },
      }),
    );
    expect(emulators.mail.list('gestor@sefaz.example').map((m) => m.subject)).toEqual(['Cadastro']);
    ses.destroy();
  });

  it('fails with the PrerequisiteError sentence and leaves nothing running when a port is taken', async () => {
    const blocker = createServer();
    const taken = await freePort();
    await new Promise<void>((resolve) => blocker.listen(taken, '127.0.0.1', resolve));
    const ports = { dynamodb: await freePort(), aws: taken, mail: await freePort() };
    try {
      const error = await startEmulators({ dataDir: join(dataDir, 'second'), ports }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PrerequisiteError);
      // Other test files start emulators at the same time, so a free port can be taken by them in
      // between; whichever port it was, the sentence has the same shape.
      expect((error as Error).message).toMatch(/^Port \d+ for .+ is taken: stop what uses it or set PLAC_[A-Z_]+_PORT\.$/);
      if ((error as Error).message.includes(String(taken))) {
        expect((error as Error).message).toBe(`Port ${taken} for fauxqs (S3 and SQS) is taken: stop what uses it or set PLAC_AWS_PORT.`);
      }
    } finally {
      blocker.close();
    }
    // The emulators that did start were stopped again: their ports are free.
    await expect(assertPortFree(ports.dynamodb, 'DynamoDB Local', 'PLAC_DYNAMODB_PORT')).resolves.toBeUndefined();
    await expect(assertPortFree(ports.mail, 'the e-mail capture', 'PLAC_MAIL_PORT')).resolves.toBeUndefined();
  });
});
