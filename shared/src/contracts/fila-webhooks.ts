import * as z from 'zod';

/**
 * The messages of the webhook queue (the platform's SQS queue of deliveries), as the producers, the
 * resume and replay jobs put them and the dispatcher reads them (functions/webhooks/dispatcher.ts):
 * one delivery, or one step of a job that queues deliveries again (functions/webhooks/jobs.ts). The
 * documents queue's message is documento-armazenado.ts. A message that fits neither is refused.
 */

/** One delivery (the producers' side of it: `NovaEntregaWebhook`, functions/webhooks/fila.ts). */
export const deliverySchema = z
  .object({
    /** Stable id of the delivery: sent as a header so that receivers can ignore duplicates. */
    deliveryId: z.string().min(1).max(200),
    /** The operation (EVENTO, ESCR_FAT, …): the configuration it goes by and the `x-plac-event` header. */
    operacao: z.string().min(1).max(40),
    payload: z.record(z.string(), z.unknown()),
    clienteId: z.string().min(1).max(64).optional(),
    url: z.string().url().optional(),
    /** For the delivery log and the monitoring screen: whose delivery it is and what it tells. */
    razaoSocial: z.string().max(200).optional(),
    descricao: z.string().max(300).optional(),
    /** Per-client ordering: not posted before this delivery was delivered. */
    dependeDe: z.string().min(1).max(200).optional(),
  })
  .refine((d) => d.url !== undefined || d.clienteId !== undefined, { message: 'a delivery names a client or a URL' });

export type WebhookDelivery = z.infer<typeof deliverySchema>;

/** A step of a resume or replay-all job: its first (`{ job, execucao }`), or a step of one of its shards. */
export const passoDeJobSchema = z.object({
  job: z.string().min(1),
  execucao: z.string().min(1),
  /** A shard's step: its shard, the step's number and this message's own id (a resend has another). */
  parte: z.string().optional(),
  passo: z.number().int().nonnegative().optional(),
  envio: z.string().optional(),
});

export type MensagemDePasso = z.infer<typeof passoDeJobSchema>;
