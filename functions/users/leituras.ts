import { ler } from '../platform/tabela-direta';
import { MODELO_USUARIO, MODELO_USUARIO_EMAIL, type UserRecord } from './modelos';

/**
 * The users' key reads, without the table layer (platform/tabela-direta.ts, issue 39): every login
 * reads its user by e-mail, so these stay out of ElectroDB's 190 KiB. The same items store.ts's
 * entities write (the same models, modelos.ts).
 */

/** A user by id; a deleted one (`deletedAt`) is none. */
export async function findUser(userId: string): Promise<UserRecord | null> {
  const data = await ler<UserRecord>(MODELO_USUARIO, { userId });
  return data && !data.deletedAt ? data : null;
}

export async function findUserIdByEmail(email: string): Promise<string | null> {
  return (await ler<{ userId: string }>(MODELO_USUARIO_EMAIL, { email }))?.userId ?? null;
}
