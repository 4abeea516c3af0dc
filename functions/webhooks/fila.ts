import { SendMessageBatchCommand } from '../platform/aws-direto/sqs';
import type { OperacaoWebhook } from '@plac/shared/domain';
import { sqsClient } from '../platform/aws';
import { config } from '../platform/env';

/**
 * What a producer puts on the webhook queue: one message per delivery. The message names the client
 * and the operation, never the URL or the secrets: the dispatcher reads the client's configuration
 * (URL, Basic credentials, signing secret) when it sends, so a replay or a retry after a rotation
 * goes with the configuration in force and no secret ever sits in a queue or in the log.
 */
export interface NovaEntregaWebhook {
  /** Stable and deterministic (e.g. `ESCR_FAT:<clienteId>:<chave>`): a producer run twice makes the same id. */
  deliveryId: string;
  clienteId: string;
  operacao: OperacaoWebhook;
  payload: Record<string, unknown>;
  razaoSocial?: string;
  descricao?: string;
  /** Per-client ordering: this delivery is not posted before the one with this id was delivered. */
  dependeDe?: string;
}

/** SQS takes at most 10 messages per SendMessageBatch. */
export const LOTE_SQS = 10;

/** Enqueues the deliveries in batches of 10; a batch entry SQS refuses is sent again once, then throws. */
export async function enfileirarEntregas(entregas: readonly NovaEntregaWebhook[]): Promise<void> {
  await enviarEmLotes(entregas.map((e) => JSON.stringify(e)));
}

/**
 * Message bodies onto the webhook queue, SendMessageBatch of 10; an entry SQS refuses is sent again
 * once, then throws. `emParalelo` SendMessageBatch calls at once (1: one after another): a job's batch
 * of 100 goes as 10 calls at once (functions/webhooks/jobs.ts); the queue is a standard one, with no
 * order between messages either way.
 */
export async function enviarEmLotes(corpos: readonly string[], emParalelo = 1): Promise<void> {
  const lotes = Array.from({ length: Math.ceil(corpos.length / LOTE_SQS) }, (_, k) => corpos.slice(k * LOTE_SQS, (k + 1) * LOTE_SQS));
  let proximo = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(emParalelo, lotes.length)) }, async () => {
      while (proximo < lotes.length) await enviarLote(lotes[proximo++]!);
    }),
  );
}

async function enviarLote(corpos: readonly string[]): Promise<void> {
  let lote = corpos;
  for (let tentativa = 0; lote.length > 0; tentativa++) {
    const out = await sqsClient().send(
      new SendMessageBatchCommand({
        QueueUrl: config.webhookQueueUrl,
        Entries: lote.map((e, n) => ({ Id: String(n), MessageBody: e })),
      }),
    );
    const falhas = new Set((out.Failed ?? []).map((f) => Number(f.Id)));
    if (falhas.size === 0) break;
    if (tentativa >= 1) throw new Error(`webhook queue refused ${falhas.size} deliveries`);
    lote = lote.filter((_, n) => falhas.has(n));
  }
}
