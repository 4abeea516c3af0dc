import { PutCommand } from '../platform/aws-direto/dynamodb';
import { createConversions, Entity } from 'electrodb';
import { dynamoDb } from '../platform/aws';
import { conflict } from '../platform/errors';
import { paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { isConditionalFailure, tableConfig, transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';
import { listaOf, MODELO_USUARIO, MODELO_USUARIO_EMAIL, type UserRecord } from './modelos';
export { findUser, findUserIdByEmail } from './leituras';

/**
 * Users. Access patterns: by id (key); by e-mail and by CPF through uniqueness items written in the
 * same transaction as the user (so two concurrent creations cannot both succeed); the users of a list
 * by folded name (gsi1: `equipe`, the Sefaz and client users the user list pages through; `emissor`,
 * the issuers, one per company that ever logged in with its certificate, which no screen lists); a
 * client's users (gsi2).
 */
const user = entidadeSobDemanda(() => new Entity(MODELO_USUARIO));

const userEmail = entidadeSobDemanda(() => new Entity(MODELO_USUARIO_EMAIL));

/** Kept: the uniqueness claim of a user's CPF, as long as the user. */
const userCpf = entidadeSobDemanda(() => new Entity({
  model: { entity: 'userCpf', version: '1', service: 'users' },
  attributes: { cpf: { type: 'string', required: true }, userId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['cpf'] }, sk: { field: 'sk', composite: [] } } },
}));

const db = servicoSobDemanda({ user, userEmail, userCpf });

/**
 * Read-only view of the users as keyed before issue 38 (never written): every user, issuers among
 * them, in one gsi1 partition (`$users`). A user leaves it when an administrator edits it (its roles are
 * written again, so is its gsi1 key) or when infra/migrations/usuarios-lista.ts moves it; until then the
 * list reads it beside `equipe`. The same entity and version: the same items, another view.
 * Kept: read-only view of items of before issue 38.
 */
const userAntigo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'user', version: '1', service: 'users' },
  attributes: { ...user.schema.attributes },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['nameFolded', 'userId'] } },
    byGrupo: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['grupo'] }, sk: { field: 'gsi2sk', composite: ['userId'] } },
  },
}));
const dbLegado = servicoSobDemanda({ userAntigo });

export type { UserRecord } from './modelos';
export { grupoOf, listaOf } from './modelos';

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

/** A user's place in gsi1's order: its sort key as DynamoDB compares it (ElectroDB lower-cases keys). */
type PosicaoDoUsuario = [nameFolded: string, userId: string];
const ordemDe = ([nome, id]: PosicaoDoUsuario) => `${nome.toLowerCase()}#userid_${id.toLowerCase()}`;

/**
 * One page of the Sefaz and client users in name order, from a position (`posicao`, the page cursor's
 * content): a key-range Query of gsi1 `equipe`, merged (platform/paginas.ts `paginaIntercalada`) with
 * the partition of before issue 38 until it is empty (issuers and removed users skipped there). Filters no
 * key holds (`aceita`: a part of the name, e-mail or CPF, situation, type) are applied to what is read,
 * in the bounded rounds of `paginaIntercalada`.
 */
export async function paginaDeUsuarios(o: { perPage: number; posicao?: string | undefined; aceita?: (u: UserRecord) => boolean }): Promise<Pagina<UserRecord>> {
  const entity = db().entities.user;
  const antigo = dbLegado().entities.userAntigo;
  const daEquipe: Ler<UserRecord> = async (desde, limite) => {
    const { data, cursor } = await entity.query.porLista({ lista: 'equipe' }).go({ limit: limite, cursor: desde ?? null });
    return { data, cursor };
  };
  const doLegado: Ler<UserRecord> = async (desde, limite) => {
    const { data, cursor } = await antigo.query.all({}).go({ limit: limite, cursor: desde ?? null });
    return { data: data as UserRecord[], cursor };
  };
  const aceita = o.aceita;
  return paginaIntercalada<UserRecord, PosicaoDoUsuario>([daEquipe, doLegado], {
    perPage: o.perPage,
    posicao: o.posicao,
    aceita: (u) => !u.deletedAt && listaOf(u) === 'equipe' && (!aceita || aceita(u)),
    chave: (u) => [u.nameFolded, u.userId],
    comparar: (a, b) => {
      const x = ordemDe(a);
      const y = ordemDe(b);
      return x < y ? -1 : x > y ? 1 : 0;
    },
    apos: (i, [nameFolded, userId]) =>
      i === 0
        ? createConversions(entity).byAccessPattern.porLista.fromComposite.toCursor({ lista: 'equipe', nameFolded, userId })!
        : createConversions(antigo).byAccessPattern.all.fromComposite.toCursor({ nameFolded, userId })!,
    validarChave: (k): k is PosicaoDoUsuario => Array.isArray(k) && k.length === 2 && k.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 200),
  });
}

export async function usersOfCliente(clienteId: string): Promise<UserRecord[]> {
  // Bounded: one client's users (its staff with access to the portal: a handful).
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

/**
 * A password's hash stored again at today's parameters (a login that checked the old one): only if it
 * is still the hash the login checked. A password changed or reset in the meantime wins, and this
 * write is dropped (false). Not a change of the user's data: updatedAt and updatedBy stay (so an
 * administrator's edit read before it may write the old hash back: still the same password's, renewed
 * again at the next login).
 */
export async function trocarHashDaSenha(userId: string, antigo: string, novo: string): Promise<boolean> {
  try {
    await db()
      .entities.user.patch({ userId })
      .set({ passwordHash: novo })
      .where((attr, op) => op.eq(attr.passwordHash, antigo))
      .go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
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

/** A page of the gsi1 partition of before issue 38 (infra/migrations/usuarios-lista.ts walks it). */
export async function usuariosAntigos(desde: string | undefined, limite: number): Promise<{ data: UserRecord[]; cursor: string | null }> {
  const { data, cursor } = await dbLegado().entities.userAntigo.query.all({}).go({ limit: limite, cursor: desde ?? null });
  return { data: data as UserRecord[], cursor };
}

/**
 * Moves a user of before issue 38 to its gsi1 partition (`equipe` or `emissor`): its roles written again
 * derive `lista` (and `grupo`, hence every attribute they are derived from is written with them), and
 * ElectroDB rewrites the index keys. Conditioned on the user being unchanged since read (updatedAt); on
 * a concurrent change it reads it again and retries. False when the user is gone.
 */
export async function moverUsuarioAntigo(userId: string): Promise<boolean> {
  for (let tentativa = 0; tentativa < 5; tentativa++) {
    const { data: u } = await db().entities.user.get({ userId }).go({ consistent: true });
    if (!u) return false;
    try {
      await db()
        .entities.user.patch({ userId })
        .set({ roles: u.roles, nameFolded: u.nameFolded, tipo: u.tipo, ...(u.clienteId ? { clienteId: u.clienteId } : {}) })
        .where((attr, op) => op.eq(attr.updatedAt, u.updatedAt))
        .go();
      return true;
    } catch (error) {
      if (!isConditionalFailure(error)) throw error;
    }
  }
  throw new Error(`user ${userId} changed five times while being moved`);
}

/** A user as stored before issue 38 (gsi1 `$users`, no `lista`): for the migration's test, which writes some. */
export async function gravarUsuarioAntigo(record: UserRecord): Promise<void> {
  const { Item } = dbLegado().entities.userAntigo.create(record).params<{ Item: Record<string, unknown> }>();
  delete Item.lista;
  await dynamoDb().send(new PutCommand({ TableName: tableConfig().table, Item }));
}
