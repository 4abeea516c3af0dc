import type { Entity, EntityItem } from 'electrodb';

/**
 * A user and its e-mail's claim, their ElectroDB models: plain data, so the login's path reads them
 * without the table layer (tabela-direta.ts, issue 39). store.ts builds its entities from them.
 */

/** A user's group (gsi2's partition): the issuers apart, a client's users by its id, the Sefaz's staff. */
export function grupoOf(u: { clienteId?: string | undefined; tipo?: string | undefined; roles?: string[] | undefined }): string {
  if (u.roles?.includes('emissor')) return 'emissor';
  return u.clienteId ?? 'sefaz';
}

/** A user's list (gsi1's partition): the issuers apart from the staff the user list pages through. */
export function listaOf(u: { roles?: string[] | undefined }): 'emissor' | 'equipe' {
  return u.roles?.includes('emissor') ? 'emissor' : 'equipe';
}

/** Kept: users are removed by an administrator (soft, `deletedAt`), not by age. */
export const MODELO_USUARIO = {
  model: { entity: 'user', version: '1', service: 'users' },
  attributes: {
    userId: { type: 'string', required: true },
    name: { type: 'string', required: true },
    nameFolded: { type: 'string', required: true },
    email: { type: 'string', required: true },
    cpf: { type: 'string', required: true },
    telefone: { type: 'string' },
    situacao: { type: ['A', 'I'] as const, required: true },
    tipo: { type: ['C', 'S'] as const, required: true },
    roles: { type: 'list', items: { type: 'string' }, required: true },
    uf: { type: 'string' },
    clienteId: { type: 'string' },
    /** Derived: the partition of gsi2 (a client's users are one Query). */
    grupo: {
      type: 'string',
      watch: ['clienteId', 'tipo', 'roles'],
      set: (_: unknown, item: unknown) => grupoOf(item as { clienteId?: string; tipo?: string; roles?: string[] }),
    },
    /**
     * Derived: the partition of gsi1. The issuers apart ('emissor'): they grow with the companies that
     * log in, and the user list (the rest, 'equipe') must not read past them.
     */
    lista: {
      type: 'string',
      watch: ['roles'],
      set: (_: unknown, item: unknown) => listaOf(item as { roles?: string[] }),
    },
    /** Issuers: the CNPJ of their certificate. */
    cnpj: { type: 'string' },
    imageKey: { type: 'string' },
    passwordHash: { type: 'string' },
    /** A new login e-mail waiting for its confirmation link (issue 27 item 3); the login e-mail is still `email`. */
    emailPendente: { type: 'string' },
    deletedAt: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: [] } },
    porLista: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['lista'] }, sk: { field: 'gsi1sk', composite: ['nameFolded', 'userId'] } },
    /** Users by group: a client's id, or 'sefaz' / 'emissor' (see `grupoOf`). */
    byGrupo: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['grupo'] }, sk: { field: 'gsi2sk', composite: ['userId'] } },
  },
} as const;

/** Kept: the uniqueness claim of a user's e-mail, as long as the user. */
export const MODELO_USUARIO_EMAIL = {
  model: { entity: 'userEmail', version: '1', service: 'users' },
  attributes: { email: { type: 'string', required: true }, userId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } } },
} as const;

/** A user as ElectroDB answers it (a type only: nothing of ElectroDB is loaded for it). */
export type UserRecord = EntityItem<Entity<string, string, string, typeof MODELO_USUARIO>>;
