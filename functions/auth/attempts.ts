import { apagar, atualizar, ler, upsertSozinho } from '../platform/tabela-direta';

/**
 * Failed-login counters per account and per source address. After a few failures each further try
 * is slowed down; past the limit the subject is locked for a while. Counters are kept for unknown
 * e-mails too, so that the answers do not tell which e-mails exist.
 */
export const WINDOW_MINUTES = 15;
// An address is shared by a whole office behind NAT: its limit is far above an account's. `fator`: the
// wrong codes of one user's second factor (issue 42), whatever challenge they came with.
export const LIMITS = { account: 5, address: 100, fator: 5 } as const;
const SLOW_AFTER = 3;

/**
 * A subject's failures, its ElectroDB model, read and written without the table layer
 * (platform/tabela-direta.ts): every password login reads it first (issue 39).
 */
export const MODELO_TENTATIVA = {
  model: { entity: 'loginAttempt', version: '1', service: 'auth' },
  attributes: {
    subject: { type: 'string', required: true },
    failures: { type: 'number' },
    lockedUntil: { type: 'number' },
    expiresAt: { type: 'number', required: true },
  },
  indexes: { bySubject: { pk: { field: 'pk', composite: ['subject'] }, sk: { field: 'sk', composite: [] } } },
} as const;

interface Tentativa {
  failures?: number;
  lockedUntil?: number;
}

export type Subject = { kind: keyof typeof LIMITS; value: string };

const key = (s: Subject) => `${s.kind}:${s.value}`;

/** Seconds the subject stays locked, or 0. */
export async function lockedFor(subjects: Subject[]): Promise<number> {
  const now = Date.now() / 1000;
  const records = await Promise.all(subjects.map((s) => ler<Tentativa>(MODELO_TENTATIVA, { subject: key(s) })));
  return Math.max(0, ...records.map((data) => (data?.lockedUntil && data.lockedUntil > now ? Math.ceil(data.lockedUntil - now) : 0)));
}

/** Counts a failure (atomic ADD) and locks the subject when it reaches its limit. */
export async function recordFailure(subjects: Subject[]): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const counts = await Promise.all(
    subjects.map(async (s) => {
      const data = await upsertSozinho<Tentativa>(MODELO_TENTATIVA, { subject: key(s), expiresAt: now + WINDOW_MINUTES * 60 }, { add: { failures: 1 } });
      const failures = data.failures ?? 1;
      if (failures >= LIMITS[s.kind]) {
        await atualizar(MODELO_TENTATIVA, { subject: key(s) }, { lockedUntil: now + WINDOW_MINUTES * 60 });
      }
      return failures;
    }),
  );
  return Math.max(...counts);
}

export async function clearFailures(subject: Subject): Promise<void> {
  await apagar(MODELO_TENTATIVA, { subject: key(subject) });
}

/** Growing delay before answering a failure: nothing for the first tries, then 1 s, 2 s … up to 4 s. */
export function delayFor(failures: number): number {
  return Math.min(4000, Math.max(0, failures - SLOW_AFTER + 1) * 1000);
}
