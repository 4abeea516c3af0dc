/**
 * One-off migration for a table that holds Fat-e written before the counters and links
 * (docs/data-model.md, "Fat-e: counters and links"): every Fat-e item without a `contagem` mark leaves
 * gsi1/gsi2 (its index attributes are removed), gets its five-year `expiresAt`, and goes through the
 * counting transaction (`contabilizar`), which writes its links and counters exactly once. Safe to run
 * again, and beside a running loader: both only move a mark conditionally.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/contagem-fate.ts [segments]
 */
import { UpdateCommand } from '../../functions/platform/aws-direto/dynamodb';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { contabilizar } from '../../functions/fate/fate-store';
import { expiraEm } from '../../functions/fate/store-entities';
import { varrer } from './varredura';

/** Migrates every Fat-e not yet counted, the table scanned in `segments` parallel segments; answers how many. */
export async function migrar(segments = 8): Promise<number> {
  let done = 0;
  await varrer<{ pk: string; sk: string; chave: string; emissao?: string; expiresAt?: number }>({
    segments,
    filtro: {
      FilterExpression: 'sk = :sk AND attribute_not_exists(contagem)',
      ExpressionAttributeValues: { ':sk': '$fate_1' },
      ProjectionExpression: 'pk, sk, chave, emissao, expiresAt',
    },
    porItem: async (item) => {
      const emissao = item.emissao;
      await dynamoDb().send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: `REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk${!item.expiresAt && emissao ? ' SET expiresAt = :e' : ''}`,
          ...(!item.expiresAt && emissao ? { ExpressionAttributeValues: { ':e': expiraEm(emissao) } } : {}),
        }),
      );
      await contabilizar(item.chave);
      done++;
    },
  });
  return done;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Fat-e counted and linked: ${await migrar(Number(process.argv[2] ?? 8))}`);
}
