import * as z from 'zod';

/** An instalment's registered assignment, as the look-ups show it (centavos; dataCessao 'YYYY-MM-DD'). */
export const cessaoDaParcelaSchema = z
  .object({ cnpjCessionario: z.string(), dataCessao: z.string(), valor: z.number().int(), registradaEm: z.string() })
  .meta({ title: 'cessão da parcela' });
export type CessaoDaParcela = z.output<typeof cessaoDaParcelaSchema>;

/**
 * A Fat-e as the look-ups answer it (the integrator API, the portal's look-ups, the trial look-up):
 * one shape wherever a Fat-e leaves the platform. Values in centavos. Kept apart from the context
 * modules so that each context's Lambda carries only this, not another context's contracts.
 */
export const fateViewSchema = z
  .object({
    chave: z.string(),
    /** ATIVA, or CANCELADA after the issuer's cancellation event (110111). */
    situacao: z.enum(['ATIVA', 'CANCELADA']),
    /** The UF whose Sefaz published the document. */
    uf: z.string(),
    modelo: z.string(),
    serie: z.string(),
    numero: z.string(),
    emissao: z.string(),
    protocolo: z.string().nullable(),
    emitente: z.object({ cnpj: z.string(), nome: z.string(), uf: z.string() }),
    destinatario: z.object({ documento: z.string(), tipo: z.enum(['CNPJ', 'CPF']), nome: z.string(), uf: z.string().nullable() }),
    transportador: z.object({ documento: z.string(), nome: z.string().nullable() }).nullable(),
    valorNota: z.number().int(),
    fatura: z.object({ numero: z.string().nullable(), valorOriginal: z.number().int(), desconto: z.number().int(), valorLiquido: z.number().int() }),
    /**
     * Each instalment; `cessao` is its registered assignment (functions/cessao, docs/cessao.md) or null
     * when it has none. Absent where the answer does not read the assignments (the webhook bodies, the
     * trial look-up, the carrier look-up).
     */
    duplicatas: z.array(
      z.object({ numero: z.string(), vencimento: z.string(), valor: z.number().int(), cessao: cessaoDaParcelaSchema.nullable().optional() }),
    ),
    cancelamento: z.object({ data: z.string(), protocolo: z.string() }).nullable(),
  })
  .meta({ title: 'Fat-e' });
export type FateView = z.output<typeof fateViewSchema>;
