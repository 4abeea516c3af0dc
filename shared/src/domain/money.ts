/**
 * Money is never a float (docs/architecture.md, "Conventions"): amounts are integer centavos, tariff
 * unit values are integer thousandths of a real. Products and percentages are computed in BigInt and
 * rounded half-up (halves away from zero, as BigDecimal's HALF_UP) only when they come back to
 * centavos.
 */

declare const unit: unique symbol;
/** An amount in centavos (R$ 1,00 = 100). */
export type Centavos = number & { readonly [unit]: 'Centavos' };
/** A tariff unit value in thousandths of a real (R$ 0,125 = 125). */
export type Milesimos = number & { readonly [unit]: 'Milesimos' };

function assertInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}

/** Brands a whole number of centavos; throws on fractions, NaN or values beyond 2^53. */
export function asCentavos(value: number): Centavos {
  assertInteger(value, 'centavos');
  return value as Centavos;
}

/** Brands a whole number of thousandths; throws on fractions, NaN or values beyond 2^53. */
export function asMilesimos(value: number): Milesimos {
  assertInteger(value, 'milesimos');
  return value as Milesimos;
}

function toCentavos(value: bigint): Centavos {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`amount out of range: ${value} centavos`);
  }
  return Number(value) as Centavos;
}

/** n / d rounded half-up (away from zero), d > 0. */
function divHalfUp(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const q = ((negative ? -n : n) * 2n + d) / (2n * d);
  return negative ? -q : q;
}

// Intl separates the symbol with a no-break space (U+00A0, U+202F in some engines); we answer a plain
// space so that values compare, copy and test predictably.
const SPACES = /[\u00A0\u202F]/g;
// Built on first use: a formatter's locale data costs ~10 ms of a Lambda's cold start (issue 39), and
// most functions never format an amount.
let brl: Intl.NumberFormat | undefined;
let brl3: Intl.NumberFormat | undefined;
const BRL = () => (brl ??= new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }));
const BRL3 = () =>
  (brl3 ??= new Intl.NumberFormat('pt-BR', {
    style: 'currency',
    currency: 'BRL',
    minimumFractionDigits: 3,
    maximumFractionDigits: 3,
  }));

/** An exact decimal string ("-1234.56"): Intl formats strings without passing through a float. */
function decimal(value: number, scale: number): `${number}` {
  const digits = String(Math.abs(value)).padStart(scale + 1, '0');
  return `${value < 0 ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}` as `${number}`;
}

/** 123456 → 'R$ 1.234,56'; negatives → '-R$ 1.234,56'. Plain space after R$. */
export function formatBRL(value: Centavos): string {
  assertInteger(value, 'centavos');
  return BRL().format(decimal(value, 2)).replace(SPACES, ' ');
}

/** 125 → 'R$ 0,125' (always three decimals). Plain space after R$. */
export function formatMilesimos(value: Milesimos): string {
  assertInteger(value, 'milesimos');
  return BRL3().format(decimal(value, 3)).replace(SPACES, ' ');
}

// Optional sign (before or after R$), integer part plain or grouped by dots of three, up to 2 decimals.
const BRL_TEXT = /^(-?)(?:R\$ ?)?(-?)(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/;

/**
 * pt-BR text to centavos: '1.234,56', 'R$ 1.234,56', '1234,5', '-R$ 0,10'. Anything else (a dot as the
 * decimal separator, misplaced group dots, three decimals, letters) gives null rather than a guess.
 */
export function parseBRL(text: string): Centavos | null {
  const match = BRL_TEXT.exec(text.replace(SPACES, ' ').trim());
  if (!match) return null;
  const [, sign1, sign2, integer = '', fraction = ''] = match;
  if (sign1 && sign2) return null;
  const amount = BigInt(integer.replaceAll('.', '')) * 100n + BigInt(fraction.padEnd(2, '0'));
  const signed = sign1 || sign2 ? -amount : amount;
  if (signed > BigInt(Number.MAX_SAFE_INTEGER) || signed < BigInt(Number.MIN_SAFE_INTEGER)) return null;
  return Number(signed) as Centavos; // BigInt has no -0, so '-0,00' is 0
}

/** quantity × unit value, in centavos rounded half-up: 3 × R$ 0,125 = R$ 0,375 → R$ 0,38. */
export function multiplyMilesimos(quantity: number, unitValue: Milesimos): Centavos {
  assertInteger(quantity, 'quantity');
  assertInteger(unitValue, 'milesimos');
  return toCentavos(divHalfUp(BigInt(quantity) * BigInt(unitValue), 10n));
}

/** Thousandths to centavos, half-up: 1235 (R$ 1,235) → 124. */
export function roundHalfUpToCentavos(value: Milesimos): Centavos {
  assertInteger(value, 'milesimos');
  return toCentavos(divHalfUp(BigInt(value), 10n));
}

/** Exact sum; throws rather than lose a centavo past 2^53. */
export function sumCentavos(values: Iterable<Centavos>): Centavos {
  let total = 0n;
  for (const value of values) {
    assertInteger(value, 'centavos');
    total += BigInt(value);
  }
  return toCentavos(total);
}

/** A percentage given in basis points (1% = 100, 12,5% = 1250), rounded half-up to centavos. */
export function percentOf(value: Centavos, percentBasisPoints: number): Centavos {
  assertInteger(value, 'centavos');
  assertInteger(percentBasisPoints, 'basis points');
  return toCentavos(divHalfUp(BigInt(value) * BigInt(percentBasisPoints), 10_000n));
}

/**
 * The decimal form documents and XML use for money ('1234.5', '0.00': a dot, at most 2 places, no
 * sign, no grouping) to exact centavos; anything else gives null. Never through a float.
 */
export function parseDecimal(text: string): Centavos | null {
  const match = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'))) as Centavos;
}

/** Centavos in the decimal form with 2 places: 123456 → '1234.56', 5 → '0.05', -150 → '-1.50'. */
export function formatDecimal(value: Centavos): string {
  assertInteger(value, 'centavos');
  const abs = Math.abs(value);
  return `${value < 0 ? '-' : ''}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
