import { PutCommand } from '../platform/aws-direto/dynamodb';
import { Entity, type EntityItem } from 'electrodb';
import { dynamoDb } from '../platform/aws';
import { conflict } from '../platform/errors';
import { isConditionalFailure } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';
import { MODELO_CLIENTE, MODELO_CLIENTE_CNPJ, MODELO_PARAMETRO, SITUACOES, TIPOS, type ClienteRecord } from './modelos';
export { findCliente, findClienteIdByCnpj, readParametro } from './leituras';

/**
 * Client companies. Access patterns: by id (key); all, ordered by folded company name (gsi1, one
 * partition — the list of clients is small); CNPJ and e-mail uniqueness through items written in the
 * same transaction as the client, so that two racing registrations cannot both succeed. Webhook
 * configurations: by client (pk), one item per operation (sk), so a kind cannot be configured twice.
 */
export { SITUACOES, TIPOS };
export type Situacao = (typeof SITUACOES)[number];

const cliente = entidadeSobDemanda(() => new Entity(MODELO_CLIENTE));

const clienteCnpj = entidadeSobDemanda(() => new Entity(MODELO_CLIENTE_CNPJ));

/** Kept: the uniqueness claim of a client's e-mail, as long as the client. */
const clienteEmail = entidadeSobDemanda(() => new Entity({
  model: { entity: 'clienteEmail', version: '1', service: 'clientes' },
  attributes: { email: { type: 'string', required: true }, clienteId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } } },
}));

/** Kept: a client's webhook configurations, one per operation, edited in place. */
const webhook = entidadeSobDemanda(() => new Entity({
  model: { entity: 'webhookConfig', version: '1', service: 'clientes' },
  attributes: {
    clienteId: { type: 'string', required: true },
    operacaoId: { type: 'number', required: true },
    operacao: { type: 'string', required: true },
    url: { type: 'string', required: true },
    email: { type: 'string' },
    usuario: { type: 'string' },
    /** AES-GCM ciphertext (platform/crypto.ts); never the password itself. */
    senhaCifrada: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string' },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['operacaoId'] } },
  },
}));

/** The client's webhook signing secret (one per client, replaced on rotation), encrypted. Kept: one per client, replaced in place. */
const segredoWebhook = entidadeSobDemanda(() => new Entity({
  model: { entity: 'segredoWebhook', version: '1', service: 'clientes' },
  attributes: {
    clienteId: { type: 'string', required: true },
    /** AES-GCM ciphertext (platform/crypto.ts); the secret itself is shown once, when made. */
    cifrado: { type: 'string', required: true },
    criadoEm: { type: 'string', required: true },
    criadoPor: { type: 'string', required: true },
  },
  indexes: { byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: [] } } },
}));

const parametro = entidadeSobDemanda(() => new Entity(MODELO_PARAMETRO));

/** A solved captcha is accepted once: its signature is remembered until the challenge expires. */
const captchaUsado = entidadeSobDemanda(() => new Entity({
  model: { entity: 'captchaUsado', version: '1', service: 'clientes' },
  attributes: { assinatura: { type: 'string', required: true }, expiresAt: { type: 'number', required: true } },
  indexes: { byAssinatura: { pk: { field: 'pk', composite: ['assinatura'] }, sk: { field: 'sk', composite: [] } } },
}));

const entities = { cliente, clienteCnpj, clienteEmail, webhook, segredoWebhook, parametro, captchaUsado };
const db = servicoSobDemanda(entities);

export type { ClienteRecord } from './modelos';
export type WebhookRecord = EntityItem<typeof webhook>;

function settle(result: { canceled: boolean }) {
  if (result.canceled) throw conflict('recursoDuplicado');
}



/** The clients of one situation (the ones in evaluation: a handful), by name. */
export async function clientesNaSituacao(situacao: Situacao): Promise<ClienteRecord[]> {
  // Bounded: the clients in one situation; asked for 'E' (in evaluation before activation: a handful).
  const { data } = await db().entities.cliente.query.bySituacao({ situacao }).go({ pages: 'all' });
  return data;
}

