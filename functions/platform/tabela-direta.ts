import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from './aws-direto/dynamodb';
import { dynamoDb } from './aws';
import { config } from './env';
import { motivosDoCancelamento, type TransactionOutcome } from './escritas';

/**
 * The table without its table layer (issue 39): the items of an ElectroDB model read and written with
 * plain GetItem, Query, PutItem, UpdateItem, DeleteItem and TransactWriteItems, for the paths a cold
 * start must not pay ElectroDB's 190 KiB for: the integrator's look-up by key (its quota, its caller,
 * the Fat-e and its assignments, its charge) and the password logins (the user, the failed attempts,
 * the second factor's challenge, the session).
 *
 * It is handed the same model object the context's ElectroDB entity is built from (each context's
 * `modelos.ts`), and writes what ElectroDB writes for it: the index keys (`$service#attr_value…` and
 * `$entity_version#attr_value…`, lower-cased unless the key's casing says otherwise), the entity's marks
 * `__edb_e__` and `__edb_v__`, and the attributes as given. It reads back what ElectroDB answers: the
 * model's attributes only (sets as arrays), and nothing of another entity. tabela-direta.test.ts holds
 * every key and expression to ElectroDB's own `params()` for the models that use it, and
 * tabela-direta.int.test.ts the items each writes to the items ElectroDB writes.
 *
 * Only what those paths need: key reads, a Query of one partition, creates, upserts that SET and ADD,
 * patches of attributes outside every key, deletes by key.
 */
export interface Modelo {
  readonly model: { readonly entity: string; readonly version: string; readonly service: string };
  readonly attributes: {
    readonly [nome: string]: { readonly type: unknown; readonly items?: unknown; readonly watch?: unknown; readonly set?: unknown; readonly required?: boolean; readonly default?: unknown };
  };
  readonly indexes: { readonly [nome: string]: Indice };
}
interface Indice {
  readonly index?: string;
  readonly pk: ParteDaChave;
  readonly sk: ParteDaChave;
}
interface ParteDaChave {
  readonly field: string;
  readonly composite: readonly string[];
  readonly casing?: 'none' | 'lower' | 'upper' | 'default';
}

type Valores = Record<string, unknown>;

/** The table's index (the one without `index`): its key is the item's key. */
function indicePrincipal(m: Modelo): Indice {
  const indice = Object.values(m.indexes).find((i) => !i.index);
  if (!indice) throw new Error(`model ${m.model.entity} has no table index`);
  return indice;
}

function caixa(texto: string, casing: ParteDaChave['casing']): string {
  if (casing === 'none') return texto;
  return casing === 'upper' ? texto.toUpperCase() : texto.toLowerCase();
}

/** A key's text: the prefix, then `#attr_value` for each composite attribute; undefined when one is missing. */
function texto(prefixo: string, parte: ParteDaChave, v: Valores): string | undefined {
  let s = prefixo;
  for (const atributo of parte.composite) {
    const valor = v[atributo];
    if (valor === undefined || valor === null) return undefined;
    s += `#${atributo}_${String(valor)}`;
  }
  return caixa(s, parte.casing);
}

const prefixoPk = (m: Modelo) => `$${m.model.service}`;
const prefixoSk = (m: Modelo) => `$${m.model.entity}_${m.model.version}`;

/** The values of an index's key fields, or undefined when an attribute of them is missing (ElectroDB leaves a sparse index out). */
function chaveDoIndice(m: Modelo, indice: Indice, v: Valores): Record<string, string> | undefined {
  const pk = texto(prefixoPk(m), indice.pk, v);
  const sk = texto(prefixoSk(m), indice.sk, v);
  return pk === undefined || sk === undefined ? undefined : { [indice.pk.field]: pk, [indice.sk.field]: sk };
}

