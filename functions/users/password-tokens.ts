import { createHash, randomBytes } from 'node:crypto';
import { Entity } from 'electrodb';
import { tableConfig } from '../platform/table';

/**
 * Single-use, short-lived tokens that let a user set a password: only the token's hash is stored,
 * the item expires by TTL, and using it deletes it with a condition, so it works exactly once.
 */
export const RESET_MINUTES = 60;
export const WELCOME_HOURS = 48;

const tokens = () =>
  new Entity(
    {
      model: { entity: 'passwordToken', version: '1', service: 'users' },
      attributes: {
        tokenHash: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        email: { type: 'string', required: true },
        purpose: { type: ['reset', 'welcome'] as const, required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: { byHash: { pk: { field: 'pk', composite: ['tokenHash'] }, sk: { field: 'sk', composite: [] } } },
    },
    tableConfig(),
  );

let entity: ReturnType<typeof tokens> | undefined;
const table = () => (entity ??= tokens());

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function issueToken(userId: string, email: string, purpose: 'reset' | 'welcome'): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const seconds = purpose === 'reset' ? RESET_MINUTES * 60 : WELCOME_HOURS * 3600;
  await table()
    .create({ tokenHash: hash(token), userId, email, purpose, expiresAt: Math.floor(Date.now() / 1000) + seconds })
    .go();
  return token;
}

/** The token's user if the token is valid for this e-mail; the token is spent either way it matches. */
export async function consumeToken(token: string, email: string): Promise<string | null> {
  const tokenHash = hash(token);
  try {
    const { data } = await table()
      .delete({ tokenHash })
      .where((attr, op) => `${op.eq(attr.email, email)} AND ${op.gt(attr.expiresAt, Math.floor(Date.now() / 1000))}`)
      .go({ response: 'all_old' });
    return data?.userId ?? null;
  } catch (error) {
    if ((error as { cause?: { name?: string } }).cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String(error))) {
      return null;
    }
    throw error;
  }
}
