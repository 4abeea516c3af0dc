/**
 * The retry schedule of a webhook delivery (docs/webhooks.md "Retries"): after the n-th failed
 * attempt the message stays invisible for min(base × 2^(n−1), maximum) seconds, stretched by a
 * random 0–25 % (jitter only upwards, so the schedule never ends sooner than its nominal length and
 * retries of many deliveries that failed together spread out instead of hitting the receiver at once).
 *
 * With the defaults (60 s doubling up to 6 h) the 12 waits between the queue's 13 receives add up to
 * at least 26.5 h: a receiver down for a whole day still gets its deliveries.
 */

/** SQS receives of one message before the dead-letter queue: the topology's maxReceiveCount (a test checks). */
export const MAX_RECEBIMENTOS = 13;

/** SQS refuses a visibility timeout above 12 hours. */
const VISIBILIDADE_MAXIMA_S = 43_200;

export interface Espera {
  baseSegundos: number;
  maximaSegundos: number;
}

/** The schedule of this environment: WEBHOOK_ESPERA_BASE_S and WEBHOOK_ESPERA_MAXIMA_S (the twin's tests shorten them). */
export function esperaConfigurada(env: NodeJS.ProcessEnv = process.env): Espera {
  const numero = (valor: string | undefined, padrao: number) => {
    const n = Number(valor);
    return valor !== undefined && Number.isFinite(n) && n >= 1 ? n : padrao;
  };
  return { baseSegundos: numero(env.WEBHOOK_ESPERA_BASE_S, 60), maximaSegundos: numero(env.WEBHOOK_ESPERA_MAXIMA_S, 21_600) };
}

/** Seconds before the next attempt after the `recebimento`-th failed one (1-based). */
export function esperaApos(recebimento: number, espera: Espera, aleatorio: () => number = Math.random): number {
  const nominal = Math.min(espera.baseSegundos * 2 ** Math.max(0, recebimento - 1), espera.maximaSegundos);
  return Math.min(VISIBILIDADE_MAXIMA_S, Math.max(nominal, Math.round(nominal * (1 + 0.25 * aleatorio()))));
}
