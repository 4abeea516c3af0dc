/**
 * One-off migration of issue 38 (docs/deploy.md, "Migration of issue 38: the instalment look-up"):
 * before it, an instalment item's gsi2 was the recipient's due dates (pk `$fate#destinatariodoc_<doc>`,
 * sk `…#vencimento_<day>#chave_<key>#numero_<n>`), and service 2 without the instalment number read the
 * recipient's whole day and filtered it. Now gsi2 holds every composite of the key but the number (pk
 * issuer, recipient, due date and value; sk number and key: functions/fate/store.ts `bySemNumero`). This
 * scans gsi2 a page at a time for the instalment items still keyed the old way and rewrites their two
 * gsi2 attributes (the item's own key and every other attribute stay), each on the condition that its sort
 * key still is the old one read. Until it has run, the look-up reads the old form beside the new one
 * (`duplicatasSemNumero`'s legacy path), so nothing is missing meanwhile.
 *
 * Idempotent and resumable: a rewritten item no longer matches the scan's filter, and one rewritten by
 * another run in the meantime fails its condition and is skipped; a run that stopped is simply run again.
 * Safe beside the loader: it writes new instalments in the new form, and a cancellation's patch does not
 * touch gsi2.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/duplicatas-chave.ts [segments]
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createConversions } from 'electrodb';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { isConditionalFailure } from '../../functions/platform/table';
import { fateService } from '../../functions/fate/store';
import { varrer } from './varredura';

/** The old gsi2 sort key's prefix (ElectroDB's, entity fateDuplicata version 1: the due date first); the new one starts with the number. */
const SK_ANTIGO = '$fateduplicata_1#vencimento_';

type Antiga = { pk: string; sk: string; gsi2sk: string; emitenteCnpj: string; destinatarioDoc: string; vencimento: string; valor: number; numero: string; chave: string };

/** Rewrites the gsi2 keys of every instalment item still keyed the old way, gsi2 scanned in `segments` parallel segments; answers how many. */
export async function migrar(segments = 4): Promise<number> {
  let total = 0;
  await varrer<Antiga>({
    segments,
    // gsi2, not the table: it holds the instalment items (and the few other gsi2 entities), not every Fat-e.
    indice: 'gsi2',
    filtro: {
      FilterExpression: '#e = :e AND begins_with(gsi2sk, :antigo)',
      ExpressionAttributeNames: { '#e': '__edb_e__' },
      ExpressionAttributeValues: { ':e': 'fateDuplicata', ':antigo': SK_ANTIGO },
      ProjectionExpression: 'pk, sk, gsi2sk, emitenteCnpj, destinatarioDoc, vencimento, valor, numero, chave',
    },
    porItem: async (item) => {
      if (await reescrever(item)) total++;
    },
  });
  return total;
}

/** One instalment's gsi2 keys in the new form, if its sort key still is the one read. False when it was rewritten (or removed) since. */
async function reescrever(d: Antiga): Promise<boolean> {
  const { gsi2pk, gsi2sk } = createConversions(fateService().entities.fateDuplicata).byAccessPattern.bySemNumero.fromComposite.toKeys({
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
        UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
        // Never recreates an item deleted since the scan (the condition needs it), never rewrites one twice.
        ConditionExpression: 'gsi2sk = :lido',
        ExpressionAttributeValues: { ':pk': gsi2pk, ':sk': gsi2sk, ':lido': d.gsi2sk },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`instalment items rewritten to the new gsi2 key: ${await migrar(Number(process.argv[2] ?? 4))}`);
}
