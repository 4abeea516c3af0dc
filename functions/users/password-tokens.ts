import { createHash, randomBytes } from 'node:crypto';
import { Entity } from 'electrodb';
import { isConditionalFailure, tableConfig } from '../platform/table';

/**
 * Single-use, short-lived tokens that let a user set a password: only the token's hash is stored,
 * the item expires by TTL, and using it deletes it with a condition, so it works exactly once.
 */
export const RESET_MINUTES = 60;
export const WELCOME_HOURS = 48;
export const EMAIL_CONFIRMATION_HOURS = 24;

const tokens = () =>
  new Entity(
    {
      model: { entity: 'passwordToken', version: '1', service: 'users' },
      attributes: {
        tokenHash: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        email: { type: 'string', required: true },
        /** reset and welcome set a password; email confirms a new login e-mail (`email` is the new address). */
        purpose: { type: ['reset', 'welcome', 'email'] as const, required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: { byHash: { pk: { field: 'pk', composite: ['tokenHash'] }, sk: { field: 'sk', composite: [] } } },
    },
    tableConfig(),
  );

let entity: ReturnType<typeof tokens> | undefined;
const table = () => (entity ??= tokens());

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function issueToken(userId: string, email: string, purpose: 'reset' | 'welcome' | 'email'): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const seconds = purpose === 'reset' ? RESET_MINUTES * 60 : purpose === 'email' ? EMAIL_CONFIRMATION_HOURS * 3600 : WELCOME_HOURS * 3600;
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
      // An e-mail confirmation token never sets a password.
      .where((attr, op) => `${op.eq(attr.email, email)} AND ${op.ne(attr.purpose, 'email')} AND ${op.gt(attr.expiresAt, Math.floor(Date.now() / 1000))}`)
      .go({ response: 'all_old' });
    return data?.userId ?? null;
  } catch (error) {
    if (isConditionalFailure(error)) return null;
    throw error;
  }
}

/** The user and the new e-mail of a valid e-mail confirmation token; the token is spent. */
export async function consumeEmailToken(token: string): Promise<{ userId: string; email: string } | null> {
  try {
    const { data } = await table()
      .delete({ tokenHash: hash(token) })
      .where((attr, op) => `${op.eq(attr.purpose, 'email')} AND ${op.gt(attr.expiresAt, Math.floor(Date.now() / 1000))}`)
      .go({ response: 'all_old' });
    return data ? { userId: data.userId, email: data.email } : null;
  } catch (error) {
    if (isConditionalFailure(error)) return null;
    throw error;
  }
}
