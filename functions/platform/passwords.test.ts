import { randomBytes } from 'node:crypto';
import { argon2id } from '@noble/hashes/argon2.js';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { hashScryptAntigo } from './passwords.test-util';

describe('passwords: Argon2id at OWASP minimum, stored as a PHC string', () => {
  it('stores $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>, and another implementation (@noble/hashes) computes the same hash from it', async () => {
    const hash = await hashPassword('Senha-forte-2026');
    const m = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(hash);
    expect(m).not.toBeNull();
    const salt = Buffer.from(m![1]!, 'base64url');
    expect(salt).toHaveLength(16);
    const esperado = argon2id('Senha-forte-2026', salt, { t: 2, m: 19_456, p: 1, dkLen: 32 });
    expect(Buffer.from(m![2]!, 'base64url').equals(Buffer.from(esperado))).toBe(true);
  });

  it('a new salt every time: the same password never gives the same hash', async () => {
    expect(await hashPassword('igual')).not.toBe(await hashPassword('igual'));
  });

  it('verifies the right password and refuses a wrong one, an empty one, and one differing in case', async () => {
    const hash = await hashPassword('Correta-123');
    expect(await verifyPassword('Correta-123', hash)).toBe(true);
    expect(await verifyPassword('correta-123', hash)).toBe(false);
    expect(await verifyPassword('Correta-124', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('reads a hash made by another Argon2id implementation, at other parameters (the parameters travel with the hash)', async () => {
    const salt = randomBytes(16);
    const tag = argon2id('Outra-lib', salt, { t: 3, m: 4096, p: 2, dkLen: 24 });
    const phc = `$argon2id$v=19$m=4096,t=3,p=2$${salt.toString('base64url')}$${Buffer.from(tag).toString('base64url')}`;
    expect(await verifyPassword('Outra-lib', phc)).toBe(true);
    expect(await verifyPassword('Outra-lyb', phc)).toBe(false);
    expect(needsRehash(phc)).toBe(true);
  });

  it('the same characters typed differently are the same password (NFKC): a precomposed é and e + combining acute', async () => {
    const hash = await hashPassword('caf\u00e9-2026');
    expect(await verifyPassword('cafe\u0301-2026', hash)).toBe(true);
  });

  it('a hash stored before issue 39 (scrypt) still verifies, and asks to be stored again', async () => {
    const antigo = hashScryptAntigo('Antiga-2025');
    expect(await verifyPassword('Antiga-2025', antigo)).toBe(true);
    expect(await verifyPassword('Antiga-2026', antigo)).toBe(false);
    expect(needsRehash(antigo)).toBe(true);
    expect(needsRehash(await hashPassword('Nova-2026'))).toBe(false);
    expect(needsRehash(undefined)).toBe(false);
  });

  it('no hash, or one in no known form, refuses every password (after the same work as a real check)', async () => {
    for (const stored of [undefined, '', 'scrypt$x', '$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo', 'texto-puro']) {
      expect(await verifyPassword('qualquer', stored)).toBe(false);
    }
  });
});
