import { randomBytes } from 'node:crypto';
import type { UserRecord } from '../users/direto';
import { gravarNovo, ler } from '../platform/tabela-direta';
import { MODELO_DESAFIO, MODELO_FATOR, type DesafioRecord, type FatorRecord } from './modelos';

/**
 * The password step's side of the second factor (segundo-fator.ts has the rest): whether the user has
 * an active factor, and the challenge the code step answers. Read and written without the table layer
 * (platform/tabela-direta.ts), so a password login's cold start does not load ElectroDB (issue 39).
 */

/** The time between the password and the code. */
export const DESAFIO_SEGUNDOS = 5 * 60;

export async function lerFator(userId: string): Promise<FatorRecord | null> {
  return ler<FatorRecord>(MODELO_FATOR, { userId }, { consistente: true });
}

export async function criarDesafio(d: DesafioRecord): Promise<void> {
  await gravarNovo(MODELO_DESAFIO, d);
}

/**
 * After a right password: the challenge the code step answers, or null when the user has no active
 * factor (the login opens its session at once).
 */
export async function desafiar(u: UserRecord, canal: 'sefaz' | 'cliente'): Promise<{ segundoFator: { desafio: string; expiraEm: string } } | null> {
  const f = await lerFator(u.userId);
  if (!f?.segredo) return null;
  const desafio = randomBytes(32).toString('base64url');
  const expira = Math.floor(Date.now() / 1000) + DESAFIO_SEGUNDOS;
  await criarDesafio({ desafioId: desafio, userId: u.userId, canal, expiresAt: expira });
  return { segundoFator: { desafio, expiraEm: new Date(expira * 1000).toISOString() } };
}
