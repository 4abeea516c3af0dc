import * as z from 'zod';
import { FLAGS, FLAGS_EVIDENCIA } from '../domain/evidencia';
import { cessaoDaParcelaSchema } from './fate-view';

/**
 * The receivable's evidence as the look-ups answer it (docs/recebivel.md): the recipient's current
 * manifestation and its history, the delivery proof, the correction letters, the returns (and the net
 * value after them), the CT-e that carry the NF-e, each instalment's state and assignment, the flags
 * and the key's timeline. Values in centavos; instants ISO-8601 UTC.
 */
const manifestacaoSchema = z.object({
  tpEvento: z.enum(['210200', '210210', '210220', '210240']),
  descricao: z.string(),
  /** When the recipient signed it (dhEvento). */
  data: z.string(),
  registradaEm: z.string(),
  protocolo: z.string(),
  /** The author's CNPJ or CPF (the recipient). */
  autor: z.string(),
  /** 210240's justification. */
  justificativa: z.string().nullable(),
});

const documentoVinculadoSchema = z.object({
  chave: z.string(),
  emitente: z.object({ documento: z.string(), nome: z.string() }),
  emissao: z.string(),
  valor: z.number().int(),
  /** Its own cancellation is registered: it no longer counts. */
  cancelado: z.boolean(),
});

const flagsDescricao = FLAGS.map((f) => `- \`${f}\`: ${FLAGS_EVIDENCIA[f]}`).join('\n');

export const evidenciaSchema = z.object({
  manifestacao: manifestacaoSchema.nullable().meta({ description: 'A manifestação vigente do destinatário (a mais recente), ou null.' }),
  manifestacoes: z.array(manifestacaoSchema).meta({ description: 'Todas as manifestações, da mais antiga à mais recente.' }),
  entrega: z
    .object({
      data: z.string(),
      documentoRecebedor: z.string(),
      nomeRecebedor: z.string(),
      latitude: z.string().nullable(),
      longitude: z.string().nullable(),
      protocolo: z.string(),
      registradaEm: z.string(),
    })
    .nullable()
    .meta({ description: 'O Comprovante de Entrega (110130) vigente, não cancelado por um 110131, ou null.' }),
  correcoes: z.array(z.object({ seq: z.number().int(), data: z.string(), texto: z.string() })),
  devolucoes: z.array(documentoVinculadoSchema).meta({ description: 'NF-e de devolução (finalidade 4) que referenciam a chave (refNFe).' }),
  valorDevolvido: z.number().int().meta({ description: 'Soma das devoluções não canceladas, em centavos.' }),
  valorLiquidoAposDevolucoes: z.number().int().meta({ description: 'Valor líquido da fatura menos o valor devolvido, nunca abaixo de zero, em centavos.' }),
  ctes: z.array(documentoVinculadoSchema).meta({ description: 'CT-e que transportam a NF-e (infDoc/infNFe).' }),
  parcelas: z.array(
    z.object({
      numero: z.string(),
      vencimento: z.string(),
      valor: z.number().int(),
      situacao: z.enum(['A_VENCER', 'VENCIDA', 'CANCELADA']),
      cessao: cessaoDaParcelaSchema.nullable(),
    }),
  ),
  flags: z.array(z.enum(FLAGS as [string, ...string[]])).meta({ description: `Sinais da avaliação, cada um com sua regra:\n${flagsDescricao}` }),
  linhaDoTempo: z.array(
    z.object({
      data: z.string(),
      etapa: z.enum(['EMITIDA', 'AUTORIZADA', 'MANIFESTADA', 'TRANSPORTADA', 'ENTREGUE', 'ENTREGA_CANCELADA', 'CORRIGIDA', 'CEDIDA', 'DEVOLVIDA', 'CANCELADA']),
      descricao: z.string(),
    }),
  ),
});
export type EvidenciaView = z.output<typeof evidenciaSchema>;
