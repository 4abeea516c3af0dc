import * as z from 'zod';

/**
 * The message of one delivery on the webhook queue, as the dispatcher (dispatcher.ts) reads it and a
 * resume or replay job (jobs.ts) queues it again: here, apart from both, so that jobs.ts, whose steps
 * the dispatcher runs, need not import the dispatcher back. A producer's side of it is
 * `NovaEntregaWebhook` (fila.ts).
 */
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