/** The item's key (the table index's pk and sk). */
export function chave(m: Modelo, v: Valores): Record<string, string> {
  const k = chaveDoIndice(m, indicePrincipal(m), v);
  if (!k) throw new Error(`a key of ${m.model.entity} needs ${[...indicePrincipal(m).pk.composite, ...indicePrincipal(m).sk.composite].join(', ')}`);
  return k;
}

/** The secondary indexes' key fields of the item, as ElectroDB sets them on every write that has their attributes. */
function chavesSecundarias(m: Modelo, v: Valores): Record<string, string> {
  const campos: Record<string, string> = {};
  for (const indice of Object.values(m.indexes)) {
    if (indice.index) Object.assign(campos, chaveDoIndice(m, indice, v));
  }
  return campos;
}

const marcas = (m: Modelo) => ({ __edb_e__: m.model.entity, __edb_v__: m.model.version });

const pertence = (m: Modelo, item: Valores) => item.__edb_e__ === m.model.entity && item.__edb_v__ === m.model.version;

/** What ElectroDB answers for an item: the model's attributes present on it, a set as an array. */
export function lido<T>(m: Modelo, item: Valores): T {
  const fora: Valores = {};
  for (const nome of Object.keys(m.attributes)) {
    const valor = item[nome];
    if (valor !== undefined) fora[nome] = valor instanceof Set ? [...valor] : valor;
  }
  return fora as T;
}

/** The item of this key, as ElectroDB's `get` answers it (null when absent or another entity's). */
export async function ler<T>(m: Modelo, v: Valores, opcoes: { consistente?: boolean } = {}): Promise<T | null> {
  const { Item } = await dynamoDb().send(
    new GetCommand({ TableName: config.tableName, Key: chave(m, v), ...(opcoes.consistente ? { ConsistentRead: true } : {}) }),
  );
  return Item && pertence(m, Item) ? lido<T>(m, Item) : null;
}

/**
 * Every item of the model in one partition of an index (its pk attributes given), as ElectroDB's
 * query of an index answers it when asked for every page: the sort key begins with the entity's prefix up
 * to the first sort-key attribute. Only for partitions known to be small (the callers say why).
 */
