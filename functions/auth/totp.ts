import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * The second factor's rules (issue 42, OWASP ASVS 4.0.3 V2.8): time-based one-time codes (RFC 6238:
 * SHA-1, 6 digits, 30 s steps, what every authenticator app reads from the QR code) and recovery codes.
 * Pure: the store and the login flow are segundo-fator.ts.
 */

export const EMISSOR = 'PLAC Fat-e';
/** A phone's clock may be a step off either way (RFC 6238 §5.2): the previous, current and next step. */
const JANELA = 1;
export const RECUPERACAO_QTD = 10;

/** A new secret: 160 bits, as RFC 4226 recommends for HMAC-SHA-1. Its base32 form is what the app reads. */
export function novoSegredo(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI of the QR code, named by the platform and the user's login e-mail. */
export function uriDoSegredo(segredoBase32: string, email: string): string {
  return new TOTP({ issuer: EMISSOR, label: email, secret: Secret.fromBase32(segredoBase32) }).toString();
}

export const passoAtual = (agora = Date.now()) => TOTP.counter({ timestamp: agora });

/** The code an app shows during step `passo` (the tests and the demo walk-through compute codes with it). */
export function codigoDoPasso(segredoBase32: string, passo: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(segredoBase32), timestamp: passo * 30_000 });
}

/**
 * The step a 6-digit code belongs to, or null when it matches none of the window's steps. A code
 * is accepted once (ASVS 2.8.4): the caller refuses a step not after the last one used.
 */
export function passoDoCodigo(segredoBase32: string, codigo: string, agora = Date.now()): number | null {
  if (!/^\d{6}$/.test(codigo)) return null;
  const delta = TOTP.validate({ token: codigo, secret: Secret.fromBase32(segredoBase32), timestamp: agora, window: JANELA });
  return delta === null ? null : passoAtual(agora) + delta;
}

/** What a typed code is: six digits from the app, a recovery code (`XXXXX-XXXXX`, any case, dash optional), or neither. */
export function tipoDoCodigo(codigo: string): { tipo: 'totp'; codigo: string } | { tipo: 'recuperacao'; codigo: string } | null {
  const limpo = codigo.replace(/\s+/g, '');
  if (/^\d{6}$/.test(limpo)) return { tipo: 'totp', codigo: limpo };
  const rec = limpo.toUpperCase().replace(/-/g, '');
  if (/^[A-Z2-7]{10}$/.test(rec)) return { tipo: 'recuperacao', codigo: `${rec.slice(0, 5)}-${rec.slice(5)}` };
  return null;
}

/** Ten recovery codes of 50 random bits each (base32, `XXXXX-XXXXX`), shown once. */
export function novosCodigosRecuperacao(): string[] {
  return Array.from({ length: RECUPERACAO_QTD }, () => {
    // A copy: a small Buffer may sit in a shared pool, and .buffer would be the whole pool.
    const b32 = new Secret({ buffer: new Uint8Array(randomBytes(7)).buffer }).base32.slice(0, 10);
    return `${b32.slice(0, 5)}-${b32.slice(5)}`;
  });
}

/**
 * A recovery code as stored: an HMAC under a key of its own purpose, never the code (50 random bits
 * and five tries per quarter hour make a slow hash unnecessary).
 */
export function hashRecuperacao(chave: Buffer, codigo: string): string {
  return createHmac('sha256', chave).update(codigo).digest('base64url');
}

/** The stored hash the code matches, compared in constant time, or null. */
export function recuperacaoCorrespondente(chave: Buffer, codigo: string, guardados: readonly string[]): string | null {
  const h = Buffer.from(hashRecuperacao(chave, codigo));
  return guardados.find((g) => g.length === h.length && timingSafeEqual(Buffer.from(g), h)) ?? null;
}
