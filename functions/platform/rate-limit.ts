import { randomInt } from 'node:crypto';
import { HttpError } from './errors';
import { upsertSozinho } from './tabela-direta';

/**
 * Request quotas for the public routes that an attacker could use to flood a mailbox or to probe
 * which e-mails exist: a fixed-window counter per (route, e-mail) and per (route, source address),
 * kept in the table with an atomic ADD and removed by the table's TTL. Past any limit the route
 * answers 429 'muitasRequisicoes' and does nothing else. The limits are in docs/architecture.md.
 */
export interface Quota {
  /** What is counted, e.g. 'password-email:email'. */
  name: string;
  /** The subject counted: an e-mail (lower case) or a source address. */
  value: string;
  limit: number;
  windowSeconds: number;
  /**
   * Counter items of one window (1 unless said): a request adds to one at random, and each shard
   * admits `ceil(limit / shards)`, so a quota a client uses at hundreds of requests a second is not
   * one hot partition key (issue 36). The total admitted stays at most the limit (plus shards − 1 for
   * the rounding); an uneven spread refuses a little before it, never after.
   */
  shards?: number;
}

/**
 * A window's counter (one shard of it): its ElectroDB model, written without the table layer
 * (tabela-direta.ts) because every integrator request passes here before its route (issue 39).
 */
export const MODELO_CONTADOR_DE_COTA = {
  model: { entity: 'rateCounter', version: '1', service: 'platform' },
  attributes: {
    counter: { type: 'string', required: true },
    /** The counter's shard, in the partition key (`$platform#counter_…#shard_<n>`). */
    shard: { type: 'number', required: true, default: 0 },
    hits: { type: 'number' },
    expiresAt: { type: 'number', required: true },
  },
  indexes: { byCounter: { pk: { field: 'pk', composite: ['counter', 'shard'] }, sk: { field: 'sk', composite: [] } } },
} as const;

/** Adds to a window's shard (an atomic ADD, the item created by the first) and answers its count after. */
async function somar(counter: string, shard: number, expiresAt: number, hits: number): Promise<number> {
  const depois = await upsertSozinho<{ hits?: number }>(MODELO_CONTADOR_DE_COTA, { counter, shard, expiresAt }, { add: { hits } });
  return depois.hits ?? hits;
}

/**
 * Windows this container already saw used up, by counter: until the window ends, a request over one
 * of them is refused here, with no database work at all, so a client flooding past its quota writes
 * nothing more (issue 36: only the request that found the window full wrote). Bounded: entries die
 * with their window and the map is cleared past MEMORIA_MAXIMA.
 */
const esgotadas = new Map<string, number>();
const MEMORIA_MAXIMA = 10_000;

const inicioDaJanela = (q: Quota, now: number) => Math.floor(now / 1000 / q.windowSeconds) * q.windowSeconds;
const contadorDe = (q: Quota, windowStart: number) => `${q.name}:${q.value}:${windowStart}`;

/** Counts one request against every quota; throws 429 when any of them is already used up. */
export async function consume(quotas: Quota[], now = Date.now()): Promise<void> {
  for (const q of quotas) {
    const fim = esgotadas.get(contadorDe(q, inicioDaJanela(q, now)));
    if (fim !== undefined && now < fim) throw new HttpError(429, 'muitasRequisicoes');
  }
  const hits = await Promise.all(
    quotas.map(async (q) => {
      const windowStart = inicioDaJanela(q, now);
      const shards = Math.max(1, q.shards ?? 1);
      const hits = await somar(contadorDe(q, windowStart), randomInt(shards), windowStart + q.windowSeconds * 2, 1);
      const cheia = hits > Math.ceil(q.limit / shards);
      if (cheia) {
        if (esgotadas.size > MEMORIA_MAXIMA) esgotadas.clear();
        esgotadas.set(contadorDe(q, windowStart), (windowStart + q.windowSeconds) * 1000);
      }
      return cheia;
    }),
  );
  if (hits.some(Boolean)) throw new HttpError(429, 'muitasRequisicoes');
}

export const isQuotaExceeded = (error: unknown) => error instanceof HttpError && error.status === 429;

/**
 * Starts the current window of a quota with `hits` already counted (an atomic ADD, like `consume`):
 * for tests and benches that need a quota used up without sending thousands of requests.
 */
export async function preencher(q: Quota, hits: number, now = Date.now()): Promise<void> {
  const windowStart = inicioDaJanela(q, now);
  const shards = Math.max(1, q.shards ?? 1);
  // Every shard gets its share, so whichever a request picks is as full as the whole quota is.
  await Promise.all(
    Array.from({ length: shards }, (_, shard) => somar(contadorDe(q, windowStart), shard, windowStart + q.windowSeconds * 2, Math.ceil(hits / shards))),
  );
}

/**
 * Runs the work and answers no sooner than `ms` after it started, success or failure, so that the
 * time of the answer does not tell a known e-mail (mail sent, client read) from an unknown one.
 */
export async function inConstantTime<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const wait = () => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - (performance.now() - started))));
  try {
    const result = await work();
    await wait();
    return result;
  } catch (error) {
    await wait();
    throw error;
  }
}
