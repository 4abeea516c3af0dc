import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, ListTablesCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from './dynamodb';
import { PrerequisiteError } from './errors';
import { freePort } from './ports';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const client = (endpoint: string) => new DynamoDBClient({ endpoint, region: 'us-east-1', credentials, maxAttempts: 1 });

describe('DynamoDB Local', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-dynamodb-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps tables and items across a stop and a new start on the same data folder', async () => {
    const port = await freePort();
    const first = await startDynamoDbLocal({ dataDir, port });
    const db = client(first.endpoint);
    await db.send(
      new CreateTableCommand({
        TableName: 'persisted',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    await db.send(new PutItemCommand({ TableName: 'persisted', Item: { pk: { S: 'a' }, nome: { S: 'Fatura' } } }));
    await first.stop();
    await first.stop(); // a second stop is harmless
    await expect(db.send(new ListTablesCommand({}))).rejects.toThrow(); // really stopped

    const second = await startDynamoDbLocal({ dataDir, port });
    try {
      const db2 = client(second.endpoint);
      const { Item } = await db2.send(new GetItemCommand({ TableName: 'persisted', Key: { pk: { S: 'a' } } }));
      expect(Item?.nome?.S).toBe('Fatura');
      db2.destroy();
    } finally {
      await second.stop();
      db.destroy();
    }
  });

  it('refuses a taken port with one sentence naming the variable that moves it', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const attempt = startDynamoDbLocal({ dataDir, port });
      await expect(attempt).rejects.toBeInstanceOf(PrerequisiteError);
      await expect(attempt).rejects.toThrow(`Port ${port} for DynamoDB Local is taken: stop what uses it or set PLAC_DYNAMODB_PORT.`);
    } finally {
      blocker.close();
    }
  });

  it('asks for Java 17 when java is not on the PATH', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(dataDir, 'no-such-bin');
    try {
      await expect(startDynamoDbLocal({ dataDir, port: await freePort() })).rejects.toThrow(
        /^Java 17 or newer is required for DynamoDB Local: install it with `apt-get install openjdk-17-jre-headless`\.$/,
      );
    } finally {
      process.env.PATH = path;
    }
  });

  it('leaves no JVM behind when the process that started it is killed with SIGKILL', async () => {
    const port = await freePort();
    const module = fileURLToPath(new URL('./dynamodb.ts', import.meta.url));
    const script = `const { startDynamoDbLocal } = await import(${JSON.stringify(module)});
      const d = await startDynamoDbLocal({ dataDir: ${JSON.stringify(dataDir)}, port: ${port} });
      console.log('ready ' + d.endpoint);
      setInterval(() => {}, 1000);`;
    const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const endpoint = await new Promise<string>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => {
        const match = /ready (\S+)/.exec(chunk.toString());
        if (match?.[1]) resolve(match[1]);
      });
      holder.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
    });
    const db = client(endpoint);
    await db.send(new ListTablesCommand({}));

    holder.kill('SIGKILL');
    // The JVM notices its parent is gone (its stdin pipe closes) and shuts down: the port frees up.
    await expect.poll(() => db.send(new ListTablesCommand({})).then(() => 'up', () => 'down'), { timeout: 15_000, interval: 200 }).toBe('down');
    db.destroy();
  });
});
