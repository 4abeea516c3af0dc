// ElectroDB's own wrapper of a v3 DocumentClient, given the commands to build (its src/client.js;
// the package has no exports map). See clienteElectro.
import type { DocumentClient } from 'electrodb';
import { DocumentClientV3Wrapper } from 'electrodb/src/client.js';
import { dynamoDb } from './aws';
import * as comandos from './aws-direto/dynamodb';
import { config } from './env';

let electro: DocumentClient | undefined;

/**
 * The table's client as ElectroDB takes it. Handed a v3 DocumentClient, ElectroDB builds its requests
 * with @aws-sdk/lib-dynamodb's command classes; handed its own wrapper, it uses the commands the
 * wrapper holds: ours (aws-direto/dynamodb.ts), with the same names and inputs, sent by our client without
 * the SDK's core. So ElectroDB never needs lib-dynamodb, and the Lambda bundles alias it away.
 */
function clienteElectro(): DocumentClient {
  // ElectroDB's types name only the SDK's clients; it accepts its own wrapper (normalizeClient).
  electro ??= new DocumentClientV3Wrapper(dynamoDb(), comandos) as unknown as DocumentClient;
  return electro;
}

/** What every context's ElectroDB entities are bound to: the one application table. */
export function tableConfig() {
  return { client: clienteElectro(), table: config.tableName };
}

export {
  esperarConflito,
  escritaCondicional,
  isConditionalFailure,
  motivosDoCancelamento,
  transactWithRetry,
  type TransactionOutcome,
} from './escritas';
