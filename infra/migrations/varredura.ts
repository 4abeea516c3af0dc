import { ScanCommand, type ScanCommandInput } from '../../functions/platform/aws-direto/dynamodb';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';

/**
 * What every one-off migration does: the application table (or one of its indexes) scanned in
 * `segments` parallel segments, each page's items handed one at a time to `porItem`. A Scan is for
 * migrations only (they run once, off the request path); no route ever scans.
 */
export async function varrer<T>(o: {
  segments: number;
  indice?: string;
  filtro: Pick<ScanCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues' | 'ProjectionExpression'>;
  porItem: (item: T) => Promise<void>;
}): Promise<void> {
  await Promise.all(
    Array.from({ length: o.segments }, async (_, n) => {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await dynamoDb().send(
          new ScanCommand({ TableName: config.tableName, ...(o.indice ? { IndexName: o.indice } : {}), Segment: n, TotalSegments: o.segments, ExclusiveStartKey: start, ...o.filtro }),
        );
        for (const item of (page.Items ?? []) as T[]) await o.porItem(item);
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
}
