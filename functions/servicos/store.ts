import { Entity, type EntityItem } from 'electrodb';
import { conflict } from '../platform/errors';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The service catalogue. Access patterns: a service by id (key); all services (gsi1, one small
 * partition: about ten items), sorted by their display order in memory.
 * Kept: the catalogue is reference data.
 */
const servico = entidadeSobDemanda(() => new Entity({
  model: { entity: 'servico', version: '1', service: 'servicos' },
  attributes: {
    idModuloServico: { type: 'number', required: true },
    descricao: { type: 'string', required: true },
    ordem: { type: 'number', required: true },
    ativo: { type: 'boolean', required: true },
    portal: { type: 'boolean', required: true },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['idModuloServico'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['idModuloServico'] } },
  },
}));

const db = servicoSobDemanda({ servico });

export type ServicoRecord = EntityItem<typeof servico>;

export async function findServico(idModuloServico: number): Promise<ServicoRecord | null> {
  const { data } = await db().entities.servico.get({ idModuloServico }).go();
  return data;
}

export async function listServicos(): Promise<ServicoRecord[]> {
  // Bounded: the service catalogue (9 services).
  const { data } = await db().entities.servico.query.all({}).go({ pages: 'all' });
  return data.sort((a, b) => a.ordem - b.ordem || a.idModuloServico - b.idModuloServico);
}

/** Only when missing (the seed): an existing service is left as it is. */
export async function createServico(record: ServicoRecord): Promise<void> {
  try {
    await db().entities.servico.create(record).go();
  } catch (error) {
    if (!/conditional/i.test(String(error)) && (error as { cause?: { name?: string } }).cause?.name !== 'ConditionalCheckFailedException') throw error;
  }
}

export async function patchServico(before: ServicoRecord, changes: Partial<Omit<ServicoRecord, 'idModuloServico'>>): Promise<void> {
  const result = await db()
    .transaction.write(({ servico }) => [
      servico
        .patch({ idModuloServico: before.idModuloServico })
        .set(changes)
        .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
        .commit(),
    ])
    .go();
  if (result.canceled) throw conflict('recursoDuplicado');
}

/**
 * The new display order, all at once: one transaction, each service conditioned on being unchanged
 * since it was read, so two administrators reordering at once cannot interleave.
 */
export async function saveOrder(items: readonly { before: ServicoRecord; ordem: number; at: string; by: string }[]): Promise<void> {
  const result = await db()
    .transaction.write(({ servico }) =>
      items.map(({ before, ordem, at, by }) =>
        servico
          .patch({ idModuloServico: before.idModuloServico })
          .set({ ordem, updatedAt: at, updatedBy: by })
          .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
          .commit(),
      ),
    )
    .go();
  if (result.canceled) throw conflict('recursoDuplicado');
}
