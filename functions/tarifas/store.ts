import { Entity, type EntityItem } from 'electrodb';
import { transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Bands and tariffs (docs/data-model.md, "Bands and tariffs"). Three entities:
 * - grupoFaixa: a band group's content (name, bands, promotional band, audit), by id;
 * - grupoTarifa: a tariff group's content (name, subscription, unit values per service and band,
 *   audit), by id, naming its band group;
 * - tarifacao: the one timeline item: which (band group, tariff group) pair is in force from which
 *   month to which, and a revision. Validity lives only here, so the kinds (current, draft, history)
 *   and the no-gap/no-overlap rule are read and changed in one item.
 *
 * Every change is one transaction: the timeline patched on the condition that its revision is the
 * one read (or created if it did not exist) together with the group items written or removed. Two
 * admins saving at once: one transaction wins, the other is cancelled and its service reads again.
 */

/** Kept: a band group is reference data; one that has been in force is never written again (the months it priced). */
const grupoFaixa = entidadeSobDemanda(() => new Entity({
  model: { entity: 'grupoFaixa', version: '1', service: 'tarifas' },
  attributes: {
    grupoFaixaId: { type: 'string', required: true },
    descricao: { type: 'string', required: true },
    /** The promotional band's faixaId, if any. */
    faixaPromocionalId: { type: 'string' },
    faixas: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          faixaId: { type: 'string', required: true },
          qtdMinima: { type: 'number', required: true },
          /** Absent: open-ended (only the last band). */
          qtdMaxima: { type: 'number' },
        },
      },
    },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['grupoFaixaId'] }, sk: { field: 'sk', composite: [] } } },
}));

/** Kept: a tariff group is reference data; one that has been in force is never written again (the months it priced). */
const grupoTarifa = entidadeSobDemanda(() => new Entity({
  model: { entity: 'grupoTarifa', version: '1', service: 'tarifas' },
  attributes: {
    grupoTarifaId: { type: 'string', required: true },
    grupoFaixaId: { type: 'string', required: true },
    descricao: { type: 'string', required: true },
    /** Centavos. */
    assinatura: { type: 'number', required: true },
    /** Thousandths of a real per (service, band); a missing pair is 0. */
    valores: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          servId: { type: 'number', required: true },
          faixaId: { type: 'string', required: true },
          valor: { type: 'number', required: true },
        },
      },
    },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['grupoTarifaId'] }, sk: { field: 'sk', composite: [] } } },
}));

/** Kept: the one timeline item of the versions, rewritten in place. */
const tarifacao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'tarifacao', version: '1', service: 'tarifas' },
  attributes: {
    revisao: { type: 'number', required: true },
    versoes: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          grupoFaixaId: { type: 'string', required: true },
          grupoTarifaId: { type: 'string', required: true },
          /** First business month in force, 'YYYY-MM'. */
          inicio: { type: 'string', required: true },
          /** Last business month in force; absent: no end. */
          fim: { type: 'string' },
        },
      },
    },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string' },
  },
  indexes: { byId: { pk: { field: 'pk', composite: [] }, sk: { field: 'sk', composite: [] } } },
}));

const db = servicoSobDemanda({ grupoFaixa, grupoTarifa, tarifacao });

export type GrupoFaixaRecord = EntityItem<typeof grupoFaixa>;
export type GrupoTarifaRecord = EntityItem<typeof grupoTarifa>;
export interface VersaoLinha {
  grupoFaixaId: string;
  grupoTarifaId: string;
  inicio: string;
  fim?: string | undefined;
}
export interface Linha {
  revisao: number;
  versoes: VersaoLinha[];
}

/** The timeline, or null before the first version. */
export async function lerLinha(): Promise<Linha | null> {
  const { data } = await db().entities.tarifacao.get({}).go({ consistent: true });
  if (!data) return null;
  return { revisao: data.revisao, versoes: data.versoes.map((v) => ({ ...v })) };
}

export async function lerGruposFaixa(ids: readonly string[]): Promise<Map<string, GrupoFaixaRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const { data } = await db().entities.grupoFaixa.get(unique.map((grupoFaixaId) => ({ grupoFaixaId }))).go({ consistent: true });
  return new Map(data.map((g) => [g.grupoFaixaId, g]));
}

export async function lerGruposTarifa(ids: readonly string[]): Promise<Map<string, GrupoTarifaRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const { data } = await db().entities.grupoTarifa.get(unique.map((grupoTarifaId) => ({ grupoTarifaId }))).go({ consistent: true });
  return new Map(data.map((g) => [g.grupoTarifaId, g]));
}

export interface Mudanca {
  /** The revision read; null when the timeline did not exist. */
  revisao: number | null;
  versoes: VersaoLinha[];
  gravarFaixas?: GrupoFaixaRecord[];
  gravarTarifas?: GrupoTarifaRecord[];
  removerFaixas?: string[];
  removerTarifas?: string[];
  at: string;
  by: string;
}

/**
 * Writes a change in one transaction. Answers false when the timeline is no longer at the revision
 * read (another change won): nothing was written.
 */
export async function gravar(m: Mudanca): Promise<boolean> {
  const versoes = m.versoes.map(({ fim, ...v }) => (fim ? { ...v, fim } : v));
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ grupoFaixa: f, grupoTarifa: t, tarifacao: l }) => [
        m.revisao === null
          ? l.create({ revisao: 1, versoes, updatedAt: m.at, updatedBy: m.by }).commit()
          : l
              .patch({})
              .set({ revisao: m.revisao + 1, versoes, updatedAt: m.at, updatedBy: m.by })
              .where((attr, op) => op.eq(attr.revisao, m.revisao!))
              .commit(),
        ...(m.gravarFaixas ?? []).map((r) => f.put(r).commit()),
        ...(m.gravarTarifas ?? []).map((r) => t.put(r).commit()),
        ...(m.removerFaixas ?? []).map((grupoFaixaId) => f.delete({ grupoFaixaId }).commit()),
        ...(m.removerTarifas ?? []).map((grupoTarifaId) => t.delete({ grupoTarifaId }).commit()),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data[0]?.code === 'ConditionalCheckFailed' || result.data.some((d) => d.code === 'TransactionConflict')) return false;
  throw new Error(`tariff change cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}
