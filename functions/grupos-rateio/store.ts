import { Entity, type EntityItem } from 'electrodb';
import { transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Sharing groups (docs/data-model.md, "Revenue sharing"). Entities:
 * - rateioLinha: the one timeline item: which group is in force from which month to which, and a
 *   revision. Validity lives only here, so the situations (current, draft, deactivated), the one-draft
 *   rule and the chaining of validities are read and changed in one item;
 * - grupoRateio: a group's content (name, SEFAZ percentage, beneficiaries with accounts, audit), by id;
 * - rateioHistorico: a group's audit trail, under the group's partition, by time;
 * - participante: the participants (the Sefaz of each UF and the others), one partition by id.
 *
 * Every change is one transaction: the timeline patched on the condition that its revision is the one
 * read (or created when absent) with the group items, the new participants and the history entries.
 * Two administrators saving at once: one transaction wins, the other is cancelled and re-read.
 */

/** Kept: the one timeline item, rewritten in place. */
const linha = entidadeSobDemanda(() => new Entity({
  model: { entity: 'rateioLinha', version: '1', service: 'rateio' },
  attributes: {
    revisao: { type: 'number', required: true },
    grupos: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          grupoRateioId: { type: 'string', required: true },
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

/** Kept: a sharing group's content: reference data an administrator edits (the timeline names the groups that were in force). */
const grupo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'grupoRateio', version: '1', service: 'rateio' },
  attributes: {
    grupoRateioId: { type: 'string', required: true },
    descricao: { type: 'string', required: true },
    percentualSefaz: { type: 'number', required: true },
    beneficiados: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          beneficiadoId: { type: 'string', required: true },
          participanteId: { type: 'string', required: true },
          tipo: { type: ['SEFAZ', 'PARTICIPANTE', 'RESIDUO'] as const, required: true },
          /** Non-SEFAZ beneficiaries' own percentage; SEFAZ ones use the group's. */
          percentual: { type: 'number', required: true },
          /** The agreement period (SEFAZ) or validity, 'YYYY-MM-DD'. */
          vigenciaInicial: { type: 'string', required: true },
          vigenciaFinal: { type: 'string' },
          convenioAtivo: { type: 'boolean', required: true },
          banco: { type: 'string' },
          agencia: { type: 'string' },
          dvAgencia: { type: 'string' },
          conta: { type: 'string' },
          dvConta: { type: 'string' },
          contaAtiva: { type: 'boolean' },
        },
      },
    },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['grupoRateioId'] }, sk: { field: 'sk', composite: [] } } },
}));

/** Kept: a sharing group's audit trail: a few items per change an administrator makes. */
const historico = entidadeSobDemanda(() => new Entity({
  model: { entity: 'rateioHistorico', version: '1', service: 'rateio' },
  attributes: {
    grupoRateioId: { type: 'string', required: true },
    em: { type: 'string', required: true },
    historicoId: { type: 'string', required: true },
    por: { type: 'string', required: true },
    acao: { type: 'string', required: true },
    detalhe: { type: 'string', required: true },
  },
  indexes: { byGrupo: { pk: { field: 'pk', composite: ['grupoRateioId'] }, sk: { field: 'sk', composite: ['em', 'historicoId'] } } },
}));

/** Kept: the participants (the 27 Sefaz and a few others): reference data. */
const participante = entidadeSobDemanda(() => new Entity({
  model: { entity: 'participante', version: '1', service: 'rateio' },
  attributes: {
    participanteId: { type: 'string', required: true },
    nome: { type: 'string', required: true },
    sefaz: { type: 'boolean', required: true },
    uf: { type: 'string' },
    createdAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
  },
  indexes: { all: { pk: { field: 'pk', composite: [] }, sk: { field: 'sk', composite: ['participanteId'] } } },
}));

const db = servicoSobDemanda({ linha, grupo, historico, participante });

export type GrupoRecord = EntityItem<typeof grupo>;
export type BeneficiadoRecord = GrupoRecord['beneficiados'][number];
export type HistoricoRecord = EntityItem<typeof historico>;
export type ParticipanteRecord = EntityItem<typeof participante>;
export interface VersaoLinha {
  grupoRateioId: string;
  inicio: string;
  fim?: string | undefined;
}
export interface Linha {
  revisao: number;
  grupos: VersaoLinha[];
}

export async function lerLinha(): Promise<Linha | null> {
  const { data } = await db().entities.linha.get({}).go({ consistent: true });
  if (!data) return null;
  return { revisao: data.revisao, grupos: data.grupos.map((g) => ({ ...g })) };
}

export async function lerGrupos(ids: readonly string[]): Promise<Map<string, GrupoRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const { data } = await db().entities.grupo.get(unique.map((grupoRateioId) => ({ grupoRateioId }))).go({ consistent: true });
  return new Map(data.map((g) => [g.grupoRateioId, g]));
}

export async function lerHistorico(grupoRateioId: string): Promise<HistoricoRecord[]> {
  // Bounded: one sharing group's audited changes (an administrator's edits of one group).
  const { data } = await db().entities.historico.query.byGrupo({ grupoRateioId }).go({ pages: 'all', order: 'desc' });
  return data;
}

export async function listarParticipantes(): Promise<ParticipanteRecord[]> {
  // Bounded: the sharing participants (27 Sefaz and a handful of others).
  const { data } = await db().entities.participante.query.all({}).go({ pages: 'all' });
  return data;
}

export interface Mudanca {
  revisao: number | null;
  grupos: VersaoLinha[];
  gravar?: GrupoRecord[];
  remover?: string[];
  historico?: HistoricoRecord[];
  participantes?: ParticipanteRecord[];
  at: string;
  by: string;
}

/** Writes a change in one transaction; false when the timeline is no longer at the revision read. */
export async function gravar(m: Mudanca): Promise<boolean> {
  const grupos = m.grupos.map(({ fim, ...v }) => (fim ? { ...v, fim } : v));
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ linha: l, grupo: g, historico: h, participante: p }) => [
        m.revisao === null
          ? l.create({ revisao: 1, grupos, updatedAt: m.at, updatedBy: m.by }).commit()
          : l
              .patch({})
              .set({ revisao: m.revisao + 1, grupos, updatedAt: m.at, updatedBy: m.by })
              .where((attr, op) => op.eq(attr.revisao, m.revisao!))
              .commit(),
        ...(m.gravar ?? []).map((r) => g.put(r).commit()),
        ...(m.remover ?? []).map((grupoRateioId) => g.delete({ grupoRateioId }).commit()),
        ...(m.historico ?? []).map((r) => h.create(r).commit()),
        ...(m.participantes ?? []).map((r) => p.create(r).commit()),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data[0]?.code === 'ConditionalCheckFailed' || result.data.some((d) => d.code === 'TransactionConflict')) return false;
  throw new Error(`sharing change cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/** The seed's participants: those whose id is absent. */
export async function semearParticipantes(registros: readonly ParticipanteRecord[]): Promise<void> {
  const existentes = new Set((await listarParticipantes()).map((p) => p.participanteId));
  await Promise.all(
    registros.filter((r) => !existentes.has(r.participanteId)).map((r) => db().entities.participante.put(r).go()),
  );
}
