/**
 * Usage metering's shared rules (functions/consumo): the statuses a not-found look-up is recorded
 * with, their pt-BR labels, and the limits of the consumption screens.
 */

/**
 * The answers a look-up that found nothing is recorded with (`registrarNaoEncontrada`): no Fat-e for
 * the key or data given, or a key that is not a valid access key. The not-found screens filter by them.
 */
export const STATUS_NAO_ENCONTRADA = ['NAO_ENCONTRADA', 'CHAVE_INVALIDA'] as const;
export type StatusNaoEncontrada = (typeof STATUS_NAO_ENCONTRADA)[number];

/** ours: the product names the statuses without giving their texts. */
export const STATUS_NAO_ENCONTRADA_LABELS: Readonly<Record<StatusNaoEncontrada, string>> = {
  NAO_ENCONTRADA: 'Não encontrada',
  CHAVE_INVALIDA: 'Chave inválida',
};

export function statusNaoEncontradaLabel(status: string): string {
  return (STATUS_NAO_ENCONTRADA_LABELS as Record<string, string>)[status] ?? status;
}

/** The not-found query's period: at most 90 days between start and end, as the other date filters. */
export const NAO_ENCONTRADAS_MAXIMO_DIAS = 90;

/** The consumption monitoring by month: the last 12 months ending this month unless asked, at most 12. */
export const MONITORAMENTO_CONSUMO_MESES = 12;
