import { ErroAws } from '../aws-direto/chamada';
import { SecretsManagerClient, type GetSecretValueCommand } from '../aws-direto/secrets-manager';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetKeyRing, KEY_RING_MIN_REFRESH_MS, readKeyRing } from './signing-keys';
import { signToken, verifyToken } from './tokens';

/**
 * The rotated session key (issue 29 item 1): a token signed with the version before the last rotation
 * still verifies; one signed with a key the secret never had, or naming no version, does not.
 */

const ARN = 'arn:aws:secretsmanager:sa-east-1:111111111111:secret:plac-session-key-AbCdEf';
const principal = { userId: 'u1', name: 'Ana', tipo: 'S' as const, roles: ['sefaz_admin' as const] };

/** The secret's versions by stage, as Secrets Manager would answer them. */
let stages: Record<string, { VersionId: string; SecretString: string }>;
let calls: number;

function fakeSend(command: GetSecretValueCommand) {
  calls++;
  const input = command.input;
  expect(input.SecretId).toBe(ARN);
  const found = stages[input.VersionStage ?? 'AWSCURRENT'];
  if (!found) return Promise.reject(new ErroAws('ResourceNotFoundException', 'no such version', 'client', { httpStatusCode: 400, attempts: 1 }));
  return Promise.resolve(found);
}

async function signedWith(secret: string, kid: string | undefined): Promise<string> {
  return new SignJWT({ sid: 's1', name: 'Ana', tipo: 'S', roles: ['sefaz_admin'] })
    .setProtectedHeader(kid ? { alg: 'HS256', kid } : { alg: 'HS256' })
    .setSubject('u1')
    .setIssuer('plac-fate')
    .setAudience('plac-fate-api')
    .setIssuedAt()
    .setExpirationTime('900s')
    .sign(new TextEncoder().encode(secret));
}

describe('session signing keys', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    delete process.env.TOKEN_SECRET;
    process.env.SESSION_KEY_SECRET_ARN = ARN;
    stages = { AWSCURRENT: { VersionId: 'v2', SecretString: 'chave-atual-'.repeat(5) }, AWSPREVIOUS: { VersionId: 'v1', SecretString: 'chave-anterior-'.repeat(5) } };
    calls = 0;
    vi.spyOn(SecretsManagerClient.prototype, 'send').mockImplementation(fakeSend as never);
    forgetKeyRing();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
    process.env = { ...saved };
    forgetKeyRing();
  });

  it('signs with AWSCURRENT and names its version in kid', async () => {
    const token = await signToken(principal, 's1', 900);
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual({ alg: 'HS256', kid: 'v2' });
    expect(await verifyToken(token)).toMatchObject({ principal: { userId: 'u1' }, sid: 's1' });
  });

  it('still accepts a token signed with the previous key (AWSPREVIOUS)', async () => {
    expect(await verifyToken(await signedWith('chave-anterior-'.repeat(5), 'v1'))).toMatchObject({ principal: { userId: 'u1' } });
  });

  it('refuses a token signed with a key the secret does not hold, naming no version, or an unknown version', async () => {
    expect(await verifyToken(await signedWith('outra-chave-qualquer-'.repeat(4), 'v1'))).toBe('token_invalid');
    expect(await verifyToken(await signedWith('outra-chave-qualquer-'.repeat(4), 'v2'))).toBe('token_invalid');
    expect(await verifyToken(await signedWith('chave-atual-'.repeat(5), undefined))).toBe('token_invalid');
    expect(await verifyToken(await signedWith('chave-atual-'.repeat(5), 'v9'))).toBe('token_invalid');
  });

  it('after a rotation it learns the new key from a token that names it, and drops the key two rotations old', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T10:00:00Z'), toFake: ['Date'] });
    const before = await signedWith('chave-anterior-'.repeat(5), 'v1');
    expect(await verifyToken(before)).not.toBe('token_invalid');
    // Another container rotated the secret and signs with v3.
    stages = { AWSCURRENT: { VersionId: 'v3', SecretString: 'chave-nova-'.repeat(6) }, AWSPREVIOUS: stages.AWSCURRENT! };
    const fresh = await signedWith('chave-nova-'.repeat(6), 'v3');
    vi.setSystemTime(Date.now() + KEY_RING_MIN_REFRESH_MS + 1);
    expect(await verifyToken(fresh)).toMatchObject({ principal: { userId: 'u1' } });
    expect(await verifyToken(await signedWith('chave-atual-'.repeat(5), 'v2'))).toMatchObject({ principal: { userId: 'u1' } });
    expect(await verifyToken(before)).toBe('token_invalid');
  });

  it('an unknown kid re-reads the keys at most once per interval', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T10:00:00Z'), toFake: ['Date'] });
    await verifyToken(await signedWith('chave-atual-'.repeat(5), 'v2'));
    const afterFirstRead = calls;
    for (let i = 0; i < 5; i++) await verifyToken(await signedWith('x'.repeat(40), `forjada-${i}`));
    expect(calls).toBe(afterFirstRead);
  });

  it('before the first rotation the ring holds AWSCURRENT alone', async () => {
    stages = { AWSCURRENT: stages.AWSCURRENT! };
    const ring = await readKeyRing(new SecretsManagerClient(), ARN);
    expect(ring.current.kid).toBe('v2');
    expect(ring.previous).toBeUndefined();
  });

  it('the twin signs and verifies with its inline key (kid local)', async () => {
    delete process.env.SESSION_KEY_SECRET_ARN;
    process.env.TOKEN_SECRET = 'segredo-do-gemeo-local-'.repeat(2);
    forgetKeyRing();
    const token = await signToken(principal, 's1', 900);
    expect(await verifyToken(token)).toMatchObject({ sid: 's1' });
    expect(calls).toBe(0);
  });
});
