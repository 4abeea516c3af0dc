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
      /**
       * 110111 cancellation; the receivable's evidence (docs/recebivel.md): 210200, 210210, 210220,
       * 210240 (the recipient's manifestation), 110130 / 110131 (delivery proof and its cancellation),
       * 110110 (correction letter); DEVOLUCAO: an NF-e of return naming the key.
       */
      tpEvento: z.string(),
      descricao: z.string(),
      protocolo: z.string(),
      /** The event's justification (cancellation, 210240); empty when it has none. */
      justificativa: z.string(),
      /** ISO instant of the event. */
      data: z.string(),
      /** The event's identity among the key's events when a type may repeat (`<tpEvento>_<seq>`, `DEV_<hash>`): the delivery id's part. */
      id: z.string().regex(/^[A-Za-z0-9_]{1,24}$/).optional(),
      /** nSeqEvento. */
      seq: z.number().int().optional(),
      /** The author's CNPJ or CPF. */
      autor: z.string().optional(),
      /** 110110: the correction's text. */
      correcao: z.string().optional(),
      /** 110130: the delivery. */
      entrega: z.object({ data: z.string(), documento: z.string(), nome: z.string(), latitude: z.string().optional(), longitude: z.string().optional() }).optional(),
      /** 110131: the protocol of the delivery proof it cancels. */
      protocoloEventoCancelado: z.string().optional(),
      /** DEVOLUCAO: the return's key and value (centavos). */
      devolucao: z.object({ chave: z.string().length(44), valor: z.number().int() }).optional(),
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
export { DESCRICAO_EVENTO_NFE as DESCRICAO_EVENTO } from '../domain/evidencia';
