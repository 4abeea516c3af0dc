import { FLUXOS, isUf } from '@plac/shared/domain';
import { logger } from '../platform/observability';
import { carregarUf, sefazAtivas, type ResultadoCarga } from './carga';

/**
 * Tasks of the Sefaz load state machine (infra/lib/constructs/sefaz-load.ts), started every 5 minutes
 * by EventBridge Scheduler: ListSefaz → Map over the active Sefaz (each LoadSefaz pulls one UF's goods
 * and then its transport distribution until each has caught up, with Retry) → Summarise. A retried
 * LoadSefaz resumes from each stream's committed cursor.
 */
export type SefazLoadEvent =
  | { task: 'listSefaz' }
  | { task: 'loadSefaz'; uf: string }
  | { task: 'summarise'; results: ResultadoCarga[][] };

export async function handler(event: SefazLoadEvent) {
  switch (event.task) {
    case 'listSefaz':
      return { ufs: sefazAtivas() };
    case 'loadSefaz': {
      if (!isUf(event.uf)) throw new Error(`unknown UF ${String(event.uf)}`);
      const uf = event.uf;
      const fluxos: ResultadoCarga[] = [];
      for (const fluxo of FLUXOS) fluxos.push(await carregarUf(uf, { fluxo }));
      return fluxos;
    }
    case 'summarise': {
      const cargas = event.results.flat();
      const soma = (key: 'fate' | 'eventos' | 'resumos' | 'erros' | 'repetidos') => cargas.reduce((sum, r) => sum + (r[key] ?? 0), 0);
      const resumo = {
        ufs: event.results.length,
        fate: soma('fate'),
        eventos: soma('eventos'),
        resumos: soma('resumos'),
        erros: soma('erros'),
        repetidos: soma('repetidos'),
        aguardando: cargas.filter((r) => r.situacao === 'aguardando').map((r) => `${r.uf}/${r.fluxo}`),
        recusadas: cargas.filter((r) => r.situacao === 'recusada' || r.situacao === 'indisponivel').map((r) => `${r.uf}/${r.fluxo}`),
      };
      logger.info('Sefaz load finished', resumo);
      return resumo;
    }
    default:
      throw new Error(`unknown task ${(event as { task?: unknown }).task as string}`);
  }
}
