/**
 * One-off migration for a table that holds Fat-e written before the counters and links
 * (docs/data-model.md, "Fat-e: counters and links"): every Fat-e item without a `contagem` mark leaves
 * gsi1/gsi2 (its index attributes are removed), gets its five-year `expiresAt`, and goes through the
 * counting transaction (`contabilizar`), which writes its links and counters exactly once. Safe to run
 * again, and beside a running loader: both only move a mark conditionally.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/contagem-fate.ts [segments]
 */
import { ScanCommand, UpdateItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { contabilizar, expiraEm } from '../../functions/fate/store';

/** Migrates every Fat-e not yet counted, the table scanned in `segments` parallel segments; answers how many. */
export async function migrar(segments = 8): Promise<number> {
  const counts = await Promise.all(Array.from({ length: segments }, (_, n) => segment(n, segments)));
  return counts.reduce((s, c) => s + c, 0);
}

async function segment(n: number, segments: number): Promise<number> {
  let done = 0;
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await dynamoDb().send(
      new ScanCommand({
        TableName: config.tableName,
        Segment: n,
        TotalSegments: segments,
        ExclusiveStartKey: start,
        FilterExpression: 'sk = :sk AND attribute_not_exists(contagem)',
        ExpressionAttributeValues: { ':sk': { S: '$fate_1' } },
        ProjectionExpression: 'pk, sk, chave, emissao, expiresAt',
      }),
    );
    for (const item of page.Items ?? []) {
      const emissao = item.emissao?.S;
      await dynamoDb().send(
        new UpdateItemCommand({
          TableName: config.tableName,
          Key: { pk: item.pk!, sk: item.sk! },
          UpdateExpression: `REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk${!item.expiresAt && emissao ? ' SET expiresAt = :e' : ''}`,
          ...(!item.expiresAt && emissao ? { ExpressionAttributeValues: { ':e': { N: String(expiraEm(emissao)) } } } : {}),
        }),
      );
      await contabilizar(item.chave!.S!);
      done++;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return done;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Fat-e counted and linked: ${await migrar(Number(process.argv[2] ?? 8))}`);
}
