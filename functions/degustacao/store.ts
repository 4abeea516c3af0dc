import { createConversions, Entity, type EntityItem } from 'electrodb';
import { DEGUSTACAO_SITUACOES } from '@plac/shared/contracts/degustacao';
import { conflict } from '../platform/errors';
import { paginaEmSequencia, type Pagina } from '../platform/paginas';
import { isConditionalFailure } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The trial area's data (docs/data-model.md, "Degustação"). Access patterns:
 * - a trial client by id (key); all trial clients by creation instant (gsi1, one partition), read newest
 *   first a page at a time for the staff list;
 * - e-mail and CNPJ are unique: claim items written in the same transaction as the client; the
 *   e-mail claim is also how authorisation finds the client;
 * - a trial access token by the SHA-256 of the token (key), with the table's TTL at its expiry (also
 *   checked on read). The token itself is never stored, nor the e-mailed registration token (only its
 *   hash, in the client item).
 */
// Kept: one per company that asked for a trial, the staff's list (managed by its situation); bounded by the companies, not by use.
const clienteTeste = entidadeSobDemanda(() => new Entity({
  model: { entity: 'clienteTeste', version: '1', service: 'degustacao' },
  attributes: {
    clienteTesteId: { type: 'string', required: true },
    cnpj: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    nomeResponsavel: { type: 'string', required: true },
    email: { type: 'string', required: true },
    telefone: { type: 'string', required: true },
    situacao: { type: DEGUSTACAO_SITUACOES, required: true },
    /** SHA-256 (hex) of the e-mailed registration token. */
    tokenHash: { type: 'string', required: true },
    /** ISO instant after which the e-mailed token no longer authorises (renewed when staff activate). */
    tokenValidoAte: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['clienteTesteId'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'clienteTesteId'] } },
  },
}));

/** Kept: the uniqueness claim of a trial client's e-mail, as long as the trial client. */
const clienteTesteEmail = entidadeSobDemanda(() => new Entity({
  model: { entity: 'clienteTesteEmail', version: '1', service: 'degustacao' },
  attributes: { email: { type: 'string', required: true }, clienteTesteId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } } },
}));

/** Kept: the uniqueness claim of a trial client's CNPJ, as long as the trial client. */
const clienteTesteCnpj = entidadeSobDemanda(() => new Entity({
  model: { entity: 'clienteTesteCnpj', version: '1', service: 'degustacao' },
  attributes: { cnpj: { type: 'string', required: true }, clienteTesteId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['cnpj'] }, sk: { field: 'sk', composite: [] } } },
}));

const acessoTeste = entidadeSobDemanda(() => new Entity({
  model: { entity: 'acessoTeste', version: '1', service: 'degustacao' },
  attributes: {
    tokenHash: { type: 'string', required: true },
    clienteTesteId: { type: 'string', required: true },
    /** Epoch seconds: the table's TTL attribute, and checked on every read. */
    expiresAt: { type: 'number', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: { byHash: { pk: { field: 'pk', composite: ['tokenHash'] }, sk: { field: 'sk', composite: [] } } },
}));

const entities = { clienteTeste, clienteTesteEmail, clienteTesteCnpj, acessoTeste };
const db = servicoSobDemanda(entities);

export type ClienteTesteRecord = EntityItem<typeof clienteTeste>;
export type AcessoTesteRecord = EntityItem<typeof acessoTeste>;

/** A new trial client with its e-mail and CNPJ claimed atomically: a second registration of either loses (409). */
export async function createClienteTeste(record: ClienteTesteRecord): Promise<void> {
  const result = await db()
    .transaction.write(({ clienteTeste: c, clienteTesteEmail: e, clienteTesteCnpj: j }) => [
      c.create(record).commit(),
      e.create({ email: record.email, clienteTesteId: record.clienteTesteId }).commit(),
      j.create({ cnpj: record.cnpj, clienteTesteId: record.clienteTesteId }).commit(),
    ])
    .go();
  if (result.canceled) throw conflict('recursoDuplicado');
}

export async function findClienteTeste(clienteTesteId: string): Promise<ClienteTesteRecord | null> {
  const { data } = await db().entities.clienteTeste.get({ clienteTesteId }).go();
  return data;
}

export async function findClienteTesteByEmail(email: string): Promise<ClienteTesteRecord | null> {
  const { data } = await db().entities.clienteTesteEmail.get({ email }).go();
  return data ? findClienteTeste(data.clienteTesteId) : null;
}

/**
 * One page of the trial clients, newest first, from a position (the page cursor's content): one
 * key-range Query of gsi1 (`perPage + 1` items). They grow with public sign-ups, so the list is never
 * read whole.
 */
export async function paginaDeClientesTeste(pagina: { perPage: number; posicao?: string | undefined }): Promise<Pagina<ClienteTesteRecord>> {
  const entity = db().entities.clienteTeste;
  return paginaEmSequencia<ClienteTesteRecord>(
    [
      async (desde, limite) => {
        const { data, cursor } = await entity.query.all({}).go({ order: 'desc', limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, item) => createConversions(entity).byAccessPattern.all.fromComposite.toCursor(item)!,
    pagina,
  );
}

/** Changes a trial client if nobody changed it since it was read (optimistic lock on updatedAt). */
export async function updateClienteTeste(
  before: ClienteTesteRecord,
  changes: Partial<Pick<ClienteTesteRecord, 'situacao' | 'tokenValidoAte' | 'updatedAt' | 'updatedBy'>>,
): Promise<void> {
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  try {
    await db()
      .entities.clienteTeste.patch({ clienteTesteId: before.clienteTesteId })
      .set(set)
      .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
      .go();
  } catch (error) {
    if (isConditionalFailure(error)) throw conflict('recursoDuplicado');
    throw error;
  }
}

export async function createAcesso(record: AcessoTesteRecord): Promise<void> {
  await db().entities.acessoTeste.create(record).go();
}

export async function findAcesso(tokenHash: string): Promise<AcessoTesteRecord | null> {
  const { data } = await db().entities.acessoTeste.get({ tokenHash }).go();
  return data;
}