export async function consultarParticao<T>(m: Modelo, nomeDoIndice: string, v: Valores): Promise<T[]> {
  const consulta = consultaDaParticao(m, nomeDoIndice, v);
  const itens: T[] = [];
  let ExclusiveStartKey: Valores | undefined;
  do {
    const pagina = await dynamoDb().send(new QueryCommand({ ...consulta, ExclusiveStartKey }));
    for (const item of pagina.Items ?? []) if (pertence(m, item)) itens.push(lido<T>(m, item));
    ExclusiveStartKey = pagina.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return itens;
}

/** The Query of `consultarParticao`: ElectroDB's key condition for an index's partition. */
export function consultaDaParticao(m: Modelo, nomeDoIndice: string, v: Valores) {
  const indice = m.indexes[nomeDoIndice];
  if (!indice) throw new Error(`model ${m.model.entity} has no index ${nomeDoIndice}`);
  const pk = texto(prefixoPk(m), indice.pk, v);
  if (pk === undefined) throw new Error(`a query of ${m.model.entity}.${nomeDoIndice} needs ${indice.pk.composite.join(', ')}`);
  // A sort key without attributes is the entity's prefix itself: equal to it, not begun by it.
  const semAtributos = indice.sk.composite.length === 0;
  const inicio = caixa(semAtributos ? prefixoSk(m) : `${prefixoSk(m)}#${indice.sk.composite[0]}_`, indice.sk.casing);
  return {
    TableName: config.tableName,
    ...(indice.index ? { IndexName: indice.index } : {}),
    KeyConditionExpression: semAtributos ? '#pk = :pk and #sk1 = :sk1' : '#pk = :pk and begins_with(#sk1, :sk1)',
    ExpressionAttributeNames: { '#pk': indice.pk.field, '#sk1': indice.sk.field },
    ExpressionAttributeValues: { ':pk': pk, ':sk1': inicio },
  };
}

type ItemDeTransacao = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Writes only for models whose attributes are all given: an attribute ElectroDB derives on every write
 * (`watch`/`set`, as a user's list and group) would be missing here, so such a model is written through
 * its entity, and only read here.
 */
function exigirSemDerivados(m: Modelo): void {
  const derivado = Object.entries(m.attributes).find(([, a]) => a.watch !== undefined || a.set !== undefined);
  if (derivado) throw new Error(`${m.model.entity} derives ${derivado[0]} on every write: write it through its ElectroDB entity`);
}

/**
 * A whole item as ElectroDB's `create` completes it: an attribute not given takes its model's `default`,
 * and a required one still missing is refused (ElectroDB throws there too).
 */
function completo(m: Modelo, v: Valores): Valores {
  const item: Valores = { ...v };
  for (const [nome, a] of Object.entries(m.attributes)) {
    if (item[nome] === undefined && a.default !== undefined) item[nome] = typeof a.default === 'function' ? (a.default as () => unknown)() : a.default;
    if (item[nome] === undefined && a.required) throw new Error(`${m.model.entity} requires ${nome}`);
  }
  return item;
}

/** ElectroDB's `create`: the whole item with its keys and marks, refused when an item has that key. */
export function criar(m: Modelo, dados: Valores): ItemDeTransacao {
  exigirSemDerivados(m);
  const v = completo(m, dados);
  const k = chave(m, v);
  const [pk, sk] = Object.keys(k) as [string, string];
  return {
    Put: {
      TableName: config.tableName,
      Item: { ...paraGravar(m, v), ...k, ...chavesSecundarias(m, v), ...marcas(m) },
      ConditionExpression: 'attribute_not_exists(#pk) AND attribute_not_exists(#sk)',
      ExpressionAttributeNames: { '#pk': pk, '#sk': sk },
    },
  };
}

/** The values as they are written: none undefined, a set attribute's array as a set (DynamoDB's SS or NS, as ElectroDB writes it). */
function paraGravar(m: Modelo, v: Valores): Valores {
  const fora: Valores = {};
  for (const [nome, x] of Object.entries(v)) {
    if (x !== undefined) fora[nome] = Array.isArray(x) && m.attributes[nome]?.type === 'set' ? new Set(x) : x;
  }
  return fora;
}

/** What an upsert writes besides its key: `set` replaces, `add` adds to a number or a set (an array given is a set). */
export interface Mudanca {
  set?: Valores;
  add?: Valores;
}

/**
 * ElectroDB's `upsert(v).add(…).set(…)`: SET the marks, the attributes and the secondary index keys,
 * ADD the counters; the item is created when absent. The UpdateItem's parts, for a transaction or alone.
 */
export function partesDoUpsert(m: Modelo, v: Valores, mudanca: Mudanca) {
  exigirSemDerivados(m);
  const nomes: Record<string, string> = {};
  const valores: Valores = {};
  const sets: string[] = [];
  const adds: string[] = [];
  const definir = (nome: string, valor: unknown) => {
    nomes[`#${nome}`] = nome;
    valores[`:${nome}_u0`] = valor;
    sets.push(`#${nome} = :${nome}_u0`);
  };
  for (const [nome, valor] of Object.entries({ ...marcas(m), ...paraGravar(m, v), ...paraGravar(m, mudanca.set ?? {}) })) definir(nome, valor);
  for (const [nome, valor] of Object.entries(chavesSecundarias(m, { ...v, ...mudanca.set }))) definir(nome, valor);
  for (const [nome, valor] of Object.entries(mudanca.add ?? {})) {
    nomes[`#${nome}`] = nome;
    valores[`:${nome}_u0`] = Array.isArray(valor) ? new Set(valor) : valor;
    adds.push(`#${nome} :${nome}_u0`);
  }
  return {
    TableName: config.tableName,
    Key: chave(m, v),
    UpdateExpression: `SET ${sets.join(', ')}${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
    ExpressionAttributeNames: nomes,
    ExpressionAttributeValues: valores,
  };
}

export function upsert(m: Modelo, v: Valores, mudanca: Mudanca): ItemDeTransacao {
  return { Update: partesDoUpsert(m, v, mudanca) };
}

/** An upsert alone, answering the item as it is after it (ElectroDB's `.go({ response: 'all_new' })`). */
export async function upsertSozinho<T>(m: Modelo, v: Valores, mudanca: Mudanca): Promise<T> {
  const { Attributes } = await dynamoDb().send(new UpdateCommand({ ...partesDoUpsert(m, v, mudanca), ReturnValues: 'ALL_NEW' }));
  return lido<T>(m, Attributes ?? {});
}

/**
 * A transaction of creates and upserts, answered as ElectroDB's `transaction.write(…).go()` answers:
 * cancelled or not, and each item's reason (`ConditionalCheckFailed`, `TransactionConflict`, 'None').
 */
export async function transacao(itens: ItemDeTransacao[]): Promise<TransactionOutcome> {
  try {
    await dynamoDb().send(new TransactWriteCommand({ TransactItems: itens }));
    return { canceled: false, data: itens.map(() => ({})) };
  } catch (error) {
    const motivos = motivosDoCancelamento(error);
    if (!motivos) throw error;
    return { canceled: true, data: motivos.map((code) => ({ rejected: code !== 'None', code })) };
  }
}

/** ElectroDB's `create(v).go()` alone: refused (a conditional failure) when an item has that key. */
export async function gravarNovo(m: Modelo, v: Valores): Promise<void> {
  await dynamoDb().send(new PutCommand(criar(m, v).Put!));
}

/**
 * ElectroDB's `patch(key).set(mudanca)`: SET the attributes, the key's own attributes and the marks, on
 * condition that the item exists. Only for attributes outside every index key (ElectroDB would also
 * rewrite the keys of an index they compose): one of them is refused here.
 */
export function partesDoPatch(m: Modelo, v: Valores, mudanca: Valores) {
  exigirSemDerivados(m);
  const emChave = Object.values(m.indexes).flatMap((i) => [...i.pk.composite, ...i.sk.composite]);
  const proibido = Object.keys(mudanca).find((nome) => emChave.includes(nome));
  if (proibido) throw new Error(`a patch of ${m.model.entity} may not set ${proibido}, part of an index key`);
  const k = chave(m, v);
  const [pk, sk] = Object.keys(k) as [string, string];
  const nomes: Record<string, string> = { '#pk': pk, '#sk': sk };
  const valores: Valores = {};
  const sets: string[] = [];
  const principal = indicePrincipal(m);
  const daChave = Object.fromEntries([...principal.pk.composite, ...principal.sk.composite].map((nome) => [nome, v[nome]]));
  for (const [nome, valor] of Object.entries({ ...paraGravar(m, mudanca), ...paraGravar(m, daChave), ...marcas(m) })) {
    nomes[`#${nome}`] = nome;
    valores[`:${nome}_u0`] = valor;
    sets.push(`#${nome} = :${nome}_u0`);
  }
  return {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: nomes,
    ExpressionAttributeValues: valores,
    TableName: config.tableName,
    Key: k,
    ConditionExpression: 'attribute_exists(#pk) AND attribute_exists(#sk)',
  };
}

export async function atualizar(m: Modelo, v: Valores, mudanca: Valores): Promise<void> {
  await dynamoDb().send(new UpdateCommand(partesDoPatch(m, v, mudanca)));
}

/** ElectroDB's `delete(key).go()`: the item of this key is removed (nothing happens when there is none). */
export async function apagar(m: Modelo, v: Valores): Promise<void> {
  await dynamoDb().send(new DeleteCommand({ Key: chave(m, v), TableName: config.tableName }));
}
