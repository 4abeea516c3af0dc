import { argon2, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with Argon2id (Node's crypto.argon2, OpenSSL's), OWASP's first choice, at OWASP's
 * recommended minimum: 19 MiB, two passes, one lane. A hash is stored as the PHC string every Argon2
 * library reads (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, base64 without padding), so the
 * parameters travel with it and can be raised later without invalidating stored passwords.
 *
 * Before issue 39 the hash was scrypt at N=2^15, r=8, p=1: 32 MiB and ~90 ms of a core, a third of
 * the work OWASP asks of scrypt (N=2^15 needs p=3). Argon2id at these parameters meets OWASP's line
 * in ~31 ms of a core. A stored scrypt hash (`scrypt$N$r$p$salt$hash`) still logs its user in, and
 * the login then stores the password's Argon2id hash in its place (needsRehash).
 */
const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const TAG_LENGTH = 32;
const PHC_PREFIX = `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$`;

type Argon2Params = { memory: number; passes: number; parallelism: number };
type ScryptParams = { N: number; r: number; p: number };

/** The password as typed on any keyboard: the same characters, the same bytes (NFKC). */
const normalized = (password: string) => password.normalize('NFKC');

function argon2id(password: string, salt: Buffer, params: Argon2Params, tagLength = TAG_LENGTH): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    argon2('argon2id', { message: normalized(password), nonce: salt, tagLength, ...params }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

function scryptKey(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(normalized(password), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await argon2id(password, salt, ARGON2);
  return `${PHC_PREFIX}${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A stored hash read into what recomputing it takes; undefined when it is none of the two forms. */
function parsed(stored: string): { salt: Buffer; expected: Buffer; derive: (password: string, salt: Buffer) => Promise<Buffer> } | undefined {
  const argon = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/_-]{11,})\$([A-Za-z0-9+/_-]{11,})$/.exec(stored);
  if (argon) {
    const [, m, t, p, salt, hash] = argon as unknown as [string, string, string, string, string, string];
    const params = { memory: Number(m), passes: Number(t), parallelism: Number(p) };
    const expected = Buffer.from(hash, 'base64url');
    return { salt: Buffer.from(salt, 'base64url'), expected, derive: (password, s) => argon2id(password, s, params, expected.length) };
  }
  const legacy = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (legacy) {
    const [, n, r, p, salt, hash] = legacy as unknown as [string, string, string, string, string, string];
    const params = { N: Number(n), r: Number(r), p: Number(p) };
    const expected = Buffer.from(hash, 'base64');
    return { salt: Buffer.from(salt, 'base64'), expected, derive: (password, s) => scryptKey(password, s, params, expected.length) };
  }
  return undefined;
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const hash = parsed(stored ?? '');
  if (!hash) {
    // Same work as a real check, so that timing does not tell whether an account has a password.
    await argon2id(password, randomBytes(16), ARGON2);
    return false;
  }
  const key = await hash.derive(password, hash.salt);
  return key.length === hash.expected.length && timingSafeEqual(key, hash.expected);
}

/** A stored hash not made at today's parameters (an scrypt one, or Argon2id at others): a login that checked it stores a new one. */
export const needsRehash = (stored: string | undefined): boolean => stored !== undefined && !stored.startsWith(PHC_PREFIX);
