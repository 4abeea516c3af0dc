import { Entity } from 'electrodb';
import { conflict } from '../platform/errors';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';
import { MODELO_SERVICO, type ServicoRecord } from './modelos';
export { listServicos } from './leituras';

/**
 * The service catalogue. Access patterns: a service by id (key); all services (gsi1, one small
 * partition: about ten items), sorted by their display order in memory.
 * Kept: the catalogue is reference data.
 */
const servico = entidadeSobDemanda(() => new Entity(MODELO_SERVICO));

const db = servicoSobDemanda({ servico });

export type { ServicoRecord } from './modelos';

export async function findServico(idModuloServico: number): Promise<ServicoRecord | null> {
  const { data } = await db().entities.servico.get({ idModuloServico }).go();
  return data;
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
