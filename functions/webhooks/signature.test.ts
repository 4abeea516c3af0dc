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
});
