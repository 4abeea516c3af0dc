import { cargaReferencia } from '@plac/shared/contracts/tarefas';
import { UF_SIGLAS } from '@plac/shared/domain';
import { logger } from '../platform/observability';
import { EntradaInvalida, taskHandler } from '../platform/tarefa';
import municipios from './data/municipios.json' with { type: 'json' };
import { gravarCidadesDaUf } from './store';

/**
 * Tasks of the reference-load state machine (infra/lib/constructs/reference-load.ts; their payloads:
 * shared/src/contracts/tarefas.ts `cargaReferencia`): ListUfs → Map over the UFs with Retry →
 * Summarise. Each LoadUf writes one UF's municipality list from the data file bundled with the
 * function; writing the same list twice is harmless, so retries are safe.
 */
const data = municipios as unknown as Record<string, [number, string][]>;

export const handler = taskHandler(cargaReferencia, {
  listUfs: async () => ({ ufs: [...UF_SIGLAS] }),
  loadUf: async ({ uf }) => {
    const lista = data[uf];
    if (!lista) throw new EntradaInvalida(`no municipality list for UF ${uf}`);
    const cidades = lista.map(([codigo, nome]) => ({ codigo, nome }));
    await gravarCidadesDaUf(uf, cidades, new Date().toISOString());
    return { uf, cidades: cidades.length };
  },
  summarise: async ({ results }) => {
    const total = results.reduce((sum, r) => sum + r.cidades, 0);
    logger.info('reference data loaded', { ufs: results.length, cidades: total });
    return { ufs: results.length, cidades: total };
  },
});
