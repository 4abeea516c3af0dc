import { randomInt } from 'node:crypto';
import { cnpjCheckDigits } from '@plac/shared/domain';

/** The small arithmetic and data the benchmarks share. */

/** `n` to `digits` decimal places, for the reports. */
export function round(n: number, digits: number) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The median (the mean of the two middle values of an even count). */
export function mediana(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A random head-office CNPJ (branch 0001) with its check digits. */
export function cnpjAleatorio(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

/** `work(i)` for every i from `de` to `ate` (exclusive), `emVoo` at a time. */
export async function emParalelo(emVoo: number, de: number, ate: number, work: (i: number) => Promise<void>) {
  let next = de;
  await Promise.all(
    Array.from({ length: emVoo }, async () => {
      while (next < ate) await work(next++);
    }),
  );
}
