import type { Entity, EntityItem } from 'electrodb';

/** The service catalogue's item, its ElectroDB model: plain data, so paths without the table layer read it too (tabela-direta.ts). */

/**
 * A service of the catalogue (its id, label, display order, and whether it is active and shown on the portal).
 * Kept: the catalogue is reference data.
 */
export const MODELO_SERVICO = {
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
} as const;

/** An item of the model as ElectroDB answers it (a type only: nothing of ElectroDB is loaded for it). */
export type ServicoRecord = EntityItem<Entity<string, string, string, typeof MODELO_SERVICO>>;
