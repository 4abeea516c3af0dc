/**
 * Writes that can lose a race, whichever way they reach the table (ElectroDB's entities or
 * tabela-direta.ts): how a lost condition and a cancelled transaction are told, and the retry of a
 * transaction that met another. No table layer here, so the paths without ElectroDB share them.
 */

/** A conditional write that lost: the item was not in the state the write required. */
export function isConditionalFailure(error: unknown): boolean {
  // ElectroDB wraps DynamoDB's error (its cause); a plain command's is the error itself (tabela-direta.ts).
  const erro = error as { name?: string; cause?: { name?: string } } | null;
  if (erro?.name === 'ConditionalCheckFailedException' || erro?.cause?.name === 'ConditionalCheckFailedException') return true;
  return /conditional/i.test(String((error as Error)?.message ?? error));
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
