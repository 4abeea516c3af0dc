import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFauxqs, type Fauxqs } from './aws';
import { freePort } from './ports';

const config = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

describe('fauxqs (S3 and SQS)', () => {
  let dataDir: string;
  let port: number;
  let aws: Fauxqs;
  let s3: S3Client;
  let sqs: SQSClient;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-fauxqs-'));
    port = await freePort();
    aws = await startFauxqs({ dataDir, port });
    // WHEN_REQUIRED, as production code must use it: with the SDK's default (WHEN_SUPPORTED) a presigned
    // PUT carries the CRC32 of an empty body, which AWS rejects for any real upload (fauxqs does not check).
    s3 = new S3Client({ ...config, endpoint: aws.endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' });
    sqs = new SQSClient({ ...config, endpoint: aws.endpoint });
    await s3.send(new CreateBucketCommand({ Bucket: 'plac-test' }));
  });
  afterAll(async () => {
    s3.destroy();
    sqs.destroy();
    await aws.stop();
    await aws.stop(); // a second stop is harmless
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores and returns objects', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'plac-test', Key: 'notas/1.xml', Body: '<nfeProc/>', ContentType: 'application/xml' }));
    const object = await s3.send(new GetObjectCommand({ Bucket: 'plac-test', Key: 'notas/1.xml' }));
    expect(await object.Body?.transformToString()).toBe('<nfeProc/>');
    expect(object.ContentType).toBe('application/xml');
  });

  it('round-trips bytes through presigned PUT and GET URLs with plain fetch', async () => {
    const bytes = new Uint8Array(randomBytes(256 * 1024));
    const key = 'uploads/relatório 2026.pdf';
    const putUrl = await getSignedUrl(s3, new PutObjectCommand({ Bucket: 'plac-test', Key: key, ContentType: 'application/pdf' }), { expiresIn: 300 });
    const put = await fetch(putUrl, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/pdf' } });
    expect(put.status).toBe(200);

    const getUrl = await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'plac-test', Key: key }), { expiresIn: 300 });
    const get = await fetch(getUrl);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await get.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('sends, receives, hides, re-shows and deletes messages', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'basic', Attributes: { VisibilityTimeout: '60' } }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ evento: 'nfe.autorizada' }) }));

    const first = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    expect(first.Messages?.map((m) => m.Body)).toEqual(['{"evento":"nfe.autorizada"}']);
    const receipt = first.Messages?.[0]?.ReceiptHandle;
    // Hidden for the queue's 60 s visibility timeout.
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl }))).Messages ?? []).toHaveLength(0);

    // Shortened to 1 s, it comes back. (Not 0: fauxqs 2.4.1 with persistence fails ChangeMessageVisibility
    // to 0 with a SQLite constraint error.)
    await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: receipt, VisibilityTimeout: 1 }));
    await expect
      .poll(async () => (await sqs.send(new ReceiveMessageCommand({ QueueUrl }))).Messages ?? [], { timeout: 5_000, interval: 250 })
      .toHaveLength(1);
  });

  it('moves a message received maxReceiveCount times without deletion to the dead-letter queue', async () => {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: 'redrive-dlq' }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({
        QueueName: 'redrive',
        Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: 3 }) },
      }),
    );
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'webhook falhou' }));

    // VisibilityTimeout 0 on receive: the message is visible again at once, as after a failed attempt.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const { Messages } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl, VisibilityTimeout: 0, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }),
      );
      expect(Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe(String(attempt));
    }
    // Like SQS, the move happens on the next receive after the count is exceeded.
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl }))).Messages ?? []).toHaveLength(0);
    const moved = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl }));
    expect(moved.Messages?.map((m) => m.Body)).toEqual(['webhook falhou']);
    await sqs.send(new DeleteMessageCommand({ QueueUrl: dlq.QueueUrl, ReceiptHandle: moved.Messages?.[0]?.ReceiptHandle }));
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl }))).Messages ?? []).toHaveLength(0);
  });

  it('keeps buckets, objects, queues and messages across a restart on the same data folder', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'persisted' }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'sobrevive' }));
    await s3.send(new PutObjectCommand({ Bucket: 'plac-test', Key: 'persisted.txt', Body: 'ainda aqui' }));

    await aws.stop();
    aws = await startFauxqs({ dataDir, port });

    const object = await s3.send(new GetObjectCommand({ Bucket: 'plac-test', Key: 'persisted.txt' }));
    expect(await object.Body?.transformToString()).toBe('ainda aqui');
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl }));
    expect(Messages?.map((m) => m.Body)).toEqual(['sobrevive']);
  });
});
