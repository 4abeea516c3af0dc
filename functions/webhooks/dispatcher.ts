import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { logger } from '../platform/observability';
import * as log from './log-store';
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
  /** For the delivery log and the monitoring screen: whose delivery it is and what it tells. */
  clienteId: z.string().min(1).max(64).optional(),
  razaoSocial: z.string().max(200).optional(),
  descricao: z.string().max(300).optional(),
});

export type WebhookDelivery = z.infer<typeof deliverySchema>;

const TIMEOUT_MS = 10_000;

export class DeliveryError extends Error {
  override name = 'DeliveryError';
  /** The receiver's HTTP status, when it answered at all. */
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

export async function deliver(delivery: WebhookDelivery, now = new Date()): Promise<number> {
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
  if (status < 200 || status >= 300) throw new DeliveryError(`webhook answered ${status}`, status);
  return status;
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

/**
 * One SQS receive of a delivery: logged (functions/webhooks/log-store.ts) before and after the POST.
 * A delivery the log already has as delivered is not sent again (SQS delivers at least once).
 */
async function record(message: SQSRecord): Promise<void> {
  const parsed = deliverySchema.safeParse(safeJson(message.body));
  if (!parsed.success) throw new DeliveryError('malformed delivery message');
  const delivery = parsed.data;
  const recebimento = Number(message.attributes.ApproximateReceiveCount) || 1;
  const before = await log.lerEntrega(delivery.deliveryId);
  if (before?.situacao === 'ENTREGUE') {
    logger.info('webhook already delivered: not sent again', { deliveryId: delivery.deliveryId });
    return;
  }
  if (!before) await log.registrarEntrega(entradaDoLog(delivery, new Date()));
  const started = Date.now();
  const instante = new Date(started).toISOString();
  let outcome: { status?: number; erro?: string };
  try {
    outcome = { status: await deliver(delivery) };
  } catch (error) {
    const status = error instanceof DeliveryError ? error.status : undefined;
    outcome = status !== undefined ? { status } : { erro: (error as Error).message.slice(0, 200) };
  }
  const tentativa = { deliveryId: delivery.deliveryId, mensagemId: message.messageId, recebimento, instante, latenciaMs: Date.now() - started, ...outcome };
  try {
    await log.registrarTentativa(tentativa);
  } catch (error) {
    // A delivery that reached its receiver is not sent again because the log could not be written.
    logger.error('webhook delivery log write failed', { deliveryId: delivery.deliveryId, error: (error as Error).message });
  }
  if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) {
    logger.info('webhook delivered', { deliveryId: delivery.deliveryId, event: delivery.event });
    return;
  }
  logger.warn('webhook delivery failed', { deliveryId: delivery.deliveryId, attempt: recebimento, status: outcome.status, error: outcome.erro });
  throw new DeliveryError(`webhook delivery failed (${outcome.status ?? outcome.erro})`, outcome.status);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The log's item of a new delivery: the body as sent, never the credentials or the signing secret. */
export function entradaDoLog(delivery: WebhookDelivery, now: Date): log.NovaEntrega {
  return {
    deliveryId: delivery.deliveryId,
    clienteId: delivery.clienteId ?? log.SEM_CLIENTE,
    ...(delivery.razaoSocial ? { razaoSocial: delivery.razaoSocial } : {}),
    operacao: delivery.event,
    descricao: delivery.descricao ?? delivery.event,
    body: JSON.stringify(delivery.payload),
    url: delivery.url,
    dataCriacao: now.toISOString(),
  };
}

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, record, processor, { context, throwOnFullBatchFailure: false });
