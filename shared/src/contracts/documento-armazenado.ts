import * as z from 'zod';
import { fateViewSchema } from './fate-view';

/**
 * The loader's domain event: one message on the documents queue (`plac-documentos`) per document the
 * Sefaz load newly stored, read by the webhook producers (functions/webhooks/produtores). Versioned:
 * a reader refuses a version it does not know (the message then goes to the dead-letter queue)
 * rather than guess. Not an HTTP contract: it is the boundary between the fate context (which
 * publishes) and the webhooks context (which reads), kept here so both validate the same shape.
 */
export const documentoArmazenadoSchema = z.discriminatedUnion('tipo', [
  z.object({
    versao: z.literal(1),
    tipo: z.literal('FATE'),
    chave: z.string().length(44),
    /** The Fat-e as stored when the message was published (a cancellation already recorded included). */
    fate: fateViewSchema,
  }),
  z.object({
    versao: z.literal(1),
    tipo: z.literal('EVENTO'),
    chave: z.string().length(44),
    /** The UF whose distribution delivered the event. */
    uf: z.string(),
    evento: z.object({
      /** 110111: cancellation (the only event the loader stores today). */
      tpEvento: z.string(),
      descricao: z.string(),
      protocolo: z.string(),
      justificativa: z.string(),
      /** ISO instant of the event. */
      data: z.string(),
    }),
    /**
     * The Fat-e of the key as the loader had it when it stored the event (null: no Fat-e with that
     * key is stored yet — a cancellation that came before its NF-e, or an NF-e without a bill).
     */
    fate: z
      .object({
        emitenteCnpj: z.string(),
        transportadorDoc: z.string().nullable(),
        /** When the Fat-e's own domain event was published (null: not yet, e.g. stored in the same load). */
        publicadoEm: z.string().nullable(),
      })
      .nullable(),
  }),
]);

export type DocumentoArmazenado = z.output<typeof documentoArmazenadoSchema>;

/** Event types and their descriptions, for the deliveries' description and body. */
export const DESCRICAO_EVENTO: Readonly<Record<string, string>> = { '110111': 'Cancelamento' };
