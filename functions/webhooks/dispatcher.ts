import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { ChangeMessageVisibilityCommand } from '../platform/aws-direto/sqs';
import { OPERACOES_WEBHOOK } from '@plac/shared/domain';
import { webhookParaEntrega } from '../clientes';
import { sqsClient } from '../platform/aws';
import { countBusiness } from '../platform/business-metrics';
import { config } from '../platform/env';
import { logger } from '../platform/observability';
import { CacheComValidade } from './cache';
import * as endpoints from './endpoint-store';
import { esperaApos, esperaConfigurada } from './espera';
import { ehMensagemDePasso, passoDaFila } from './jobs';
import * as log from './log-store';
import { medirEntregue } from './medicao';
import { deliverySchema, type WebhookDelivery } from '@plac/shared/contracts/fila-webhooks';
import { avaliarPausa } from './pausa';
import { sign, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature';
import { checkWebhookUrl, type UrlVerdict } from './url-guard';


/**
 * Consumes the webhook queue: each message is one delivery, POSTed as JSON to the client's URL.
 * A failed delivery fails only its own record (partial batch response) after setting its own wait
 * before the next attempt (functions/webhooks/espera.ts); after the queue's last receive it moves to
 * the dead-letter queue.
 *
 * A message names the client and the operation (functions/webhooks/fila.ts; its schema is in
 * mensagem.ts); the URL, the Basic credentials and the signing secret are read from the client's
 * configuration when it is sent, so no secret travels in the queue or sits in the log, and a replay
 * goes with the configuration in force. A message that names its own `url` (the platform's proof, the
 * tests) is sent there unsigned.
 */

const TIMEOUT_MS = 10_000;

export class DeliveryError extends Error {
  override name = 'DeliveryError';
  /** The receiver's HTTP status, when it answered at all. */
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/** Where a delivery goes and how: the client's configuration at send time, or the message's own URL. */
export interface Destino {
  url: string;
  basicAuth?: { user: string; password: string };
  signingSecret?: string;
  /** Whom to tell when the endpoint is paused. */
  email?: string;
}

/**
 * How long a container keeps a client's configuration of an operation (URL, credentials, signing
 * secret, e-mail): a change or a secret's rotation reaches the deliveries within this delay
 * (docs/webhooks.md "A delivery"). The configuration and the secret sit in the client's partition
 * (`$clientes#clienteid_<id>`); read per delivery they took about 1 RCU of it per delivery (67 % of
 * its reads at 2,000 deliveries a second). Kept here they are read at most once per 5 s per container
 * and operation: containers ÷ 5 s reads a second (e.g. ≤ 200 RCU/s with the account's 1,000
 * concurrent executions all sending to one client), whatever the delivery rate. No longer than the
 * pause list's copy (endpoint-store.ts PAUSAS_VALIDADE_MS), so a resume's wait covers both.
 */
export const DESTINO_VALIDADE_MS = 5_000;

const destinos = new CacheComValidade<Destino | null>(DESTINO_VALIDADE_MS);

export async function destinoDe(delivery: WebhookDelivery): Promise<Destino | null> {
  if (delivery.url) return { url: delivery.url };
  const operacao = OPERACOES_WEBHOOK.find((o) => o.operacao === delivery.operacao);
  const clienteId = delivery.clienteId;
  if (!operacao || !clienteId) return null;
  return destinos.obter(`${operacao.id}#${clienteId}`, () => webhookParaEntrega(clienteId, operacao.id));
}

export async function deliver(delivery: WebhookDelivery, destino: Destino, now = new Date()): Promise<number> {
  const verdict = await checkWebhookUrl(destino.url);
  if (!verdict.ok) throw new DeliveryError(`webhook URL refused (${verdict.reason})`);
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'PLAC-Fat-e-Webhook/2.10.0',
    'x-plac-delivery-id': delivery.deliveryId,
    'x-plac-event': delivery.operacao,
    [TIMESTAMP_HEADER]: String(timestamp),
  };
  if (destino.signingSecret) headers[SIGNATURE_HEADER] = sign(destino.signingSecret, timestamp, body);
  if (destino.basicAuth) {
    headers.authorization = `Basic ${Buffer.from(`${destino.basicAuth.user}:${destino.basicAuth.password}`).toString('base64')}`;
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

type Resultado = { status?: number; erro?: string; doEndpoint: boolean };

/**
 * One SQS receive of a delivery, logged (functions/webhooks/log-store.ts) before and after the POST.
 * A delivery the log already has as delivered is not sent again (SQS delivers at least once); one
 * whose endpoint is paused is held; one that depends on another waits until that one is delivered.
 */
async function record(message: SQSRecord): Promise<void> {
  const corpo = safeJson(message.body);
  // A step of a resume or replay-all job (functions/webhooks/jobs.ts): a throw brings it back.
  if (ehMensagemDePasso(corpo)) return passoDaFila(corpo);
  const parsed = deliverySchema.safeParse(corpo);
  if (!parsed.success) throw new DeliveryError('malformed delivery message');
  const delivery = parsed.data;
  const recebimento = Number(message.attributes.ApproximateReceiveCount) || 1;
  const before = await log.lerEntrega(delivery.deliveryId);
  if (before?.situacao === 'ENTREGUE') {
    logger.info('webhook already delivered: not sent again', { deliveryId: delivery.deliveryId });
    // The marker of a receive that stopped between recording the delivery and deleting it.
    if (before.indexada) await log.fecharMarcador(delivery.deliveryId);
    // A receive after a metering that failed: metered now (once per delivery id, whatever repeats).
    if (delivery.clienteId && !delivery.url) await medir(delivery);
    return;
  }
  const destino = await destinoDe(delivery);
  const dataCriacao = before?.dataCriacao ?? new Date().toISOString();
  const entrada = entradaDoLog(delivery, destino?.url ?? '', new Date(dataCriacao));
  if (!before) await log.registrarEntrega(entrada);
  // What the log's writes need to open or close the delivery's marker (log-store.ts).
  const chaves = { clienteId: before?.clienteId ?? entrada.clienteId, operacao: before?.operacao ?? entrada.operacao, dataCriacao, indexada: before?.indexada };
  const endpoint = delivery.clienteId && !delivery.url ? { clienteId: delivery.clienteId, operacao: delivery.operacao } : null;
  // Held while paused; posted again once a resume job has marked the pause (it deletes it last). The
  // pause list as this container last read it, at most PAUSAS_VALIDADE_MS ago (endpoint-store.ts).
  if (endpoint && endpoints.retendo(await endpoints.pausaEmVigor(endpoint.clienteId, endpoint.operacao))) {
    await log.marcarPausada({ deliveryId: delivery.deliveryId, ...chaves });
    logger.info('webhook held: its endpoint is paused', { deliveryId: delivery.deliveryId });
    return;
  }

  const started = Date.now();
  const mensagem = { deliveryId: delivery.deliveryId, mensagemId: message.messageId, recebimento, instante: new Date(started).toISOString() };
  // Logged before the POST: a process that dies while the receiver answers leaves the attempt in the log.
  await log.anunciarTentativa(mensagem, dataCriacao);
  const outcome = await tentar(delivery, destino);
  const tentativa = { ...mensagem, latenciaMs: Date.now() - started, ...(outcome.status !== undefined ? { status: outcome.status } : {}), ...(outcome.erro ? { erro: outcome.erro } : {}) };
  try {
    await log.registrarTentativa(tentativa, chaves);
  } catch (error) {
    // A delivery that reached its receiver is not sent again because the log could not be written.
    logger.error('webhook delivery log write failed', { deliveryId: delivery.deliveryId, error: (error as Error).message });
  }
  if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) {
    logger.info('webhook delivered', { deliveryId: delivery.deliveryId, operacao: delivery.operacao });
    countBusiness('EntregasWebhook');
    if (endpoint) {
      // At most once a minute per endpoint and container, with no read (endpoint-store.ts).
      await endpoints.registrarSucesso(endpoint.clienteId, endpoint.operacao);
      await medir(delivery);
    }
    return;
  }
  logger.warn('webhook delivery failed', { deliveryId: delivery.deliveryId, attempt: recebimento, status: outcome.status, error: outcome.erro });
  countBusiness('EntregasWebhookFalhas');
  if (log.situacaoApos(false, recebimento) === 'FALHA' && endpoint && destino && outcome.doEndpoint) {
    await avaliarPausa({ deliveryId: delivery.deliveryId, ...endpoint, razaoSocial: delivery.razaoSocial, dataCriacao, url: destino.url, email: destino.email });
  }
  // After the last receive this is when the queue moves the message to the dead-letter queue.
  await adiar(message, esperaApos(recebimento, esperaConfigurada()));
  throw new DeliveryError(`webhook delivery failed (${outcome.status ?? outcome.erro})`, outcome.status);
}

/**
 * 'Envio de Fat-e' for a delivered Fat-e (functions/webhooks/medicao.ts; other operations are not
 * metered here). A failure fails the record: the delivery is not posted again (the log says
 * ENTREGUE), the next receive only meters it.
 */
async function medir(delivery: WebhookDelivery & { clienteId?: string }): Promise<void> {
  try {
    await medirEntregue({ deliveryId: delivery.deliveryId, clienteId: delivery.clienteId!, operacao: delivery.operacao, payload: delivery.payload });
  } catch (error) {
    logger.error('webhook delivered but not metered: retried', { deliveryId: delivery.deliveryId, error: (error as Error).message });
    throw error;
  }
}

/** The attempt itself: not posted while the delivery it depends on is not delivered, or without a configuration. */
async function tentar(delivery: WebhookDelivery, destino: Destino | null): Promise<Resultado> {
  if (delivery.dependeDe) {
    const anterior = await log.lerEntrega(delivery.dependeDe);
    if (anterior?.situacao !== 'ENTREGUE') return { erro: `aguardando a entrega ${delivery.dependeDe}`, doEndpoint: false };
  }
  if (!destino) return { erro: `sem configuração de webhook para ${delivery.operacao}`, doEndpoint: false };
  try {
    return { status: await deliver(delivery, destino), doEndpoint: true };
  } catch (error) {
    const status = error instanceof DeliveryError ? error.status : undefined;
    return status !== undefined ? { status, doEndpoint: true } : { erro: (error as Error).message.slice(0, 200), doEndpoint: true };
  }
}

/** The wait before the next attempt: the message's own visibility (SQS allows up to 12 h). */
async function adiar(message: SQSRecord, segundos: number): Promise<void> {
  try {
    await sqsClient().send(new ChangeMessageVisibilityCommand({ QueueUrl: config.webhookQueueUrl, ReceiptHandle: message.receiptHandle, VisibilityTimeout: segundos }));
  } catch (error) {
    // Without it the queue's own visibility timeout applies: a sooner retry, never a lost one.
    logger.warn('webhook retry wait not set', { error: (error as Error).message });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The log's item of a new delivery: the body as sent, never the credentials or the signing secret. */
export function entradaDoLog(delivery: WebhookDelivery, url: string, now: Date): log.NovaEntrega {
  return {
    deliveryId: delivery.deliveryId,
    clienteId: delivery.clienteId ?? log.SEM_CLIENTE,
    ...(delivery.razaoSocial ? { razaoSocial: delivery.razaoSocial } : {}),
    operacao: delivery.operacao,
    descricao: delivery.descricao ?? delivery.operacao,
    body: JSON.stringify(delivery.payload),
    url,
    ...(delivery.dependeDe ? { dependeDe: delivery.dependeDe } : {}),
    dataCriacao: now.toISOString(),
  };
}

/**
 * A processor per invocation: a BatchProcessor keeps the batch's successes and failures in its own
 * state, so one shared by invocations running at once (the twin runs several in this process) would
 * report another batch's records.
 */
export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, record, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
