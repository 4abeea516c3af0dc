import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (docs/webhooks.md): every delivery carries `x-plac-timestamp` (Unix seconds) and
 * `x-plac-signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>" under the client's secret>`. A
 * receiver recomputes it over the raw body, compares in constant time and refuses a timestamp more
 * than TOLERANCE_SECONDS away from its clock, so a captured delivery cannot be replayed later; a
 * delivery sent twice by our retries keeps its `x-plac-delivery-id` for de-duplication.
 */
export const SIGNATURE_HEADER = 'x-plac-signature';
export const TIMESTAMP_HEADER = 'x-plac-timestamp';
export const TOLERANCE_SECONDS = 300;

export function sign(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type Verification = 'valid' | 'signature' | 'timestamp';

/** The receiver's check, as documented for integrators. */
export function verify(secret: string, headers: { timestamp: string | undefined; signature: string | undefined }, body: string, nowSeconds = Math.floor(Date.now() / 1000)): Verification {
  const timestamp = Number(headers.timestamp);
  if (!Number.isSafeInteger(timestamp) || Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return 'timestamp';
  const expected = Buffer.from(sign(secret, timestamp, body));
  const given = Buffer.from(headers.signature ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'signature';
}
