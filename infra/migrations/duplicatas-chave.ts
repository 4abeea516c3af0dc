/**
 * One-off migration of issue 38 (docs/deploy.md, "Migration of issue 38: the instalment look-up"): the
 * look-up without the instalment number (service 2 without `numeroParcela`) now reads gsi3, an index of
 * the keys only (pk issuer, recipient, due date and value; sk number and key: functions/fate/store-entities.ts
 * `bySemNumero`). Before, instalment items carried gsi2 keys, and gsi2 copies whole items: first the
 * recipient's due dates (pk `$fate#destinatariodoc_<doc>`, sk `…#vencimento_<day>#chave_<key>#numero_<n>`),
 * read by filtering the recipient's whole day, then the same composites as gsi3 has now. This scans gsi2
 * a page at a time for the instalment items (either form) and moves each to gsi3: it sets the two gsi3
 * attributes and removes the two gsi2 ones (so the item leaves gsi2's copy), the item's own key and every
 * other attribute unchanged, on the condition that its gsi2 sort key still is the one read. Until it has
 * run, the look-up reads both gsi2 forms beside gsi3 (`duplicatasSemNumero`), so nothing is missing meanwhile.
 *
 * Idempotent and resumable: a moved item is no longer in gsi2, and one moved by another run in the
 * meantime fails its condition and is skipped; a run that stopped is simply run again. Safe beside the
 * loader: it writes new instalments in gsi3 only, and a cancellation's patch touches no index key.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/duplicatas-chave.ts [segments]
 */
import { UpdateCommand } from '../../functions/platform/aws-direto/dynamodb';
import { createConversions } from 'electrodb';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { isConditionalFailure } from '../../functions/platform/table';
import { fateService } from '../../functions/fate/store-entities';
import { varrer } from './varredura';

type Antiga = { pk: string; sk: string; gsi2sk: string; emitenteCnpj: string; destinatarioDoc: string; vencimento: string; valor: number; numero: string; chave: string };

/** Moves every instalment item still in gsi2 to gsi3, gsi2 scanned in `segments` parallel segments; answers how many. */
export async function migrar(segments = 4): Promise<number> {
  let total = 0;
  await varrer<Antiga>({
    segments,
    // gsi2, not the table: it holds the instalment items (and the few other gsi2 entities), not every Fat-e.
    indice: 'gsi2',
    filtro: {
      FilterExpression: '#e = :e',
      ExpressionAttributeNames: { '#e': '__edb_e__' },
      ExpressionAttributeValues: { ':e': 'fateDuplicata' },
      ProjectionExpression: 'pk, sk, gsi2sk, emitenteCnpj, destinatarioDoc, vencimento, valor, numero, chave',
    },
    porItem: async (item) => {
      if (await reescrever(item)) total++;
    },
  });
  return total;
}

/** One instalment moved from gsi2 to gsi3, if its gsi2 sort key still is the one read. False when it was moved (or removed) since. */
async function reescrever(d: Antiga): Promise<boolean> {
  const { gsi3pk, gsi3sk } = createConversions(fateService().entities.fateDuplicata).byAccessPattern.bySemNumero.fromComposite.toKeys({
    emitenteCnpj: d.emitenteCnpj,
    destinatarioDoc: d.destinatarioDoc,
    vencimento: d.vencimento,
    valor: Number(d.valor),
    numero: d.numero,
    chave: d.chave,
  });
  try {
    await dynamoDb().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk: d.pk, sk: d.sk },
        UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk REMOVE gsi2pk, gsi2sk',
        // Never recreates an item deleted since the scan (the condition needs it), never rewrites one twice.
        ConditionExpression: 'gsi2sk = :lido',
        ExpressionAttributeValues: { ':pk': gsi3pk, ':sk': gsi3sk, ':lido': d.gsi2sk },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`instalment items moved from gsi2 to gsi3: ${await migrar(Number(process.argv[2] ?? 4))}`);
}
