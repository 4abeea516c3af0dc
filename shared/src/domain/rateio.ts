import { asCentavos, type Centavos } from './money';

/**
 * Revenue sharing (rateio) arithmetic (docs/repasse.md). Pure: no I/O, no clock, no floats.
 *
 * `ratear(valor, pesos)` splits an amount of centavos among shares proportional to integer weights
 * (the beneficiaries' percentages) by the largest-remainder rule (Hamilton's method):
 * 1. each share gets floor(valor × peso / Σpesos);
 * 2. the centavos left over (fewer than the number of shares with a fractional part) go one each to
 *    the shares with the largest fractional parts, ties to the earlier share.
 * So the shares are whole, never negative, add up to `valor` exactly, and each differs from its exact
 * proportional value by less than one centavo.
 */
export function ratear(valor: Centavos, pesos: readonly number[]): Centavos[] {
  if (!Number.isSafeInteger(valor) || valor < 0) throw new RangeError(`valor must be a non-negative integer, got ${valor}`);
  if (pesos.length === 0) throw new RangeError('at least one weight');
  for (const p of pesos) if (!Number.isSafeInteger(p) || p < 0) throw new RangeError(`weights must be non-negative integers, got ${p}`);
  const total = pesos.reduce((s, p) => s + BigInt(p), 0n);
  if (total === 0n) throw new RangeError('weights must not all be zero');
  const v = BigInt(valor);
  const partes = pesos.map((p, i) => {
    const produto = v * BigInt(p);
    return { i, base: produto / total, resto: produto % total };
  });
  let sobra = v - partes.reduce((s, x) => s + x.base, 0n);
  const ordem = [...partes].sort((a, b) => (a.resto === b.resto ? a.i - b.i : a.resto > b.resto ? -1 : 1));
  const extra = new Set<number>();
  for (const x of ordem) {
    if (sobra === 0n) break;
    extra.add(x.i);
    sobra -= 1n;
  }
  return partes.map((x) => asCentavos(Number(x.base + (extra.has(x.i) ? 1n : 0n))));
}
