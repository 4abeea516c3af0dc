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

/** A conditional write that lost: the item was not in the state the write required. */
export function isConditionalFailure(error: unknown): boolean {
  const cause = (error as { cause?: { name?: string } } | null)?.cause;
  return cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String((error as Error)?.message ?? error));
}

/** Runs a conditional write: true when it was applied, false when its condition failed (any other error is thrown). */
export async function escritaCondicional(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** What an ElectroDB transaction answers: cancelled or not, and per item why. */
export interface TransactionOutcome {
  canceled: boolean;
  data: { rejected?: boolean; code?: string }[];
}

/**
 * Why DynamoDB cancelled a TransactWriteItems sent through the DocumentClient, item by item ('None' for
 * an item that was fine); undefined for any other error.
 */
export function motivosDoCancelamento(error: unknown): string[] | undefined {
  return (error as { CancellationReasons?: { Code?: string }[] } | null)?.CancellationReasons?.map((r) => r.Code ?? 'None');
}

/** The wait before another try of a transaction that met another on its items: a little longer each try, with jitter. */
export function esperarConflito(tentativa: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 25 * tentativa + Math.floor(Math.random() * 25 * tentativa)));
}

/**
 * Runs a transaction again when DynamoDB cancelled it only because another transaction was touching
 * the same items at that moment (TransactionConflict): the writes are conditional, so a later try
 * gives the real answer. Backs off a little more, with jitter, on each try.
 */
export async function transactWithRetry<R extends TransactionOutcome>(write: () => Promise<R>, attempts = 3): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const result = await write();
    if (!result.canceled || attempt === attempts || !result.data.some((item) => item.code === 'TransactionConflict')) return result;
    await esperarConflito(attempt);
  }
}
