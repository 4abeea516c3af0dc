import type { Entity, EntityItem } from 'electrodb';

/**
 * The second factor and the login's challenge, their ElectroDB models: plain data, so a password
 * login reads and writes them without the table layer (tabela-direta.ts, issue 39).
 * segundo-fator-store.ts builds its entities from them.
 */

/** Kept: one item per user, rewritten in place; it ends with an administrator's reset. */
export const MODELO_FATOR = {
  model: { entity: 'segundoFator', version: '1', service: 'auth' },
  attributes: {
    userId: { type: 'string', required: true },
    /** encryptSecret('segundo-fator', base32) of the active factor. */
    segredo: { type: 'string' },
    ativadoEm: { type: 'string' },
    /** The RFC 6238 step of the last code accepted: a code of that step or before is refused. */
    ultimoPasso: { type: 'number' },
    /** HMACs of the recovery codes still unused. */
    recuperacao: { type: 'set', items: 'string' },
    /** A secret shown for enrolment, active once its first code is confirmed. */
    pendente: { type: 'string' },
    pendenteDesde: { type: 'string' },
  },
  indexes: { byUser: { pk: { field: 'pk', composite: ['userId'] }, sk: { field: 'sk', composite: [] } } },
} as const;

/** Ends with its expiresAt: five minutes after the password. */
export const MODELO_DESAFIO = {
  model: { entity: 'segundoFatorDesafio', version: '1', service: 'auth' },
  attributes: {
    desafioId: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    /** Which login asked for it: the session it opens is that login's. */
    canal: { type: ['sefaz', 'cliente'] as const, required: true },
    /** Epoch seconds: refused after it, and removed by the table's TTL. */
    expiresAt: { type: 'number', required: true },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['desafioId'] }, sk: { field: 'sk', composite: [] } } },
} as const;

/** The items as ElectroDB answers them (types only: nothing of ElectroDB is loaded for them). */
export type FatorRecord = EntityItem<Entity<string, string, string, typeof MODELO_FATOR>>;
export type DesafioRecord = EntityItem<Entity<string, string, string, typeof MODELO_DESAFIO>>;
