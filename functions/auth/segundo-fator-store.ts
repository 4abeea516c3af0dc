import { randomUUID } from 'node:crypto';
import { Entity, type EntityItem } from 'electrodb';
import { escritaCondicional, transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';
import { MODELO_DESAFIO, MODELO_FATOR, type DesafioRecord } from './modelos';
export { criarDesafio, lerFator } from './desafio';

/**
 * The second factor's items, under the user's partition (one user's login never reads another's):
 * - segundoFator: the enrolled secret (encrypted), the last step used (a code counts once), the
 *   recovery codes' hashes, and a secret waiting for its first code (enrolment not yet confirmed);
 * - segundoFatorEvento: the audit of the factor (enrolled, a recovery code used, reset by an
 *   administrator), newest first;
 * and, apart, the login's challenge: what the password step hands to the code step, one use, 5 minutes.
 */
const fator = entidadeSobDemanda(() => new Entity(MODELO_FATOR));

/** Kept: the audit of one user's factor, a few items a user (enrolments, recovery codes used, resets), as long as the user. */
const evento = entidadeSobDemanda(() => new Entity({
  model: { entity: 'segundoFatorEvento', version: '1', service: 'auth' },
  attributes: {
    userId: { type: 'string', required: true },
    em: { type: 'string', required: true },
    eventoId: { type: 'string', required: true },
    acao: { type: ['CADASTRADO', 'RECUPERACAO_USADA', 'REDEFINIDO'] as const, required: true },
    /** Who did it: the user, or the administrator who reset the factor. */
    porId: { type: 'string', required: true },
    porNome: { type: 'string', required: true },
  },
  indexes: { byUser: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: ['em', 'eventoId'] } } },
}));

const desafio = entidadeSobDemanda(() => new Entity(MODELO_DESAFIO));

const db = servicoSobDemanda({ fator, evento, desafio });

export type { DesafioRecord, FatorRecord } from './modelos';
export type EventoFator = EntityItem<typeof evento>;
export type AcaoFator = EventoFator['acao'];

/** Keeps a secret for enrolment (replacing any earlier one not confirmed); the active factor is untouched. */
export async function guardarPendente(userId: string, pendente: string, desde: string): Promise<void> {
  await db().entities.fator.upsert({ userId, pendente, pendenteDesde: desde }).go();
}

/**
 * Makes the pending secret the active factor, with its recovery codes and the step of the code that
 * confirmed it, and audits it, in one transaction conditional on that pending secret still being there
 * (two confirmations of one enrolment: one wins).
 */
export async function ativar(userId: string, pendente: string, a: { segredo: string; passo: number; recuperacao: string[]; em: string; porNome: string }): Promise<boolean> {
  const r = await transactWithRetry(() =>
    db()
      .transaction.write(({ fator, evento }) => [
        fator
          .patch({ userId })
          .set({ segredo: a.segredo, ativadoEm: a.em, ultimoPasso: a.passo, ...(a.recuperacao.length > 0 ? { recuperacao: a.recuperacao } : {}) })
          .remove(['pendente', 'pendenteDesde'])
          .where((attr, op) => op.eq(attr.pendente, pendente))
          .commit(),
        evento.create({ userId, em: a.em, eventoId: randomUUID(), acao: 'CADASTRADO', porId: userId, porNome: a.porNome }).commit(),
      ])
      .go(),
  );
  return !r.canceled;
}

/** Records that a code of `passo` was used, only if no code of that step or a later one was (one use per code, races included). */
export async function usarPasso(userId: string, segredo: string, passo: number): Promise<boolean> {
  return escritaCondicional(() =>
    db()
      .entities.fator.patch({ userId })
      .set({ ultimoPasso: passo })
      .where((attr, op) => `${op.eq(attr.segredo, segredo)} AND (${op.notExists(attr.ultimoPasso)} OR ${op.lt(attr.ultimoPasso, passo)})`)
      .go(),
  );
}

/** Spends a recovery code (only if still unused: two logins with one code, one wins) and audits it. */
export async function usarRecuperacao(userId: string, hash: string, porNome: string, em: string): Promise<boolean> {
  const r = await transactWithRetry(() =>
    db()
      .transaction.write(({ fator, evento }) => [
        fator
          .patch({ userId })
          .delete({ recuperacao: [hash] })
          .where((attr, op) => op.contains(attr.recuperacao, hash))
          .commit(),
        evento.create({ userId, em, eventoId: randomUUID(), acao: 'RECUPERACAO_USADA', porId: userId, porNome }).commit(),
      ])
      .go(),
  );
  return !r.canceled;
}

/** An administrator's reset: the factor removed (active and pending) and the reset audited, together. */
export async function redefinir(userId: string, por: { id: string; nome: string }, em: string): Promise<void> {
  await transactWithRetry(() =>
    db()
      .transaction.write(({ fator, evento }) => [
        fator.delete({ userId }).commit(),
        evento.create({ userId, em, eventoId: randomUUID(), acao: 'REDEFINIDO', porId: por.id, porNome: por.nome }).commit(),
      ])
      .go(),
  );
}

/** The factor's audit, newest first: one page of one user's partition. */
export async function eventos(userId: string, limite = 20): Promise<EventoFator[]> {
  return (await db().entities.evento.query.byUser({ userId }).go({ order: 'desc', limit: limite })).data;
}

export async function lerDesafio(desafioId: string): Promise<DesafioRecord | null> {
  return (await db().entities.desafio.get({ desafioId }).go({ consistent: true })).data;
}

/** Spends a challenge: true for the one request that removed it. */
export async function consumirDesafio(desafioId: string): Promise<boolean> {
  return escritaCondicional(() =>
    db()
      .entities.desafio.delete({ desafioId })
      .where((attr, op) => op.exists(attr.userId))
      .go(),
  );
}
