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

/**
 * A CA's CRL as the platform keeps it for every container (lcr-compartilhada.ts reads it, the LcrRefresh
 * job keeps it current: lcr-atualizacao.ts), by the first URL of the cRLDistributionPoints that name it.
 * Written first by a request whose verified chain named an unknown CRL (the issuer and the URLs only),
 * then by the job each time it fetches and checks the CRL.
 * Kept: one per CRL that a chain verified to an ICP-Brasil root has named (ICP-Brasil's CAs: a few
 * hundred at most), rewritten in place by the job.
 */
export const MODELO_LCR = {
  model: { entity: 'lcr', version: '1', service: 'auth' },
  attributes: {
    url: { type: 'string', required: true },
    /** Every URL of the distribution point, the first included, tried in order. */
    urls: { type: 'list', items: { type: 'string' }, required: true },
    /** The issuing CA (PEM) whose key must have signed the CRL, and its SHA-256 fingerprint. */
    emissorPem: { type: 'string', required: true },
    emissorDigital: { type: 'string', required: true },
    /** The CRL last applied: its thisUpdate and nextUpdate (ISO), its scope. */
    emitidaEm: { type: 'string' },
    proximaEm: { type: 'string' },
    escopo: { type: ['all', 'ca', 'user'] as const },
    /** When the job last fetched, checked and applied a CRL; when it last tried (a CA's server down included). */
    aplicadaEm: { type: 'string' },
    tentadaEm: { type: 'string' },
    ultimaFalha: { type: 'string' },
    /** Entries of the CRL last applied. */
    revogados: { type: 'number' },
    registradaEm: { type: 'string', required: true },
    /** The job's listing: every CRL in one partition of gsi1 (a few hundred items, read by the job only). */
    todas: { type: 'string', required: true, default: 'lcr' },
  },
  indexes: {
    porUrl: { pk: { field: 'pk', composite: ['url'], casing: 'none' }, sk: { field: 'sk', composite: [] } },
    todas: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['todas'] }, sk: { field: 'gsi1sk', composite: ['url'], casing: 'none' } },
  },
} as const;

/**
 * A serial number on a CRL the job applied: present while the CRL lists it. A request reads it by key
 * (the CRL's first URL and the serial); the job lists a CRL's serials through gsi3 (keys only) to write
 * what changed between two CRLs, never the whole list again.
 * Kept: while the CA's CRL lists the certificate; removed by the job when it no longer does.
 */
export const MODELO_LCR_REVOGADO = {
  model: { entity: 'lcrRevogado', version: '1', service: 'auth' },
  attributes: {
    url: { type: 'string', required: true },
    /** Upper-case hex without leading zero bytes (crl.ts serialHex). */
    serial: { type: 'string', required: true },
  },
  indexes: {
    porSerial: { pk: { field: 'pk', composite: ['url', 'serial'], casing: 'none' }, sk: { field: 'sk', composite: [] } },
    daLcr: { index: 'gsi3', pk: { field: 'gsi3pk', composite: ['url'], casing: 'none' }, sk: { field: 'gsi3sk', composite: ['serial'], casing: 'none' } },
  },
} as const;

/** The items as ElectroDB answers them (types only: nothing of ElectroDB is loaded for them). */
export type FatorRecord = EntityItem<Entity<string, string, string, typeof MODELO_FATOR>>;
export type DesafioRecord = EntityItem<Entity<string, string, string, typeof MODELO_DESAFIO>>;
export type LcrRecord = EntityItem<Entity<string, string, string, typeof MODELO_LCR>>;
