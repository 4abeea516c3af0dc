/**
 * One-off migration of issue 36 (docs/deploy.md, "Migrations of issue 36"): the items whose partition
 * key gained a shard are moved from the form they were stored in before:
 *
 * - metering counters and day counters (`$consumo#clienteid_<id>#mes_<m>`, the shard in the sort key,
 *   or none for the oldest) → `…#shard_<n>` (shard 0 for those without), their counts added there;
 * - prepaid balance shards and statement lines (`$prepago#clienteid_<id>`) → their own partitions, the
 *   shards with the account's unit values (functions/prepago/store.ts `moverShardsAntigos`), the lines
 *   added to the new ones;
 * - monitored keys (`$monitoramento#clienteid_<id>`) → the client's shard of the key, counted
 *   (functions/monitoramento/store.ts `moverChaveAntiga`).
 *
 * Nothing is lost or counted twice meanwhile: every read also reads the old form until it is empty, a
 * move is one transaction conditioned on the old item still holding what was read (live writes change
 * only the new form, so it fails only to another run of this script moving it first), and the script
 * can run again (an item moved is gone from the old form). The
 * request log is not moved: its items are immutable and expire, so the report reads the old index
 * partition beside the new ones.
 *
 *   TABLE_NAME=<application table> AWS_PROFILE=plac npx tsx infra/migrations/chaves-particionadas.ts [segments]
 */
import { TransactWriteCommand } from '../../functions/platform/aws-direto/dynamodb';
import type { EntityItem } from 'electrodb';
import { somaNoContador, somaNoDiario } from '../../functions/consumo/store';
import { moverChaveAntiga, type chaveMonitoradaAntiga } from '../../functions/monitoramento/store';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { lerContaItem, moverShardsAntigos, somaNoExtrato } from '../../functions/prepago/store';
import { varrer } from './varredura';

export interface Movidos {
  contadores: number;
  diarios: number;
  contasPrepagas: number;
  extratos: number;
  chavesMonitoradas: number;
}

type Bruto = Record<string, unknown> & { pk: string; sk: string };

/** What kind of old-form item this is, or null (a new-form item, or another entity). */
export function formaAntiga(item: Bruto): keyof Movidos | null {
  const { pk, sk } = item;
  if (pk.startsWith('$consumo#clienteid_') && !pk.includes('#shard_') && sk.startsWith('$contador_1#')) return 'contadores';
  if (pk.startsWith('$consumo#clienteid_') && !pk.includes('#shard_') && sk.startsWith('$diario_1#')) return 'diarios';
  if (pk.startsWith('$prepago#') && !pk.includes('#shard_') && sk.startsWith('$saldoprepago_1#shard_')) return 'contasPrepagas';
  if (pk.startsWith('$prepago#') && !pk.includes('#shard_') && sk.startsWith('$extratoprepago_1#mes_')) return 'extratos';
  if (pk.startsWith('$monitoramento#') && !pk.includes('#shard_') && sk.startsWith('$chavemonitorada_1#chave_')) return 'chavesMonitoradas';
  return null;
}

/** Moves every old-form item, the table scanned in `segments` parallel segments; answers how many of each. */
export async function migrar(segments = 8): Promise<Movidos> {
  const feito: Movidos = { contadores: 0, diarios: 0, contasPrepagas: 0, extratos: 0, chavesMonitoradas: 0 };
  const contas = new Set<string>();
  await varrer<Bruto>({
    segments,
    filtro: {
      FilterExpression: 'begins_with(pk, :c) OR begins_with(pk, :p) OR begins_with(pk, :m)',
      ExpressionAttributeValues: { ':c': '$consumo#clienteid_', ':p': '$prepago#clienteid_', ':m': '$monitoramento#clienteid_' },
    },
    porItem: async (item) => {
      const forma = formaAntiga(item);
      // The old item's count, added to the new one, on the condition that it still holds it.
      if (forma === 'contadores') feito.contadores += (await moverSomando(item, ['requisicoes'], somaNoContador(item as unknown as Parameters<typeof somaNoContador>[0]))) ? 1 : 0;
      if (forma === 'diarios') feito.diarios += (await moverSomando(item, ['quantidade'], somaNoDiario(item as unknown as Parameters<typeof somaNoDiario>[0]))) ? 1 : 0;
      if (forma === 'extratos') feito.extratos += (await moverSomando(item, ['requisicoes', 'valorMilesimos'], somaNoExtrato(item as unknown as Parameters<typeof somaNoExtrato>[0]))) ? 1 : 0;
      if (forma === 'chavesMonitoradas') {
        await moverChaveAntiga(item as unknown as EntityItem<typeof chaveMonitoradaAntiga>);
        feito.chavesMonitoradas++;
      }
      if (forma === 'contasPrepagas') {
        const clienteId = item.clienteId as string;
        if (contas.has(clienteId)) return;
        contas.add(clienteId);
        const conta = await lerContaItem(clienteId);
        // Shards without an account cannot be: skipped (and reported by a count that stays short).
        if (conta && (await moverShardsAntigos(clienteId, conta.valores))) feito.contasPrepagas++;
      }
    },
  });
  return feito;
}

/**
 * One old counting item moved: deleted (by its own stored key, whatever form it has) on the condition
 * that its `campos` still hold what was read, and `soma` (the new item's addition) applied, in one
 * transaction. false when the condition failed (another run moved it first).
 */
async function moverSomando(item: Bruto, campos: readonly string[], soma: Record<string, unknown>): Promise<boolean> {
  try {
    await dynamoDb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: config.tableName,
              Key: { pk: item.pk, sk: item.sk },
              ConditionExpression: campos.map((_, i) => `#c${i} = :c${i}`).join(' AND '),
              ExpressionAttributeNames: Object.fromEntries(campos.map((c, i) => [`#c${i}`, c])),
              ExpressionAttributeValues: Object.fromEntries(campos.map((c, i) => [`:c${i}`, item[c] ?? 0])),
            },
          },
          { Update: soma as never },
        ],
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'TransactionCanceledException') return false;
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('Moved to the sharded keys of issue 36:', await migrar(Number(process.argv[2] ?? 8)));
}
