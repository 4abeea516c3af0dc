/**
 * Issue 36's migration: the Fat-e items whose partition key gained a shard are moved from where they
 * were keyed before (docs/data-model.md, "Fat-e: partitions at the national rate"):
 *
 * - the issuer's counters (`$fate#emitentecnpj_<c>#modelo_<m>`, no shard): added into shard 0 of the
 *   same issuer, model and period, and deleted, in one transaction whose delete is conditional on the
 *   values read (a counter still being added to by a Lambda of before the deploy is read again);
 * - the carriers' month total (`$fate`, sk `…#mes_<m>#shard_<s>`): added into `$fate#lista_transporte#
 *   shard_<s>` the same way;
 * - the carrier registry (`$fate`, and gsi1 `$fate`): created in its document's shard unless the loader
 *   registered the carrier there since (that item is newer), then the old one deleted;
 * - the error documents: their gsi2 entry (`$fate`) rewritten to their id's shard (the item's own key
 *   does not change), on the condition that it still is the old one.
 *
 * A counter is exact at every step: the reads add up the old partitions and the shards (store.ts), and
 * a counter moves in one transaction. Safe to run again (what was moved is no longer found) and beside
 * the running loader. Once it has run in an environment after the deploy that brought the shards,
 * nothing is keyed the old way there any more (docs/deploy.md, "Migrations of issue 36").
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/fate-particoes.ts [segments]
 */
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '../../functions/platform/aws-direto/dynamodb';
import { createConversions } from 'electrodb';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { isConditionalFailure } from '../../functions/platform/table';
import { shardDe } from '../../functions/fate/contagem-entities';
import { ERRO_SHARDS, fateService, REGISTRO_SHARDS } from '../../functions/fate/store-entities';
import { varrer } from './varredura';

export interface Migrados {
  contagemEmitente: number;
  contagemTransporte: number;
  transportador: number;
  documentoErro: number;
}

type Item = Record<string, unknown> & { pk: string; sk: string };
type Transacao = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** Moves every item keyed the old way, the table scanned in `segments` parallel segments; answers how many of each. */
export async function migrar(segments = 8): Promise<Migrados> {
  const feitos: Migrados = { contagemEmitente: 0, contagemTransporte: 0, transportador: 0, documentoErro: 0 };
  await varrer<Item>({
    segments,
    filtro: {
      // The four old forms: both kinds in the constant partition, the issuer counters without a
      // shard, the error documents whose gsi2 entry is still in the constant partition.
      FilterExpression:
        '(pk = :fate AND (begins_with(sk, :ct) OR begins_with(sk, :tr))) OR (#e = :ce AND attribute_not_exists(#shard)) OR (#e = :de AND gsi2pk = :fate)',
      ExpressionAttributeNames: { '#e': '__edb_e__', '#shard': 'shard' },
      ExpressionAttributeValues: { ':fate': '$fate', ':ct': '$contagemtransporte_1#', ':tr': '$transportador_1#', ':ce': 'contagemEmitente', ':de': 'documentoErro' },
    },
    porItem: async (item) => {
      const tipo = item.__edb_e__ as keyof Migrados;
      if (tipo === 'contagemEmitente' && (await moverContador(item, novoContadorEmitente))) feitos.contagemEmitente++;
      if (tipo === 'contagemTransporte' && (await moverContador(item, novoContadorTransporte))) feitos.contagemTransporte++;
      if (tipo === 'transportador' && (await moverTransportador(item))) feitos.transportador++;
      if (tipo === 'documentoErro' && (await moverDocumentoErro(item))) feitos.documentoErro++;
    },
  });
  return feitos;
}

/** The ElectroDB identity every item carries, so the entities recognise what the migration wrote. */
const identidade = (entidade: string) => ({ ':edbE': entidade, ':edbV': '1' });

/**
 * The update that adds an old issuer counter into shard 0 of its issuer, model and period: its
 * quantity and value ADDed, its name, UF and expiry kept when the shard already has them (newer).
 */
function novoContadorEmitente(c: Item): Transacao[number] {
  const entity = fateService().entities.contagemEmitente;
  const chave = { emitenteCnpj: String(c.emitenteCnpj), modelo: String(c.modelo), shard: 0, periodo: String(c.periodo) };
  const { pk, sk } = createConversions(entity).byAccessPattern.byEmitente.fromComposite.toKeys(chave);
  const opcionais = (['emitenteNome', 'uf', 'expiresAt'] as const).filter((a) => c[a] !== undefined);
  return {
    Update: {
      TableName: config.tableName,
      Key: { pk, sk },
      UpdateExpression: [
        'SET #edbE = :edbE, #edbV = :edbV, emitenteCnpj = :c, modelo = :m, #shard = :s, periodo = :p',
        ...opcionais.map((a) => `#${a} = if_not_exists(#${a}, :${a})`),
      ].join(', ') + ' ADD quantidade :q, valor :v',
      ExpressionAttributeNames: { '#edbE': '__edb_e__', '#edbV': '__edb_v__', '#shard': 'shard', ...Object.fromEntries(opcionais.map((a) => [`#${a}`, a])) },
      ExpressionAttributeValues: {
        ...identidade('contagemEmitente'),
        ':c': chave.emitenteCnpj,
        ':m': chave.modelo,
        ':s': 0,
        ':p': chave.periodo,
        ...Object.fromEntries(opcionais.map((a) => [`:${a}`, c[a]])),
        ':q': Number(c.quantidade ?? 0),
        ':v': Number(c.valor ?? 0),
      },
    },
  };
}

