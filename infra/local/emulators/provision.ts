/**
 * Creates the twin's tables, buckets and queues from the production topology (infra/lib/topology.ts),
 * so the twin and the CDK stacks cannot drift apart. Idempotent: what exists is kept as it is (with
 * its data), so it runs on every start. The one thing it does to an existing resource is re-apply
 * the webhook queue's attributes, which is harmless and picks up a changed topology value.
 *
 * Production settings with no local meaning are left out: point-in-time recovery and deletion
 * protection (tables), versioning, encryption and the public access block (fauxqs does not implement
 * bucket configuration).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  QueueDoesNotExist,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { applicationTable, arquivoBucket, documentosQueue, documentsBucket, idempotencyTable, webhookQueue } from '../../lib/topology';

export interface ProvisionOptions {
  dynamodbEndpoint: string;
  /** fauxqs: S3 (path style) and SQS on one endpoint. */
  awsEndpoint: string;
}

export interface ProvisionedResources {
  tableName: string;
  idempotencyTableName: string;
  documentsBucket: string;
  /** The evidence archive (issue 41). */
  arquivoBucket: string;
  webhookQueueUrl: string;
  webhookDlqUrl: string;
  documentosQueueUrl: string;
  documentosDlqUrl: string;
}

const clientConfig = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
};

export async function provision(options: ProvisionOptions): Promise<ProvisionedResources> {
  const dynamodb = new DynamoDBClient({ ...clientConfig, endpoint: options.dynamodbEndpoint });
  const s3 = new S3Client({ ...clientConfig, endpoint: options.awsEndpoint, forcePathStyle: true });
  const sqs = new SQSClient({ ...clientConfig, endpoint: options.awsEndpoint });
  try {
    const [, , , , queues, documentos] = await Promise.all([
      ensureTable(dynamodb, applicationTableInput(), applicationTable.timeToLiveAttribute),
      ensureTable(dynamodb, idempotencyTableInput(), idempotencyTable.timeToLiveAttribute),
      ensureBucket(s3, documentsBucket.localName),
      ensureBucket(s3, arquivoBucket.localName),
      ensureWebhookQueues(sqs, options.awsEndpoint),
      ensureQueueWithDlq(sqs, options.awsEndpoint, documentosQueue),
    ]);
    return {
      tableName: applicationTable.localName,
      idempotencyTableName: idempotencyTable.localName,
      documentsBucket: documentsBucket.localName,
      arquivoBucket: arquivoBucket.localName,
      ...queues,
      documentosQueueUrl: documentos.queueUrl,
      documentosDlqUrl: documentos.dlqUrl,
    };
  } finally {
    dynamodb.destroy();
    s3.destroy();
    sqs.destroy();
  }
}

/** The application table's definition (under another name for a test that needs a table of its own). */
export function applicationTableInput(tableName: string = applicationTable.localName): CreateTableCommandInput {
  const t = applicationTable;
  const keyNames = [t.partitionKey, t.sortKey, ...t.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...new Set(keyNames)].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: t.partitionKey, KeyType: 'HASH' },
      { AttributeName: t.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: t.globalIndexes.map(indiceGlobal),
  };
}

function indiceGlobal(index: (typeof applicationTable.globalIndexes)[number]) {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: index.projection },
  };
}

/**
 * An index the topology gained since the data folder's table was created (gsi3, issue 38) is added to it,
 * as CloudFormation adds it in production: DynamoDB fills it from the items that have its keys.
 */
