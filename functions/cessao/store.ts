import { Entity, type EntityItem } from 'electrodb';
import { DIAS_FISCAIS, expiraAposDias } from '../platform/retencao';
import { isConditionalFailure } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The assignment registry (docs/cessao.md, docs/data-model.md "Assignments"): one item per (access key,
 * instalment nDup), in the Fat-e key's partition. The item is written only by a conditional create, so
 * an instalment is assigned at most once however many registrations race; all of a Fat-e's assignments
 * are one Query of its partition. Never a Scan.
 */
const cessao = entidadeSobDemanda(() => new Entity({
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
}));

const entities = { cessao };
const db = servicoSobDemanda(entities);

export type CessaoRecord = EntityItem<typeof cessao>;

/** The end date of an assignment registered at `registradaEm` (see `expiresAt`). */
export const expiraCessao = (registradaEm: string) => expiraAposDias(registradaEm, DIAS_FISCAIS);

/** Creates the item, with its end date; false when the instalment already has one (nothing changed). */
export async function criar(record: CessaoRecord): Promise<boolean> {
  try {
    await db().entities.cessao.create({ ...record, expiresAt: record.expiresAt ?? expiraCessao(record.registradaEm) }).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** The instalment's assignment (a consistent read: the one that won the create). */
export async function cessaoDa(chave: string, nDup: string): Promise<CessaoRecord | null> {
  const { data } = await db().entities.cessao.get({ chave, nDup }).go({ consistent: true });
  return data;
}

/** All of a Fat-e's assignments, by nDup (one Query of its partition). Bounded: one item per instalment, at most 120 (the NF-e's dup limit). */
export async function cessoesDaFate(chave: string): Promise<CessaoRecord[]> {
  // Bounded: one item per instalment of one Fat-e (at most 120).
  const { data } = await db().entities.cessao.query.byFate({ chave }).go({ pages: 'all' });
  return data;
}