/** Writes a client's situation index keys as they are (the migration of clients written before the index), on condition it is unchanged since read. */
export async function indexarSituacao(c: ClienteRecord): Promise<boolean> {
  try {
    await db()
      .entities.cliente.patch({ clienteId: c.clienteId })
      .set({ situacao: c.situacao, razaoFolded: c.razaoFolded })
      .where((attr, op) => op.eq(attr.updatedAt, c.updatedAt))
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** Writes a client without its situation index keys, as clients were written before it: the migration's test only. */
export async function gravarClienteSemSituacao(record: ClienteRecord): Promise<void> {
  const params = db().entities.cliente.put(record).params<{ Item: Record<string, unknown> }>();
  delete params.Item.gsi2pk;
  delete params.Item.gsi2sk;
  await dynamoDb().send(new PutCommand(params as never));
}

/** Every client by name. Bounded: the platform's clients (about 100 planned; registration is reviewed by the authority). */
export async function listClientes(): Promise<ClienteRecord[]> {
  // Bounded: the platform's clients, about 100 planned, each reviewed by the authority.
  const { data } = await db().entities.cliente.query.all({}).go({ pages: 'all' });
  return data;
}

/** A client with its CNPJ and e-mail claimed atomically. */
export async function createCliente(record: ClienteRecord): Promise<void> {
  const result = await db()
    .transaction.write(({ cliente, clienteCnpj, clienteEmail }) => [
      cliente.create(record).commit(),
      clienteCnpj.create({ cnpj: record.cnpj, clienteId: record.clienteId }).commit(),
      clienteEmail.create({ email: record.email, clienteId: record.clienteId }).commit(),
    ])
    .go();
  settle(result);
}

/** Undoes createCliente when the rest of a registration fails (its first user could not be made). */
export async function deleteNewCliente(record: ClienteRecord): Promise<void> {
  await db()
    .transaction.write(({ cliente, clienteCnpj, clienteEmail }) => [
      cliente.delete({ clienteId: record.clienteId }).commit(),
      clienteCnpj.delete({ cnpj: record.cnpj }).commit(),
      clienteEmail.delete({ email: record.email }).commit(),
    ])
    .go();
}

/** Seeding and tests: write a client as it is, with its uniqueness items. */
export async function putCliente(record: ClienteRecord): Promise<void> {
  await db().entities.cliente.put(record).go();
  await db().entities.clienteCnpj.put({ cnpj: record.cnpj, clienteId: record.clienteId }).go();
  await db().entities.clienteEmail.put({ email: record.email, clienteId: record.clienteId }).go();
}

/**
 * Changes a client if nobody changed it since it was read (optimistic lock on updatedAt); a new
 * e-mail is claimed and the old one released in the same transaction.
 */
export async function updateCliente(before: ClienteRecord, after: ClienteRecord): Promise<void> {
  const { clienteId, ...rest } = after;
  const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const remove = (Object.keys(before) as (keyof ClienteRecord)[]).filter((k) => k !== 'clienteId' && before[k] !== undefined && after[k] === undefined);
  const result = await db()
    .transaction.write(({ cliente, clienteEmail }) => [
      cliente
        .patch({ clienteId })
        .set(set as never)
        .remove(remove as never)
        .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
        .commit(),
      ...(before.email !== after.email
        ? [
            clienteEmail.create({ email: after.email, clienteId }).commit(),
            clienteEmail
              .delete({ email: before.email })
              .where((attr, op) => op.eq(attr.clienteId, clienteId))
              .commit(),
          ]
        : []),
    ])
    .go();
  settle(result);
}

export type SegredoWebhookRecord = EntityItem<typeof segredoWebhook>;

/** Stores a client's signing secret, replacing the previous one (rotation). */
export async function gravarSegredoWebhook(record: SegredoWebhookRecord): Promise<void> {
  await db().entities.segredoWebhook.put(record).go();
}

export async function segredoWebhookDe(clienteId: string): Promise<SegredoWebhookRecord | null> {
  const { data } = await db().entities.segredoWebhook.get({ clienteId }).go();
  return data;
}


/** A client's webhook configurations. Bounded: one per operation, five at most. */
export async function webhooksOf(clienteId: string): Promise<WebhookRecord[]> {
  // Bounded: one configuration per webhook operation, five at most.
  const { data } = await db().entities.webhook.query.byCliente({ clienteId }).go({ pages: 'all' });
  return data;
}

export async function findWebhook(clienteId: string, operacaoId: number): Promise<WebhookRecord | null> {
  const { data } = await db().entities.webhook.get({ clienteId, operacaoId }).go();
  return data;
}

export async function createWebhook(record: WebhookRecord): Promise<void> {
  try {
    await db().entities.webhook.create(record).go();
  } catch (error) {
    if (isConditionalFailure(error)) throw conflict('recursoDuplicado');
    throw error;
  }
}

export async function replaceWebhook(before: WebhookRecord, after: WebhookRecord): Promise<void> {
  try {
    await db()
      .entities.webhook.put(after)
      .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
      .go();
  } catch (error) {
    if (isConditionalFailure(error)) throw conflict('recursoDuplicado');
    throw error;
  }
}

export async function deleteWebhook(clienteId: string, operacaoId: number): Promise<void> {
  await db().entities.webhook.delete({ clienteId, operacaoId }).go();
}

/** False when this captcha signature was already used. */
export async function useCaptcha(assinatura: string, expiresAt: number): Promise<boolean> {
  try {
    await db().entities.captchaUsado.create({ assinatura, expiresAt }).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}
