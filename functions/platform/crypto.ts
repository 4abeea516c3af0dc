import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from './auth/tokens';

/**
 * Secrets we must give back to their owner's systems (a webhook's password) are stored encrypted
 * with AES-256-GCM under a key of their own purpose; the stored form is `v1.<iv>.<tag>.<data>`.
 */
export async function encryptSecret(purpose: string, plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derivedKey(purpose), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export async function decryptSecret(purpose: string, stored: string): Promise<string> {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', await derivedKey(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