/** The update that adds an old carriers' month shard into the same shard's partition. */
function novoContadorTransporte(c: Item): Transacao[number] {
  const entity = fateService().entities.contagemTransporte;
  const chave = { lista: 'transporte', shard: Number(c.shard), mes: String(c.mes) };
  const { pk, sk } = createConversions(entity).byAccessPattern.byMes.fromComposite.toKeys(chave);
  const expira = c.expiresAt !== undefined;
  return {
    Update: {
      TableName: config.tableName,
      Key: { pk, sk },
      UpdateExpression: `SET #edbE = :edbE, #edbV = :edbV, lista = :l, #shard = :s, mes = :m${expira ? ', expiresAt = if_not_exists(expiresAt, :x)' : ''} ADD quantidade :q`,
      ExpressionAttributeNames: { '#edbE': '__edb_e__', '#edbV': '__edb_v__', '#shard': 'shard' },
      ExpressionAttributeValues: {
        ...identidade('contagemTransporte'),
        ':l': chave.lista,
        ':s': chave.shard,
        ':m': chave.mes,
        ...(expira ? { ':x': c.expiresAt } : {}),
        ':q': Number(c.quantidade ?? 0),
      },
    },
  };
}

/**
 * Adds an old counter into its shard and deletes it, in one transaction conditional on the old
 * counter still holding what was read: a counter added to meanwhile (a Lambda of before the deploy)
 * is read again and moved with its new values. False when it was already gone (moved by another run).
 */
async function moverContador(lido: Item, novo: (c: Item) => Transacao[number]): Promise<boolean> {
  let c: Item | undefined = lido;
  for (let tentativa = 1; c && tentativa <= 5; tentativa++) {
    const valores = (['quantidade', 'valor'] as const).filter((a) => a in c!);
    const condicao = valores.length ? valores.map((a) => `#${a} = :${a}Lido`).join(' AND ') : 'attribute_exists(pk)';
    try {
      await dynamoDb().send(
        new TransactWriteCommand({
          TransactItems: [
            novo(c),
            {
              Delete: {
                TableName: config.tableName,
                Key: { pk: c.pk, sk: c.sk },
                ConditionExpression: condicao,
                ...(valores.length
                  ? {
                      ExpressionAttributeNames: Object.fromEntries(valores.map((a) => [`#${a}`, a])),
                      ExpressionAttributeValues: Object.fromEntries(valores.map((a) => [`:${a}Lido`, c![a]])),
                    }
                  : {}),
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name !== 'TransactionCanceledException') throw error;
      // Its condition lost (or another transaction touched it): read it again; gone means moved.
      c = (await dynamoDb().send(new GetCommand({ TableName: config.tableName, Key: { pk: lido.pk, sk: lido.sk }, ConsistentRead: true }))).Item as Item | undefined;
    }
  }
  if (c) throw new Error(`counter ${lido.pk} ${lido.sk} kept changing: run the migration again`);
  return false;
}

/** Creates the carrier in its shard unless it is there already (registered since: newer), then deletes the old item. */
async function moverTransportador(t: Item): Promise<boolean> {
  const documento = String(t.documento);
  const nome = String(t.nome ?? '');
  try {
    await fateService()
      .entities.transportador.create({
        lista: 'transportadores',
        shard: shardDe(documento, REGISTRO_SHARDS),
        documento,
        nome,
        ...(t.nomeFolded !== undefined ? { nomeFolded: String(t.nomeFolded) } : {}),
      })
      .go();
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
  await dynamoDb().send(new DeleteCommand({ TableName: config.tableName, Key: { pk: t.pk, sk: t.sk } }));
  return true;
}

/** Moves an error document's gsi2 entry to its id's shard, if it still is in the old partition. */
async function moverDocumentoErro(d: Item): Promise<boolean> {
  const entity = fateService().entities.documentoErro;
  const shard = shardDe(String(d.id), ERRO_SHARDS);
  const { gsi2pk } = createConversions(entity).byAccessPattern.all.fromComposite.toKeys({ lista: 'erros', shard, createdAt: String(d.createdAt), id: String(d.id) });
  try {
    await dynamoDb().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk: d.pk, sk: d.sk },
        UpdateExpression: 'SET lista = :l, #shard = :s, gsi2pk = :novo',
        ConditionExpression: 'gsi2pk = :antigo',
        ExpressionAttributeNames: { '#shard': 'shard' },
        ExpressionAttributeValues: { ':l': 'erros', ':s': shard, ':novo': gsi2pk, ':antigo': '$fate' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('Fat-e items moved to their shards:', await migrar(Number(process.argv[2] ?? 8)));
}
