import { dynamoDb } from './aws';
import { config } from './env';

/** What every context's ElectroDB entities are bound to: the one application table. */
export function tableConfig() {
  return { client: dynamoDb(), table: config.tableName };
}

/** A conditional write that lost: the item was not in the state the write required. */
export function isConditionalFailure(error: unknown): boolean {
  const cause = (error as { cause?: { name?: string } } | null)?.cause;
  return cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String((error as Error)?.message ?? error));
}
