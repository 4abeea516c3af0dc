import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { logger } from '../platform/observability';
import { sign, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature';
import { checkWebhookUrl, type UrlVerdict } from './url-guard';

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
  /** The client's signing secret (decrypted by the producer): the delivery is signed with it. */
  signingSecret: z.string().min(16).optional(),
});

export type WebhookDelivery = z.infer<typeof deliverySchema>;

const TIMEOUT_MS = 10_000;

export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

export async function deliver(delivery: WebhookDelivery, now = new Date()): Promise<void> {
  const verdict = await checkWebhookUrl(delivery.url);
  if (!verdict.ok) throw new DeliveryError(`webhook URL refused (${verdict.reason})`);
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'PLAC-Fat-e-Webhook/2.10.0',
    'x-plac-delivery-id': delivery.deliveryId,
    'x-plac-event': delivery.event,
    [TIMESTAMP_HEADER]: String(timestamp),
  };
  if (delivery.signingSecret) headers[SIGNATURE_HEADER] = sign(delivery.signingSecret, timestamp, body);
  if (delivery.basicAuth) {
    headers.authorization = `Basic ${Buffer.from(`${delivery.basicAuth.user}:${delivery.basicAuth.password}`).toString('base64')}`;
  }
  const status = await post(verdict, headers, body);
  if (status < 200 || status >= 300) throw new DeliveryError(`webhook answered ${status}`);
}

/**
 * One POST, connecting to the address the guard checked (its `lookup` answers that address for the
 * host, whatever DNS would say now; TLS still verifies the certificate for the URL's host name). A
 * redirect is not followed: it could lead to an internal address.
 */
export function post(verdict: Extract<UrlVerdict, { ok: true }>, headers: Record<string, string>, body: string): Promise<number> {
  const pinned = verdict.address;
  const lookup: LookupFunction | undefined = pinned
    ? (_host, options, callback) => {
        if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
        else callback(null, pinned.address, pinned.family);
      }
    : undefined;
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    timeout: TIMEOUT_MS,
    ...(lookup ? { lookup } : {}),
  };
  const send = verdict.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(verdict.url, options, (res: IncomingMessage) => {
      res.resume(); // the answer's body is not read
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new DeliveryError('webhook timed out')));
    req.on('error', reject);
    req.end(body);
  });
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
