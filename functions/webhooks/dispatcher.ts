import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { logger } from '../platform/observability';
import { checkWebhookUrl } from './url-guard';

/**
 * Consumes the webhook queue: each message is one delivery, POSTed as JSON to the client's URL.
 * A failed delivery fails only its own record (partial batch response); SQS redelivers it after the
 * visibility timeout and, after maxReceiveCount tries, moves it to the dead-letter queue.
 */
export const deliverySchema = z.object({
  /** Stable id of the delivery: sent as a header so that receivers can ignore duplicates. */
  deliveryId: z.string().min(1),
  url: z.string().url(),
  event: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  /** Basic credentials of the client's configuration, already decrypted by the producer's key. */
  basicAuth: z.object({ user: z.string(), password: z.string() }).optional(),
});

export type WebhookDelivery = z.infer<typeof deliverySchema>;

const TIMEOUT_MS = 10_000;

export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

export async function deliver(delivery: WebhookDelivery): Promise<void> {
  const verdict = await checkWebhookUrl(delivery.url);
  if (!verdict.ok) throw new DeliveryError(`webhook URL refused (${verdict.reason})`);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'PLAC-Fat-e-Webhook/2.10.0',
    'x-plac-delivery-id': delivery.deliveryId,
    'x-plac-event': delivery.event,
  };
  if (delivery.basicAuth) {
    headers.authorization = `Basic ${Buffer.from(`${delivery.basicAuth.user}:${delivery.basicAuth.password}`).toString('base64')}`;
  }
  const response = await fetch(verdict.url, {
    method: 'POST',
    headers,
    body: JSON.stringify(delivery.payload),
    redirect: 'manual', // a redirect could lead to an internal address
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (response.status < 200 || response.status >= 300) {
    throw new DeliveryError(`webhook answered ${response.status}`);
  }
}

const processor = new BatchProcessor(EventType.SQS);

async function record(message: SQSRecord): Promise<void> {
  const parsed = deliverySchema.safeParse(JSON.parse(message.body));
  if (!parsed.success) throw new DeliveryError('malformed delivery message');
  try {
    await deliver(parsed.data);
    logger.info('webhook delivered', { deliveryId: parsed.data.deliveryId, event: parsed.data.event });
  } catch (error) {
    logger.warn('webhook delivery failed', {
      deliveryId: parsed.data.deliveryId,
      attempt: message.attributes.ApproximateReceiveCount,
      error: (error as Error).message,
    });
    throw error;
  }
}

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, record, processor, { context, throwOnFullBatchFailure: false });
