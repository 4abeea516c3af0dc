import { hkdf } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '../aws-direto/secrets-manager';
import { isRole, type Principal, type Role } from '@plac/shared/access';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { keyFor, keyRing } from './signing-keys';

/**
 * Session tokens: short-lived HS256 JWTs carrying the principal, signed with the rotated session key
 * (signing-keys.ts: AWSCURRENT signs, AWSPREVIOUS still verifies, the version is the token's `kid`).
 * The token secret (Secrets Manager in AWS, TOKEN_SECRET in the twin) is the root the other purposes'
 * keys are derived from (derivedKey); it is not rotated, because what it encrypts is stored.
 */
const ISSUER = 'plac-fate';
const AUDIENCE = 'plac-fate-api';

let key: Promise<Uint8Array> | undefined;

function rootKey(): Promise<Uint8Array> {
  key ??= (async () => {
    const inline = process.env.TOKEN_SECRET;
    if (inline) return new TextEncoder().encode(inline);
    const arn = process.env.TOKEN_SECRET_ARN;
    if (!arn) throw new Error('TOKEN_SECRET or TOKEN_SECRET_ARN must be set');
    const secret = await new SecretsManagerClient().send(new GetSecretValueCommand({ SecretId: arn }));
    if (!secret.SecretString) throw new Error('token secret is empty');
    return new TextEncoder().encode(secret.SecretString);
  })();
  key.catch(() => (key = undefined));
  return key;
}

/**
 * A key for another purpose (webhook credentials, captcha signatures, page cursors) derived from the
 * root secret with HKDF, so that one secret is kept and no two purposes share a key. Not the rotated
 * session key: a webhook's stored password must still decrypt after a rotation.
 */
export async function derivedKey(purpose: string): Promise<Buffer> {
  const secret = await rootKey();
  return Buffer.from(await new Promise<ArrayBuffer>((resolve, reject) =>
    hkdf('sha256', secret, 'plac-fate', purpose, 32, (error, key) => (error ? reject(error) : resolve(key))),
  ));
}

export type TokenFailure = 'token_absent' | 'token_invalid' | 'token_expired';

export async function signToken(principal: Principal, sid: string, ttlSeconds: number): Promise<string> {
  const { current } = await keyRing();
  return new SignJWT({
    sid,
    name: principal.name,
    tipo: principal.tipo,
    roles: principal.roles,
    clienteId: principal.clienteId,
    uf: principal.uf,
  })
    .setProtectedHeader({ alg: 'HS256', kid: current.kid })
    .setSubject(principal.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(current.key);
}

export interface VerifiedToken {
  principal: Principal;
  /** The server-side session the token belongs to (auth/sessions.ts). */
  sid: string;
  issuedAt: number;
  expiresAt: number;
}

export async function verifyToken(token: string): Promise<VerifiedToken | TokenFailure> {
  try {
    const { kid } = decodeProtectedHeader(token);
    // A kid this container does not hold may be a rotation it has not seen yet: read the keys again once.
    const key = keyFor(await keyRing(), kid) ?? keyFor(await keyRing({ refresh: true }), kid);
    if (!key) return 'token_invalid';
    const { payload } = await jwtVerify(token, key, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    const roles = Array.isArray(payload.roles) ? payload.roles.filter(isRole) : [];
    const tipo = payload.tipo === 'S' || payload.tipo === 'C' ? payload.tipo : null;
    if (!payload.sub || !tipo || typeof payload.name !== 'string' || typeof payload.sid !== 'string') return 'token_invalid';
    return {
      principal: {
        userId: payload.sub,
        name: payload.name,
        tipo,
        roles: roles as Role[],
        ...(typeof payload.clienteId === 'string' ? { clienteId: payload.clienteId } : {}),
        ...(typeof payload.uf === 'string' ? { uf: payload.uf } : {}),
      },
      sid: payload.sid,
      issuedAt: payload.iat ?? 0,
      expiresAt: payload.exp ?? 0,
    };
  } catch (error) {
    return error instanceof joseErrors.JWTExpired ? 'token_expired' : 'token_invalid';
  }
}

/** `Bearer <token>` → the token, or null. */
export function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
