/**
 * One-off migration of issue 38 item 5 (docs/data-model.md, "Retention (issue 38)"; docs/deploy.md,
 * "Migration of issue 38: an end date on every record"). The entities below now get their end date
 * (the table's TTL, `expiresAt`) when written; the items written before have none and would be kept
 * for ever. This gives each of them the end date its store gives a new one, from the item's own date:
 *
 * - an assignment (`cessao`): five years and a month after `registradaEm`;
 * - an error document (`documentoErro`, with its two index copies): a year after `createdAt`;
 * - a webhook delivery and its marker: 490 days after `dataCriacao`; an attempt: its delivery's (read
 *   in the same partition; its own `instante` when the delivery is gone, so it follows it);
 * - a prepaid debit: five years and a month after `createdAt`; a statement line: after its month (`mes`)
 *   ends, including the lines still in the form of before issue 36.
 *
 * Each write is `SET expiresAt` on the condition that the item exists and still has none, so it never
 * changes an end date a store wrote, never recreates an item deleted since the scan, and a second run
 * (or one after a stop) only does what is left. An item whose date cannot be read is counted apart
 * (`semData`) and left as it is. An item already past its end date gets it too: DynamoDB removes it.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/fim-dos-registros.ts [segments]
 */
import { GetCommand, UpdateCommand } from '../../functions/platform/aws-direto/dynamodb';
import { expiraCessao } from '../../functions/cessao/store';
import { expiraDocumentoErro } from '../../functions/fate/documentos-erro-store';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { isConditionalFailure } from '../../functions/platform/table';
import { DIAS_FISCAIS, expiraAposDias } from '../../functions/platform/retencao';
import { expiraExtrato } from '../../functions/prepago/store';
import { JANELA_DE_REENVIO_DIAS } from '../../functions/webhooks/log-store';
import { varrer } from './varredura';

type Item = Record<string, unknown> & { pk: string; sk: string };

/**
 * Issue 38's end dates of the webhook log and the prepaid debits, kept here as they were: items this
 * migration finds were written before the evidence archive (issue 41), which shortened both, and
 * nothing archived them yet; the shorter dates would end them before the archive's first runs copy them.
 */
const expiraEntrega = (dataCriacao: string) => expiraAposDias(dataCriacao, JANELA_DE_REENVIO_DIAS + 400);
const expiraDebito = (createdAt: string) => expiraAposDias(createdAt, DIAS_FISCAIS);

/** The delivery item's sort key (ElectroDB's, entity webhookEntrega version 1), beside its attempts. */
const SK_DA_ENTREGA = '$webhookentrega_1';

/** An attempt ends with its delivery: the delivery's creation, or, the delivery gone, the attempt's own instant. */
async function criacaoDaEntrega(t: Item): Promise<string> {
  const { Item: entrega } = await dynamoDb().send(
    new GetCommand({ TableName: config.tableName, Key: { pk: t.pk, sk: SK_DA_ENTREGA }, ProjectionExpression: 'dataCriacao' }),
  );
  return typeof entrega?.dataCriacao === 'string' ? entrega.dataCriacao : String(t.instante);
}

/**
 * Each entity's date (`data`: read from the item, or for an attempt its delivery's) and its end date
 * from it (`fim`: the function its store gives a new item), by ElectroDB's entity name (`__edb_e__`)
 * and the service its keys start with (`$<service>#`).
 */
interface Regra {
  servico: string;
  atributos: string[];
  data: (i: Item) => unknown;
  fim: (data: string) => number;
}
type Entidade = 'cessao' | 'documentoErro' | 'webhookEntrega' | 'webhookMarcador' | 'webhookTentativa' | 'debitoPrepago' | 'extratoPrepago';
const FIM: Record<Entidade, Regra> = {
  cessao: { servico: 'cessao', atributos: ['registradaEm'], data: (i) => i.registradaEm, fim: expiraCessao },
  documentoErro: { servico: 'fate', atributos: ['createdAt'], data: (i) => i.createdAt, fim: expiraDocumentoErro },
  webhookEntrega: { servico: 'webhooks', atributos: ['dataCriacao'], data: (i) => i.dataCriacao, fim: expiraEntrega },
  webhookMarcador: { servico: 'webhooks', atributos: ['dataCriacao'], data: (i) => i.dataCriacao, fim: expiraEntrega },
  webhookTentativa: { servico: 'webhooks', atributos: ['instante'], data: criacaoDaEntrega, fim: expiraEntrega },
  debitoPrepago: { servico: 'prepago', atributos: ['createdAt'], data: (i) => i.createdAt, fim: expiraDebito },
  extratoPrepago: { servico: 'prepago', atributos: ['mes'], data: (i) => i.mes, fim: expiraExtrato },
};

/** The end date from a date read, or null when it is no date (the store functions refuse an invalid instant). */
function fimDe(fim: (data: string) => number, data: unknown): number | null {
  if (typeof data !== 'string') return null;
  try {
    return fim(data);
  } catch {
    return null;
  }
}

export type Migrados = Record<Entidade | 'semData', number>;

/** Gives every item of those entities without an end date its end date, the table scanned in `segments` parallel segments; answers how many of each. */
export async function migrar(segments = 8): Promise<Migrados> {
  const feitos = Object.fromEntries([...Object.keys(FIM), 'semData'].map((k) => [k, 0])) as Migrados;
  const entidades = Object.keys(FIM);
  const atributos = [...new Set(Object.values(FIM).flatMap((f) => f.atributos))];
  await varrer<Item>({
    segments,
    filtro: {
      FilterExpression: `#e IN (${entidades.map((_, n) => `:e${n}`).join(', ')}) AND attribute_not_exists(#ttl)`,
      ExpressionAttributeNames: { '#e': '__edb_e__', '#ttl': 'expiresAt', ...Object.fromEntries(atributos.map((a, n) => [`#a${n}`, a])) },
      ExpressionAttributeValues: Object.fromEntries(entidades.map((e, n) => [`:e${n}`, e])),
      ProjectionExpression: ['pk', 'sk', '#e', ...atributos.map((_, n) => `#a${n}`)].join(', '),
    },
    porItem: async (item) => {
      const entidade = String(item.__edb_e__) as Entidade;
      const regra = (FIM as Partial<Record<string, Regra>>)[entidade];
      // Another service's entity of the same name is not one of these.
      if (!regra || !item.pk.startsWith(`$${regra.servico}#`)) return;
      const expiresAt = fimDe(regra.fim, await regra.data(item));
      if (expiresAt === null) {
        feitos.semData++;
        return;
      }
      if (await darFim(item, expiresAt)) feitos[entidade]++;
    },
  });
  return feitos;
}

/** Sets the item's end date if it still has none; false when it has one (written meanwhile) or is gone. */
async function darFim(item: Item, expiresAt: number): Promise<boolean> {
  try {
    await dynamoDb().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: 'SET #ttl = :t',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#ttl)',
        ExpressionAttributeNames: { '#ttl': 'expiresAt' },
        ExpressionAttributeValues: { ':t': expiresAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('Records given their end date (issue 38 item 5):', await migrar(Number(process.argv[2] ?? 8)));
}
