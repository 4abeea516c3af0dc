import * as z from 'zod';
import { isUf, SERVICO, splitChaveAcesso, ufByCodigo } from '@plac/shared/domain';
import { medirUso } from '../consumo';

/**
 * Metering of 'Envio de Fat-e' (service 9): each Fat-e delivered to a client by webhook — an ESCR_FAT
 * or TRANSPORTE_FAT delivery that became ENTREGUE — is charged once to that client, in the month of
 * the delivery and the UF of the Fat-e. Events (EVENTO, ESCR_EVENTO, TRANSPORTE_EVENTO) are not
 * metered here: the monitored keys are metered when registered ('Monitoramento de Documentos').
 *
 * Idempotent per delivery id: the consumo context's charge is a conditional create of the request
 * item keyed by the delivery id, in one transaction with the counter, so a dispatcher that calls this
 * again for the same delivery (a retry, a duplicate SQS receive, a replay) meters nothing twice.
 */

/** The operations whose delivery is a Fat-e sent. */
export const OPERACOES_MEDIDAS = ['ESCR_FAT', 'TRANSPORTE_FAT'] as const;

export interface EntregaMedida {
  deliveryId: string;
  clienteId: string;
  operacao: string;
  payload: Record<string, unknown>;
}

/** What the producers put in a Fat-e delivery's body that metering needs (docs/webhooks.md, "Producers"). */
const corpoFate = z.object({ chave: z.string(), uf: z.string().optional() });

export type ResultadoMedicao = 'medida' | 'repetida' | 'nao-medida';

/** The Fat-e's UF: the body's, else the access key's cUF. */
function ufDe(corpo: z.infer<typeof corpoFate>): string | undefined {
  if (corpo.uf && isUf(corpo.uf)) return corpo.uf;
  const partes = splitChaveAcesso(corpo.chave);
  return partes ? ufByCodigo(Number(partes.cUF)) : undefined;
}

/**
 * Meters one 'Envio de Fat-e' for a delivered ESCR_FAT / TRANSPORTE_FAT delivery: 'medida' the first
 * time, 'repetida' when this delivery id was already metered, 'nao-medida' for any other operation.
 * A Fat-e body without a readable key or UF throws (the delivery was not made by our producers).
 */
export async function medirEntregue(entrega: EntregaMedida, agora: Date = new Date()): Promise<ResultadoMedicao> {
  if (!(OPERACOES_MEDIDAS as readonly string[]).includes(entrega.operacao)) return 'nao-medida';
  const corpo = corpoFate.parse(entrega.payload);
  const uf = ufDe(corpo);
  if (!uf) throw new Error(`delivery ${entrega.deliveryId}: no UF for key ${corpo.chave}`);
  const r = await medirUso({
    chave: `entrega:${entrega.deliveryId}`,
    clienteId: entrega.clienteId,
    servico: SERVICO.envioFate,
    uf,
    documento: corpo.chave,
    agora,
  });
  return r === 'cobrada' ? 'medida' : 'repetida';
}
