import { type Principal, type Role } from '@plac/shared/access';
import { dentroDoPrazo, todayInBahia } from '@plac/shared/domain';
import { clienteResumo, type ClienteResumo } from '../clientes/direto';
import { presignDownload } from '../platform/documents';
import { findUser, findUserIdByEmail } from './leituras';
import type { UserRecord } from './modelos';

/**
 * A login's user: found by e-mail, and the principal and session user it signs in as. Read without the
 * table layer (leituras.ts), so a login's cold start does not load ElectroDB (issue 39).
 */

const AVATAR_URL_SECONDS = 3600;
const avatarType = (key: string) => (key.endsWith('.png') ? 'image/png' : 'image/jpeg');

/** The signed-in user as the portal keeps it (auth contract's sessionUserSchema). */
export async function sessionUser(u: UserRecord, cliente?: ClienteResumo | null) {
  const c = cliente === undefined ? (u.clienteId ? await clienteResumo(u.clienteId) : null) : cliente;
  const prazo = c?.prazo_sem_certificado ?? null;
  const isIssuer = (u.roles as Role[]).includes('emissor');
  return {
    userId: u.userId,
    name: u.name,
    email: u.email,
    tipo: u.tipo,
    roles: u.roles as Role[],
    ...(u.clienteId ? { clienteId: u.clienteId } : {}),
    ...(c ? { razaoSocial: c.razao_social } : {}),
    ...(u.uf ? { uf: u.uf } : {}),
    ...(u.cnpj ? { cnpj: u.cnpj } : c ? { cnpj: c.cnpj } : {}),
    image: u.imageKey ? await presignDownload(u.imageKey, avatarType(u.imageKey), { inline: true }, AVATAR_URL_SECONDS) : null,
    prazoSemCertificado: u.tipo === 'C' ? prazo : null,
    podeAlterarSenha: !isIssuer && (u.tipo === 'S' || dentroDoPrazo(prazo, todayInBahia())),
    emailPendente: u.emailPendente ?? null,
  };
}

export function principalOf(u: UserRecord): Principal {
  return {
    userId: u.userId,
    name: u.name,
    tipo: u.tipo,
    roles: u.roles as Role[],
    ...(u.clienteId ? { clienteId: u.clienteId } : {}),
    ...(u.uf ? { uf: u.uf } : {}),
  };
}

export async function findByEmail(email: string): Promise<UserRecord | null> {
  const id = await findUserIdByEmail(email);
  return id ? findUser(id) : null;
}
