import { Entity } from 'electrodb';
import { HttpError } from './errors';
import { tableConfig } from './table';

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
}

const counters = () =>
  new Entity(
    {
      model: { entity: 'rateCounter', version: '1', service: 'platform' },
      attributes: {
        counter: { type: 'string', required: true },
        hits: { type: 'number' },
        expiresAt: { type: 'number', required: true },
      },
      indexes: { byCounter: { pk: { field: 'pk', composite: ['counter'] }, sk: { field: 'sk', composite: [] } } },
    },
    tableConfig(),
  );

let entity: ReturnType<typeof counters> | undefined;
const table = () => (entity ??= counters());

/** Counts one request against every quota; throws 429 when any of them is already used up. */
export async function consume(quotas: Quota[], now = Date.now()): Promise<void> {
  const hits = await Promise.all(
    quotas.map(async (q) => {
      const windowStart = Math.floor(now / 1000 / q.windowSeconds) * q.windowSeconds;
      const { data } = await table()
        .upsert({ counter: `${q.name}:${q.value}:${windowStart}`, expiresAt: windowStart + q.windowSeconds * 2 })
        .add({ hits: 1 })
        .go({ response: 'all_new' });
      return (data?.hits ?? 1) > q.limit;
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
  const windowStart = Math.floor(now / 1000 / q.windowSeconds) * q.windowSeconds;
  await table()
    .upsert({ counter: `${q.name}:${q.value}:${windowStart}`, expiresAt: windowStart + q.windowSeconds * 2 })
    .add({ hits })
    .go();
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
