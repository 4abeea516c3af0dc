import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sign, verify } from './signature';

describe('webhook signatures', () => {
  const secret = 'whsec_teste';
  const body = JSON.stringify({ chave: '29261112345678000195550010000012341123456786', evento: '110111' });
  const now = 1_795_400_000;

  it('a receiver accepts the delivery as signed', () => {
    expect(verify(secret, { timestamp: String(now), signature: sign(secret, now, body) }, body, now + 10)).toBe('valid');
  });

  it('refuses a tampered body, another secret, a missing signature', () => {
    const signature = sign(secret, now, body);
    expect(verify(secret, { timestamp: String(now), signature }, body.replace('110111', '110110'), now)).toBe('signature');
    expect(verify('outro', { timestamp: String(now), signature }, body, now)).toBe('signature');
    expect(verify(secret, { timestamp: String(now), signature: undefined }, body, now)).toBe('signature');
  });

  it('refuses a replay: the same signed delivery presented more than 5 minutes later, or a moved timestamp', () => {
    const signature = sign(secret, now, body);
    expect(verify(secret, { timestamp: String(now), signature }, body, now + 301)).toBe('timestamp');
    // Moving the timestamp to "now" breaks the signature, which covers it.
    expect(verify(secret, { timestamp: String(now + 400), signature }, body, now + 401)).toBe('signature');
    expect(verify(secret, { timestamp: 'x', signature }, body, now)).toBe('timestamp');
  });

  it('the verification integrators copy from docs/webhooks.md accepts a delivery and refuses a tampered body or a replay', () => {
    // The snippet is taken from the document itself, so the docs cannot drift from what we sign.
    const doc = readFileSync(fileURLToPath(new URL('../../docs/webhooks.md', import.meta.url)), 'utf8');
    const snippet = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(snippet).toContain('function verify');
    const documented = new Function('createHmac', 'timingSafeEqual', `${snippet!.replace(/^import .*$/m, '')}\nreturn verify;`)(
      createHmac,
      timingSafeEqual,
    ) as (secret: string, timestamp: string, signature: string | undefined, rawBody: string, now?: number) => boolean;
    const signature = sign(secret, now, body);
    expect(documented(secret, String(now), signature, body, now + 5)).toBe(true);
    expect(documented(secret, String(now), signature, body.replace('110111', '110110'), now + 5)).toBe(false);
    expect(documented(secret, String(now), signature, body, now + 301)).toBe(false);
    expect(documented(secret, String(now + 400), signature, body, now + 401)).toBe(false);
  });
});
