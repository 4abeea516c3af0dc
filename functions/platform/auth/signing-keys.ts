import { GetSecretValueCommand, SecretsManagerClient } from '../aws-direto/secrets-manager';

/**
 * The session tokens' signing keys (issue 29 item 1). In AWS the key is the data stack's
 * SessionSigningKey secret, which Secrets Manager rotates every 30 days (functions/auth/rotacao-chave.ts):
 * tokens are signed with the AWSCURRENT version and carry its VersionId as `kid`; a token signed with
 * the AWSPREVIOUS version still verifies, so the tokens issued just before a rotation (and by containers
 * that have not yet seen it) keep working for their 15 minutes (sessions.ts TOKEN_TTL_SECONDS). A kid
 * that is neither, or a token without one, is refused.
 *
 * The twin and the tests give the key inline (TOKEN_SECRET): one key, kid `local`. A stage deployed
 * without the session key secret signs with the key-derivation root (TOKEN_SECRET_ARN), kid `root`.
 */
export interface SigningKey {
  readonly kid: string;
  readonly key: Uint8Array;
}

export interface KeyRing {
  /** Signs new tokens. */
  readonly current: SigningKey;
  /** The version before the last rotation: still verifies, never signs. */
  readonly previous?: SigningKey;
}

/** Only this much of Secrets Manager's client is used: a fake in the tests. */
export interface SecretsReader {
  send(command: GetSecretValueCommand): Promise<{ SecretString?: string; VersionId?: string }>;
}

/** A container re-reads the keys this often, so it signs with the new key soon after a rotation. */
export const KEY_RING_MAX_AGE_MS = 10 * 60 * 1000;
/** An unknown kid re-reads the keys (a rotation this container has not seen), at most this often. */
export const KEY_RING_MIN_REFRESH_MS = 30 * 1000;

/** AWSCURRENT and, when there has been a rotation, AWSPREVIOUS of the secret. */
export async function readKeyRing(client: SecretsReader, secretId: string): Promise<KeyRing> {
  const version = async (stage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<SigningKey | undefined> => {
    try {
      const answer = await client.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: stage }));
      if (!answer.SecretString || !answer.VersionId) throw new Error(`signing key ${stage} is empty`);
      return { kid: answer.VersionId, key: new TextEncoder().encode(answer.SecretString) };
    } catch (error) {
      // Before the first rotation there is no AWSPREVIOUS.
      if (stage === 'AWSPREVIOUS' && (error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  };
  const [current, previous] = await Promise.all([version('AWSCURRENT'), version('AWSPREVIOUS')]);
  if (!current) throw new Error('signing key AWSCURRENT is missing');
  return previous && previous.kid !== current.kid ? { current, previous } : { current };
}

/** The key a token's `kid` names, if the ring holds it. */
export function keyFor(ring: KeyRing, kid: string | undefined): Uint8Array | undefined {
  if (!kid) return undefined;
  if (ring.current.kid === kid) return ring.current.key;
  if (ring.previous?.kid === kid) return ring.previous.key;
  return undefined;
}

let cached: { ring: Promise<KeyRing>; at: number } | undefined;
let client: SecretsManagerClient | undefined;

async function loadRing(): Promise<KeyRing> {
  const inline = process.env.TOKEN_SECRET;
  if (inline) return { current: { kid: 'local', key: new TextEncoder().encode(inline) } };
  client ??= new SecretsManagerClient();
  const sessionKeyArn = process.env.SESSION_KEY_SECRET_ARN;
  if (sessionKeyArn) return readKeyRing(client, sessionKeyArn);
  const rootArn = process.env.TOKEN_SECRET_ARN;
  if (!rootArn) throw new Error('TOKEN_SECRET, SESSION_KEY_SECRET_ARN or TOKEN_SECRET_ARN must be set');
  const root = await client.send(new GetSecretValueCommand({ SecretId: rootArn }));
  if (!root.SecretString) throw new Error('token secret is empty');
  return { current: { kid: 'root', key: new TextEncoder().encode(root.SecretString) } };
}

/**
 * The container's key ring, read once and again after KEY_RING_MAX_AGE_MS; `refresh` (an unknown kid)
 * reads it again if the last read is older than KEY_RING_MIN_REFRESH_MS, so a flood of forged kids
 * cannot turn into a flood of Secrets Manager calls.
 */
export function keyRing(options: { refresh?: boolean } = {}): Promise<KeyRing> {
  const now = Date.now();
  const stale = !cached || now - cached.at > KEY_RING_MAX_AGE_MS || (options.refresh && now - cached.at > KEY_RING_MIN_REFRESH_MS);
  if (stale) {
    const ring = loadRing();
    const entry = { ring, at: now };
    cached = entry;
    ring.catch(() => {
      if (cached === entry) cached = undefined;
    });
  }
  return cached!.ring;
}

/** Tests: forget the ring (a changed TOKEN_SECRET, a new fake). */
export function forgetKeyRing(): void {
  cached = undefined;
}
