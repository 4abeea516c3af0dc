import { GetItemCommand } from '../aws-direto/dynamodb';
import type { Principal } from '@plac/shared/access';
import { dynamoDbBase } from '../aws';
import { config } from '../env';

/**
 * The authorizer's read of a session (sessions.ts keeps them): one GetItem by key on the plain
 * DynamoDB client. Every portal and API request passes here, so the module carries no table layer
 * (ElectroDB and its schema validator are ~220 KiB of the authorizer's cold start, issue 39).
 */

/**
 * The key sessions.ts's ElectroDB entity gives a session (service `platform`, entity `session`
 * version 1, the sid lowercased as ElectroDB does with composite values); sessao-lida.test.ts checks
 * it against the entity's own, so a change of that model fails there.
 */
export function chaveDaSessao(sid: string): { pk: string; sk: string } {
  return { pk: `$platform#sid_${sid.toLowerCase()}`, sk: '$session_1' };
}

interface SessaoLida {
  userId: string;
  principal: string;
  expiresAt: number;
}

async function lerSessao(sid: string): Promise<SessaoLida | null> {
  const { pk, sk } = chaveDaSessao(sid);
  const { Item } = await dynamoDbBase().send(
    new GetItemCommand({
      TableName: config.tableName,
      Key: { pk: { S: pk }, sk: { S: sk } },
      ProjectionExpression: 'userId, principal, expiresAt',
    }),
  );
  const userId = Item?.userId?.S;
  const principal = Item?.principal?.S;
  const expiresAt = Number(Item?.expiresAt?.N);
  return userId !== undefined && principal !== undefined && Number.isFinite(expiresAt) ? { userId, principal, expiresAt } : null;
}

/**
 * Sessions this container read, kept SESSION_CACHE_MS (issue 36): one integrator's session sending
 * 2,000 requests a second would otherwise read its one item 2,000 times a second (a third of a
 * partition). So a logout, a deactivation or a change of roles made elsewhere takes effect within
 * SESSION_CACHE_MS; made by this container (and always on the local twin, one process), at once.
 */
const SESSION_CACHE_MS = 2_000;
const lidas = new Map<string, { ate: number; data: SessaoLida | null }>();

/** Drops a session from this container's cache: sessions.ts calls it on every change of the session. */
export function esquecerSessao(sid: string): void {
  lidas.delete(sid);
}

/** The principal of an open session of this user, or null when the session is over. */
export async function sessionPrincipal(sid: string, userId: string): Promise<Principal | null> {
  let hit = lidas.get(sid);
  if (!hit || Date.now() >= hit.ate) {
    hit = { ate: Date.now() + SESSION_CACHE_MS, data: await lerSessao(sid) };
    if (lidas.size > 10_000) lidas.clear();
    lidas.set(sid, hit);
  }
  const data = hit.data;
  // TTL deletion runs late: an expired item may still be there.
  if (!data || data.userId !== userId || data.expiresAt <= Date.now() / 1000) return null;
  try {
    return JSON.parse(data.principal) as Principal;
  } catch {
    return null;
  }
}
