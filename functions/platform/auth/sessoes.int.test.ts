import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { describe, expect, it } from 'vitest';
import { dynamoDbBase } from '../aws';
import { GetItemCommand } from '../aws-direto/dynamodb';
import { config } from '../env';
import { chaveDaSessao, sessionPrincipal } from './sessao-lida';
import { closeSession, closeSessionsOf, openSession, updateSessionsOf } from './sessions';

/**
 * Sessions as the table holds them: sessions.ts writes them through its ElectroDB entity, the
 * authorizer reads them through sessao-lida.ts's plain GetItem. The two must agree on the key (the sid
 * is base64url, mixed case), and every change made by this process is seen at once.
 */
describe('sessions: written by the entity, read by the authorizer', () => {
  const principal = (): Principal => ({ userId: `u-${randomUUID()}`, name: 'Sessão', tipo: 'S', roles: ['sefaz_admin'] });

  it('reads the session the entity wrote, at the key it wrote it (a mixed-case sid)', async () => {
    const p = principal();
    let sid = '';
    // A base64url sid of 18 random bytes has an upper-case letter almost always; make sure of it.
    for (let i = 0; i < 20 && sid.toLowerCase() === sid; i++) sid = await openSession(p);
    expect(sid).not.toBe(sid.toLowerCase());
    const { Item } = await dynamoDbBase().send(
      new GetItemCommand({ TableName: config.tableName, Key: { pk: { S: chaveDaSessao(sid).pk }, sk: { S: chaveDaSessao(sid).sk } } }),
    );
    expect(Item?.__edb_e__?.S).toBe('session');
    expect(Item?.sid?.S).toBe(sid);
    expect(await sessionPrincipal(sid, p.userId)).toEqual(p);
    // Another user's token with this sid: refused.
    expect(await sessionPrincipal(sid, 'someone-else')).toBeNull();
  });

  it('sees a change of roles and the end of a session at once (this process forgets its cached copy)', async () => {
    const p = principal();
    const [a, b] = [await openSession(p), await openSession(p)];
    expect(await sessionPrincipal(a, p.userId)).toEqual(p);
    const rebaixado: Principal = { ...p, roles: ['sefaz_gestor'], uf: 'BA' };
    await updateSessionsOf(rebaixado);
    expect(await sessionPrincipal(a, p.userId)).toEqual(rebaixado);
    expect(await sessionPrincipal(b, p.userId)).toEqual(rebaixado);
    await closeSession(a);
    expect(await sessionPrincipal(a, p.userId)).toBeNull();
    expect(await sessionPrincipal(b, p.userId)).toEqual(rebaixado);
    await closeSessionsOf(p.userId);
    expect(await sessionPrincipal(b, p.userId)).toBeNull();
  });

  it('answers null for a sid never opened', async () => {
    expect(await sessionPrincipal(randomUUID(), 'u')).toBeNull();
  });
});
