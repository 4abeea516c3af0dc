import type { Entity, EntityItem } from 'electrodb';

/** The assignment's item, its ElectroDB model: plain data, so paths without the table layer read it too (tabela-direta.ts). */

/**
 * The assignment registry (docs/cessao.md, docs/data-model.md "Assignments"): one item per (access key,
 * instalment nDup), in the Fat-e key's partition. The item is written only by a conditional create, so
 * an instalment is assigned at most once however many registrations race; all of a Fat-e's assignments
 * are one Query of its partition. Never a Scan.
 */
export const MODELO_CESSAO = {
  model: { entity: 'cessao', version: '1', service: 'cessao' },
  attributes: {
    /** The 44-character access key, upper-case, without spaces. */
    chave: { type: 'string', required: true },
    /** The instalment's nDup as the Fat-e writes it (case kept: the key's casing is 'none'). */
    nDup: { type: 'string', required: true },
    /** The client (IMF, the Fat-e's bookkeeper) that registered it. */
    clienteId: { type: 'string', required: true },
    cnpjCessionario: { type: 'string', required: true },
    /** 'YYYY-MM-DD'. */
    dataCessao: { type: 'string', required: true },
    /** Centavos. */
    valor: { type: 'number', required: true },
    /** The key's UF (its cUF), the metering's origin UF. */
    uf: { type: 'string', required: true },
    registradaEm: { type: 'string', required: true },
    registradaPor: { type: 'string', required: true },
    /**
     * TTL (epoch seconds): DIAS_FISCAIS (five years and a month) after the registration. An assignment
     * is a charged use (service 8): it is what stands behind that line of the invoice of its month, so
     * it lives as long as the invoice. That is longer than its Fat-e (five years after emission): a
     * registration needs its Fat-e stored, so it comes after the emission, and the Fat-e's look-ups
     * always find its assignments (docs/data-model.md, "Retention (issue 38)").
     */
    expiresAt: { type: 'number' },
  },
  indexes: {
    byFate: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: ['nDup'], casing: 'none' } },
  },
} as const;

/** An item of the model as ElectroDB answers it (a type only: nothing of ElectroDB is loaded for it). */
export type CessaoRecord = EntityItem<Entity<string, string, string, typeof MODELO_CESSAO>>;
