import { randomBytes } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { isConditionalFailure } from '../escritas';
import { apagar, atualizar, consultarParticao, gravarNovo } from '../tabela-direta';
import { esquecerSessao } from './sessao-lida';

/**
 * Server-side sessions: a token carries its session id (sid); logging out, deactivating or removing
 * a user deletes the session, and the authorizer refuses tokens whose session is gone. Sessions end
 * by themselves after SESSION_HOURS (DynamoDB TTL); tokens are short-lived and refreshed within that.
 *
 * The session, not the token, is the authority on who the caller is: it holds the principal (roles,
 * client, UF), the authorizer reads it on every request, and a change of the user rewrites it in
 * every open session. So a demoted administrator loses the role on the next request, and a refreshed
 * token can never carry roles the user no longer has. The authorizer reads a session through
 * sessao-lida.ts (a plain GetItem of the key this entity writes); this module writes them.
 */
export const SESSION_HOURS = 12;
export const TOKEN_TTL_SECONDS = 15 * 60;

/** A session, its ElectroDB model, written and read without the table layer (tabela-direta.ts): every login opens one (issue 39). */
export const MODELO_SESSAO = {
  model: { entity: 'session', version: '1', service: 'platform' },
  attributes: {
    sid: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    /** The principal as JSON: the caller's identity and roles for every request of the session. */
    principal: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    bySid: { pk: { field: 'pk', composite: ['sid'] }, sk: { field: 'sk', composite: [] } },
    byUser: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['userId'] }, sk: { field: 'gsi1sk', composite: ['sid'] } },
  },
} as const;

interface Sessao {
  sid: string;
  principal: string;
}

export async function openSession(principal: Principal): Promise<string> {
  const sid = randomBytes(18).toString('base64url');
  const now = Date.now();
  await gravarNovo(MODELO_SESSAO, {
    sid,
    userId: principal.userId,
    principal: JSON.stringify(principal),
    createdAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + SESSION_HOURS * 3600,
  });
  return sid;
}

export async function closeSession(sid: string): Promise<void> {
  esquecerSessao(sid);
  await apagar(MODELO_SESSAO, { sid });
}

/** Ends the user's sessions; `except` keeps the caller's own (a password change ends the others). */
export async function closeSessionsOf(userId: string, except?: string | null): Promise<void> {
  // Bounded: one user's open sessions (one a login, each ended within SESSION_HOURS).
  const data = await consultarParticao<Sessao>(MODELO_SESSAO, 'byUser', { userId });
  await Promise.all(
    data
      .filter((s) => s.sid !== except)
      .map((s) => {
        esquecerSessao(s.sid);
        return apagar(MODELO_SESSAO, { sid: s.sid });
      }),
  );
}

/**
 * Every open session of the user takes the user's new principal. The write is conditional on the
 * session still existing, so a session closed meanwhile (logout, deactivation) is not brought back.
 * A session that must first enrol the second factor stays so (an administrator's edit of the user does
 * not lift it) unless the new principal says `cadastroSegundoFator: false` (the enrolment itself).
 */
export async function updateSessionsOf(principal: Principal): Promise<void> {
  // Bounded: one user's open sessions (one a login, each ended within SESSION_HOURS).
  const data = await consultarParticao<Sessao>(MODELO_SESSAO, 'byUser', { userId: principal.userId });
  const { cadastroSegundoFator, ...rest } = principal;
  await Promise.all(
    data.map(async (s) => {
      esquecerSessao(s.sid);
      const antes = JSON.parse(s.principal) as Principal;
      const pendente = cadastroSegundoFator ?? antes.cadastroSegundoFator ?? false;
      const value = JSON.stringify(pendente ? { ...rest, cadastroSegundoFator: true } : rest);
      try {
        await atualizar(MODELO_SESSAO, { sid: s.sid }, { principal: value });
      } catch (error) {
        if (!isConditionalFailure(error)) throw error;
      }
    }),
  );
}