export async function ensureIndexes(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: input.TableName }));
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  for (const index of input.GlobalSecondaryIndexes ?? []) {
    if (existing.has(index.IndexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: input.TableName,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
  // Queried while CREATING, an index fails: the twin answers once every index is ACTIVE (filled).
  for (let espera = 0; ; espera++) {
    const { Table: t } = await client.send(new DescribeTableCommand({ TableName: input.TableName }));
    if ((t?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE')) return;
    if (espera >= 120) throw new Error(`the indexes of ${input.TableName} did not become ACTIVE in a minute`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function idempotencyTableInput(): CreateTableCommandInput {
  const t = idempotencyTable;
  return {
    TableName: t.localName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: t.partitionKey, AttributeType: 'S' }],
    KeySchema: [{ AttributeName: t.partitionKey, KeyType: 'HASH' }],
  };
}

async function ensureTable(client: DynamoDBClient, input: CreateTableCommandInput, ttlAttribute: string): Promise<void> {
  const name = input.TableName ?? '';
  if (!(await tableExists(client, name))) {
    try {
      await client.send(new CreateTableCommand(input));
    } catch (error) {
      // Another process provisioning the same emulator at the same moment: theirs is as good as ours.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
    await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 }, { TableName: name });
  } else {
    await ensureIndexes(client, input);
  }
  await ensureTimeToLive(client, name, ttlAttribute);
}

async function tableExists(client: DynamoDBClient, name: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

/**
 * DynamoDB Local accepts and reports the TTL setting. If an emulator rejects the call, TTL is skipped:
 * nothing may depend on expired items being gone (AWS itself deletes them up to days later), so code
 * filters on the expiry attribute anyway.
 */
async function ensureTimeToLive(client: DynamoDBClient, table: string, attribute: string): Promise<void> {
  try {
    const current = await client.send(new DescribeTimeToLiveCommand({ TableName: table }));
    const status = current.TimeToLiveDescription?.TimeToLiveStatus;
    if (status === 'ENABLED' || status === 'ENABLING') return;
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: attribute, Enabled: true },
      }),
    );
  } catch (error) {
    const name = (error as { name?: string }).name ?? '';
    if (!/UnknownOperation|NotImplemented|UnsupportedOperation/i.test(name)) throw error;
  }
}

async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status !== 404) throw error;
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

async function ensureWebhookQueues(
  client: SQSClient,
  awsEndpoint: string,
): Promise<{ webhookQueueUrl: string; webhookDlqUrl: string }> {
  const dlq = webhookQueue.deadLetter;
  const dlqUrl = await ensureQueue(client, dlq.localName, {
    MessageRetentionPeriod: String(dlq.retentionDays * 86_400),
  });
  const dlqArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] })))
    .Attributes?.QueueArn;
  if (!dlqArn) throw new Error(`The emulator did not report the ARN of queue ${dlq.localName}.`);

  const queueUrl = await ensureQueue(client, webhookQueue.localName, {
    VisibilityTimeout: String(webhookQueue.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: webhookQueue.maxReceiveCount }),
  });
  return { webhookQueueUrl: onEndpoint(queueUrl, awsEndpoint), webhookDlqUrl: onEndpoint(dlqUrl, awsEndpoint) };
}

/** A queue of the topology with its dead-letter queue and redrive policy (the documents' domain events). */
async function ensureQueueWithDlq(
  client: SQSClient,
  awsEndpoint: string,
  spec: { localName: string; visibilityTimeoutSeconds: number; maxReceiveCount: number; deadLetter: { localName: string; retentionDays: number } },
): Promise<{ queueUrl: string; dlqUrl: string }> {
  const dlqUrl = await ensureQueue(client, spec.deadLetter.localName, { MessageRetentionPeriod: String(spec.deadLetter.retentionDays * 86_400) });
  const dlqArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
  if (!dlqArn) throw new Error(`The emulator did not report the ARN of queue ${spec.deadLetter.localName}.`);
  const queueUrl = await ensureQueue(client, spec.localName, {
    VisibilityTimeout: String(spec.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: spec.maxReceiveCount }),
  });
  return { queueUrl: onEndpoint(queueUrl, awsEndpoint), dlqUrl: onEndpoint(dlqUrl, awsEndpoint) };
}

/** Creates the queue, or re-applies `attributes` to the existing one (a no-op when unchanged). */
async function ensureQueue(client: SQSClient, name: string, attributes: Record<string, string>): Promise<string> {
  try {
    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: name }));
    if (!QueueUrl) throw new Error(`The emulator returned no URL for queue ${name}.`);
    await client.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: attributes }));
    return QueueUrl;
  } catch (error) {
    if (!(error instanceof QueueDoesNotExist)) throw error;
  }
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  if (!QueueUrl) throw new Error(`The emulator returned no URL for queue ${name}.`);
  return QueueUrl;
}

/**
 * fauxqs names queues `http://sqs.us-east-1.localhost:<port>/000000000000/<name>`, a host that does
 * not resolve on every machine (it does not here), and it keeps the port of the first start even if
 * the twin later moves. The SQS SDK sends each call to its QueueUrl's host when the client has no
 * explicit `endpoint` (only AWS_ENDPOINT_URL_SQS), so we hand out the same path on the endpoint we
 * know answers; fauxqs finds a queue by the name at the end of the path, whatever the host.
 */
function onEndpoint(queueUrl: string, endpoint: string): string {
  return new URL(new URL(queueUrl).pathname, endpoint).href;
}
