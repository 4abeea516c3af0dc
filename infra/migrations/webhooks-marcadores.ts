/**
 * One-off migration of the webhook delivery log to the open markers (docs/webhooks.md "The
 * open-deliveries index", "Upgrading"). Before, a delivery item carried the index keys itself: gsi1
 * `$webhooks#clienteid_<id>` and gsi2 `$webhooks#fila_<00..15>` while open (and, before issue 26,
 * `$webhooks#lista_entregas` whatever its situation). Now only a small marker item carries them. For
 * every delivery item still in an index (found by scanning the two indexes, not the table):
 *
 * - open (PENDENTE, FALHA, PAUSADA): its marker is written (a put: again changes nothing), then the
 *   delivery leaves the indexes and says `indexada`; if it turns out delivered meanwhile, the marker
 *   goes again;
 * - delivered: it only leaves the indexes.
 *
 * Safe to run again and beside a running dispatcher: a delivery already moved is in no index, and the
 * order (marker first) never leaves an open delivery without its marker. A marker left for a delivery
 * delivered during the run is skipped and deleted by the first list or job that meets it.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/webhooks-marcadores.ts [segments]
 */
import { UpdateCommand } from '../../functions/platform/aws-direto/dynamodb';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { isConditionalFailure } from '../../functions/platform/table';
import { aberta, abrirMarcador, fecharMarcador, type Situacao } from '../../functions/webhooks/log-store';
import { varrer } from './varredura';

/** The delivery item's sort key (ElectroDB's, entity webhookEntrega version 1). */
const SK_DA_ENTREGA = '$webhookentrega_1';

/** Moves every delivery item out of both indexes, each index scanned in `segments` parallel segments; answers how many. */
export async function migrar(segments = 4): Promise<number> {
  let total = 0;
  for (const indice of ['gsi1', 'gsi2']) {
    await varrer<Antiga>({
      segments,
      indice,
      filtro: {
        FilterExpression: 'sk = :sk',
        ExpressionAttributeValues: { ':sk': SK_DA_ENTREGA },
        ProjectionExpression: 'pk, sk, deliveryId, clienteId, operacao, dataCriacao, situacao',
      },
      porItem: async (item) => {
        if (await migrarEntrega(item)) total++;
      },
    });
  }
  return total;
}

type Antiga = { pk: string; sk: string; deliveryId: string; clienteId: string; operacao: string; dataCriacao: string; situacao: Situacao };

/** One delivery: its marker when open, out of the indexes either way. False when it is gone (nothing to do). */
async function migrarEntrega(e: Antiga): Promise<boolean> {
  const abrir = aberta(e.situacao);
  if (abrir) await abrirMarcador(e);
  try {
    const { Attributes } = await dynamoDb().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk: e.pk, sk: e.sk },
        UpdateExpression: `REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk${abrir ? ' SET indexada = :sim' : ''}`,
        // Never recreate a delivery deleted since the scan.
        ConditionExpression: 'attribute_exists(pk)',
        ...(abrir ? { ExpressionAttributeValues: { ':sim': true } } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (abrir && Attributes?.situacao === 'ENTREGUE') await fecharMarcador(e.deliveryId);
    return true;
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    if (abrir) await fecharMarcador(e.deliveryId);
    return false;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`webhook deliveries moved to the open markers: ${await migrar(Number(process.argv[2] ?? 4))}`);
}
