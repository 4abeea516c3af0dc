/**
 * End dates of records (docs/data-model.md, "Retention (issue 38)"). The application table's TTL
 * attribute is `expiresAt` (infra/lib/topology.ts), in epoch seconds: DynamoDB removes an item some
 * time (usually within days) after that instant, with its index entries, at no write cost. Every entity
 * carries one or says why it is kept (functions/platform/fim-dos-registros.test.ts).
 */

const SEGUNDOS_POR_DIA = 86_400;

/**
 * What backs an invoice lives as long as the invoice: five years (the Fazenda may charge or dispute a
 * fee for five years, CTN art. 173 and 174; the same 365.25-day years as a Fat-e's, fate/store-entities.ts
 * RETENCAO_ANOS) and a month, since a month's use is invoiced in the month after it.
 */
export const DIAS_FISCAIS = Math.ceil(5 * 365.25) + 31;

/**
 * How long a charge can be disputed: the life of the request log that details an invoice (13 months,
 * the billed month and a year of disputes: 400 days, functions/consumo/store.ts LOG_TTL_SECONDS).
 */
export const DIAS_DE_CONTESTACAO = 400;

/**
 * The longest a record waits for the evidence archive (functions/arquivo, issue 41) after the instant
 * it is charged: the rest of its month (31 days), the archive's run on the 5th of the next, and 9 days
 * to mend a failed run. What the archive keeps need not stay in the table longer than this past the
 * window in which the platform itself works with it.
 */
export const DIAS_ATE_O_ARQUIVO = 45;

/** The TTL (epoch seconds) `dias` days after `instante` (an ISO instant, a Date or epoch milliseconds). */
export function expiraAposDias(instante: string | Date | number, dias: number): number {
  const ms = typeof instante === 'number' ? instante : instante instanceof Date ? instante.getTime() : Date.parse(instante);
  // A record with no valid date would get no end date at all (NaN is not a number to DynamoDB's TTL).
  if (!Number.isFinite(ms)) throw new Error(`no end date from an invalid instant: ${String(instante)}`);
  return Math.floor(ms / 1000) + dias * SEGUNDOS_POR_DIA;
}
