import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { applicationTableInput } from '../../infra/local/emulators/provision';

/**
 * A table of the application's definition for this test file alone, made the functions' table (the
 * stores bind to `TABLE_NAME` on their first use). For the migrations' tests: a migration scans the
 * whole table, and the twin's shared one holds every other file's data by then (minutes a scan);
 * here it reads only what the test wrote. Call it in `beforeAll`, before any store is used.
 */
export async function ownTable(): Promise<string> {
  const name = `plac-own-${randomUUID().slice(0, 8)}`;
  await new DynamoDBClient({}).send(new CreateTableCommand(applicationTableInput(name)));
  process.env.TABLE_NAME = name;
  return name;
}
