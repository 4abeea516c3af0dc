import { dynamoDb } from './aws';
import { config } from './env';

/** What every context's ElectroDB entities are bound to: the one application table. */
export function tableConfig() {
  return { client: dynamoDb(), table: config.tableName };
}
