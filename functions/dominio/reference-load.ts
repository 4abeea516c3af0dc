import { UF_SIGLAS, isUf } from '@plac/shared/domain';
import { logger } from '../platform/observability';
import municipios from './data/municipios.json' with { type: 'json' };
import { gravarCidadesDaUf } from './store';

/**
 * Tasks of the reference-load state machine (infra/lib): ListUfs → Map over the UFs with Retry →
 * Summarise. Each LoadUf writes one UF's municipality list from the data file bundled with the
 * function; writing the same list twice is harmless, so retries are safe.
 */
export type ReferenceLoadEvent =
  | { task: 'listUfs' }
  | { task: 'loadUf'; uf: string }
  | { task: 'summarise'; results: { uf: string; cidades: number }[] };

const data = municipios as unknown as Record<string, [number, string][]>;

export async function handler(event: ReferenceLoadEvent) {
  switch (event.task) {
    case 'listUfs':
      return { ufs: [...UF_SIGLAS] };
    case 'loadUf': {
      if (!isUf(event.uf) || !data[event.uf]) throw new Error(`unknown UF ${String(event.uf)}`);
      const cidades = data[event.uf]!.map(([codigo, nome]) => ({ codigo, nome }));
      await gravarCidadesDaUf(event.uf, cidades, new Date().toISOString());
      return { uf: event.uf, cidades: cidades.length };
    }
    case 'summarise': {
      const total = event.results.reduce((sum, r) => sum + r.cidades, 0);
      logger.info('reference data loaded', { ufs: event.results.length, cidades: total });
      return { ufs: event.results.length, cidades: total };
    }
    default:
      throw new Error(`unknown task ${(event as { task?: unknown }).task as string}`);
  }
}
