import { randomBytes } from 'node:crypto';
import { Entity } from 'electrodb';
import { tableConfig } from '../table';

/**
 * Server-side sessions: a token carries its session id (sid); logging out, deactivating or removing
 * a user deletes the session, and the authorizer refuses tokens whose session is gone. Sessions end
 * by themselves after SESSION_HOURS (DynamoDB TTL); tokens are short-lived and refreshed within that.
 */
export const SESSION_HOURS = 12;
export const TOKEN_TTL_SECONDS = 15 * 60;

const sessions = () =>
  new Entity(
    {
      model: { entity: 'session', version: '1', service: 'platform' },
      attributes: {
        sid: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        bySid: { pk: { field: 'pk', composite: ['sid'] }, sk: { field: 'sk', composite: [] } },
        byUser: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['userId'] }, sk: { field: 'gsi1sk', composite: ['sid'] } },
      },
    },
    tableConfig(),
  );

let entity: ReturnType<typeof sessions> | undefined;
const table = () => (entity ??= sessions());

export async function openSession(userId: string): Promise<string> {
  const sid = randomBytes(18).toString('base64url');
  const now = Date.now();
  await table()
    .create({ sid, userId, createdAt: new Date(now).toISOString(), expiresAt: Math.floor(now / 1000) + SESSION_HOURS * 3600 })
    .go();
  return sid;
}

export async function isSessionOpen(sid: string, userId: string): Promise<boolean> {
  const { data } = await table().get({ sid }).go();
  // TTL deletion runs late: an expired item may still be there.
  return !!data && data.userId === userId && data.expiresAt > Date.now() / 1000;
}

export async function closeSession(sid: string): Promise<void> {
  await table().delete({ sid }).go();
}

export async function closeSessionsOf(userId: string): Promise<void> {
  const { data } = await table().query.byUser({ userId }).go({ pages: 'all' });
  await Promise.all(data.map((s) => table().delete({ sid: s.sid }).go()));
}
