import { createChallenge, randomInt, verifySolution, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { derivedKey } from '../platform/auth/tokens';
import { useCaptcha } from './store';

/**
 * The registration's captcha: a self-hosted ALTCHA proof of work (reCAPTCHA would need Google). The
 * browser finds the counter that gives the signed key prefix; we check the signature, the solution
 * and the expiry, and accept each solved challenge once. The payload travels in the field
 * `recaptcha`, as the portal's registration payload names it.
 */
const EXPIRES_SECONDS = 10 * 60;
/** Around 50 thousand SHA-256 rounds on average: a second or two in a browser, costly in bulk. */
const COUNTER = { min: 10_000, max: 100_000 };

const secrets = async () => {
  const key = await derivedKey('altcha');
  return { hmacSignatureSecret: key.toString('base64url'), hmacKeySignatureSecret: key.subarray(16).toString('base64url') + 'k' };
};

export async function newChallenge() {
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(COUNTER.min, COUNTER.max),
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + EXPIRES_SECONDS,
    ...(await secrets()),
  });
}

export async function captchaValido(payloadBase64: string): Promise<boolean> {
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(payloadBase64, 'base64').toString('utf8')) as Payload;
  } catch {
    return false;
  }
  if (!payload?.challenge?.parameters || !payload.solution || !payload.challenge.signature) return false;
  try {
    const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, ...(await secrets()) });
    if (!result.verified) return false;
  } catch {
    return false;
  }
  const expiresAt = Number(payload.challenge.parameters.expiresAt ?? Math.floor(Date.now() / 1000) + EXPIRES_SECONDS);
  return useCaptcha(payload.challenge.signature, expiresAt);
}
