import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from './auth/tokens';
import { invalid } from './errors';

/**
 * Opaque page cursors. A list answers one page and, when more follow, a `nextCursor` that the caller
 * passes back as `?cursor=`. The cursor is the store's position (ElectroDB's cursor, i.e. DynamoDB's
 * LastEvaluatedKey) sealed with AES-256-GCM under a key of its own purpose, with the caller and the
 * query as additional authenticated data: another caller's cursor, a cursor of another query, or an
 * edited one fails authentication and answers 400 'cursorInvalido' before anything is read.
 */
const PURPOSE = 'page-cursor';

/** Seals the store's position for one caller and one query (`binding`: e.g. `<client id>|<route>|<params>`). */
export async function selarCursor(posicao: string, binding: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derivedKey(PURPOSE), iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const data = Buffer.concat([cipher.update(posicao, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
}

/** The store's position in a cursor sealed for this caller and query; 400 'cursorInvalido' otherwise. */
export async function abrirCursor(cursor: string, binding: string): Promise<string> {
  const raw = /^[A-Za-z0-9_-]{40,4000}$/.test(cursor) ? Buffer.from(cursor, 'base64url') : null;
  if (!raw || raw.length < 29) throw invalid('cursorInvalido');
  try {
    const decipher = createDecipheriv('aes-256-gcm', await derivedKey(PURPOSE), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw invalid('cursorInvalido');
  }
}

/** Seals a page's `cursor` (null on the last page: no nextCursor). */
export async function proximoCursor(posicao: string | null | undefined, binding: string): Promise<string | undefined> {
  return posicao ? selarCursor(posicao, binding) : undefined;
}
