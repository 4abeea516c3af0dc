import { Entity, Service, type EntityItem } from 'electrodb';
import { conflict } from '../platform/errors';
import { tableConfig, transactWithRetry } from '../platform/table';

/**
 * Users. Access patterns: by id (key); by e-mail and by CPF through uniqueness items written in the
 * same transaction as the user (so two concurrent creations cannot both succeed); all users by
 * folded name (gsi1, one partition); a client's users (gsi2, sparse: only client users).
 */
const user = new Entity({
  model: { entity: 'user', version: '1', service: 'users' },
  attributes: {
    userId: { type: 'string', required: true },
    name: { type: 'string', required: true },
    nameFolded: { type: 'string', required: true },
    email: { type: 'string', required: true },
    cpf: { type: 'string', required: true },
    telefone: { type: 'string' },
    situacao: { type: ['A', 'I'] as const, required: true },
    tipo: { type: ['C', 'S'] as const, required: true },
    roles: { type: 'list', items: { type: 'string' }, required: true },
    uf: { type: 'string' },
    clienteId: { type: 'string' },
    /** Derived: the partition of gsi2 (a client's users are one Query). */
    grupo: {
      type: 'string',
      watch: ['clienteId', 'tipo', 'roles'],
      set: (_, item) => grupoOf(item as { clienteId?: string; tipo?: string; roles?: string[] }),
    },
    /** Issuers: the CNPJ of their certificate. */
    cnpj: { type: 'string' },
    imageKey: { type: 'string' },
    passwordHash: { type: 'string' },
    /** A new login e-mail waiting for its confirmation link (issue 27 item 3); the login e-mail is still `email`. */
    emailPendente: { type: 'string' },
    deletedAt: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['nameFolded', 'userId'] } },
    /** Users by group: a client's id, or 'sefaz' / 'emissor' (see `grupoOf`). */
    byGrupo: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['grupo'] }, sk: { field: 'gsi2sk', composite: ['userId'] } },
  },
});

const userEmail = new Entity({
  model: { entity: 'userEmail', version: '1', service: 'users' },
  attributes: { email: { type: 'string', required: true }, userId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } } },
});

const userCpf = new Entity({
  model: { entity: 'userCpf', version: '1', service: 'users' },
  attributes: { cpf: { type: 'string', required: true }, userId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['cpf'] }, sk: { field: 'sk', composite: [] } } },
});

let service: Service<{ user: typeof user; userEmail: typeof userEmail; userCpf: typeof userCpf }> | undefined;
const db = () => (service ??= new Service({ user, userEmail, userCpf }, tableConfig()));

export type UserRecord = EntityItem<typeof user>;

/**
 * Conditional writes that lost answer 409. `fields` names, item by item of the transaction, the form
 * field a refused item stands for (the e-mail or CPF claim), so the screen can mark it; a refused
 * user item is a concurrent change and marks nothing.
 */
type TransactionResult = { canceled: boolean; data: readonly { rejected: boolean; code: string }[] };

function settle(result: TransactionResult, fields: (string | null)[] = []) {
  if (!result.canceled) return;
  const marked = result.data.flatMap((item, i) => (item.rejected && item.code === 'ConditionalCheckFailed' && fields[i] ? [fields[i]] : []));
  throw conflict('recursoDuplicado', marked);
}

export async function findUser(userId: string): Promise<UserRecord | null> {
  const { data } = await db().entities.user.get({ userId }).go();
  return data && !data.deletedAt ? data : null;
}

export async function findUserIdByEmail(email: string): Promise<string | null> {
  const { data } = await db().entities.userEmail.get({ email }).go();
  return data?.userId ?? null;
}

export async function listUsers(): Promise<UserRecord[]> {
  // Not bounded: grows with the issuers' first logins; issue 38 (national volume, part 3) pages the user list.
  const { data } = await db().entities.user.query.all({}).go({ pages: 'all' });
  return data.filter((u) => !u.deletedAt);
}

export function grupoOf(u: { clienteId?: string | undefined; tipo?: string | undefined; roles?: string[] | undefined }): string {
  if (u.roles?.includes('emissor')) return 'emissor';
  return u.clienteId ?? 'sefaz';
}

export async function usersOfCliente(clienteId: string): Promise<UserRecord[]> {
  const { data } = await db().entities.user.query.byGrupo({ grupo: clienteId }).go({ pages: 'all' });
  return data.filter((u) => !u.deletedAt);
}

/** A new user with its e-mail and CPF claimed atomically. Issuers (no CPF) claim only the e-mail. */
export async function createUser(record: UserRecord): Promise<void> {
  const write = () =>
    db()
      .transaction.write(({ user, userEmail, userCpf }) => [
        user.create(record).commit(),
        userEmail.create({ email: record.email, userId: record.userId }).commit(),
        ...(record.cpf ? [userCpf.create({ cpf: record.cpf, userId: record.userId }).commit()] : []),
      ])
      .go();
  settle(await transactWithRetry(write), [null, 'email', 'cpf']);
}

/**
 * Changes a user if nobody changed it since it was read (optimistic lock on updatedAt); a new
 * e-mail is claimed and the old one released in the same transaction.
 */
export async function updateUser(before: UserRecord, after: UserRecord): Promise<void> {
  const { userId, ...rest } = after;
  const changes = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const removed = (Object.keys(before) as (keyof UserRecord)[]).filter(
    (k) => before[k] !== undefined && after[k] === undefined && !['userId'].includes(k),
  );
  const write = () =>
    db()
      .transaction.write(({ user, userEmail }) => [
        user
          .patch({ userId })
          .set(changes as never)
          .remove(removed as never)
          .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
          .commit(),
        ...(before.email !== after.email
          ? [
              userEmail.create({ email: after.email, userId }).commit(),
              userEmail
                .delete({ email: before.email })
                .where((attr, op) => op.eq(attr.userId, userId))
                .commit(),
            ]
          : []),
      ])
      .go();
  settle(await transactWithRetry(write), [null, 'email', null]);
}

/** Soft delete: the record stays for the audit trail; its e-mail and CPF are free again. */
export async function deleteUser(before: UserRecord, by: string): Promise<void> {
  const now = new Date().toISOString();
  const write = () =>
    db()
      .transaction.write(({ user, userEmail, userCpf }) => [
        user
          .patch({ userId: before.userId })
          .set({ deletedAt: now, updatedAt: now, updatedBy: by, situacao: 'I' })
          .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
          .commit(),
        userEmail.delete({ email: before.email }).commit(),
        ...(before.cpf ? [userCpf.delete({ cpf: before.cpf }).commit()] : []),
      ])
      .go();
  settle(await transactWithRetry(write));
}
