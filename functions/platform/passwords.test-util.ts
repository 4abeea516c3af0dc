import { randomBytes, scryptSync } from 'node:crypto';

/** A password hash in the form stored before issue 39 (scrypt N=2^15, r=8, p=1), made as that code made it. */
export function hashScryptAntigo(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 128 * 2 ** 15 * 8 * 2 });
  return `scrypt$${2 ** 15}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}
