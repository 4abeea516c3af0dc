import { atualizacaoLcr } from '@plac/shared/contracts/tarefas';
import { logger } from '../platform/observability';
import { taskHandler } from '../platform/tarefa';
import { atualizarLcr, listarLcrs } from './lcr-atualizacao';

/**
 * Tasks of the LcrRefresh state machine (infra/lib/constructs/lcr-refresh.ts; payloads: shared/src/
 * contracts/tarefas.ts `atualizacaoLcr`), every 15 minutes: listar → Map over the registered CRLs with
 * Retry → resumir. Applying a CRL writes only its differences from the one applied, so a retry, or a
 * second run over the same CRL, writes nothing twice.
 */
export const handler = taskHandler(atualizacaoLcr, {
  listar: async () => ({ urls: await listarLcrs() }),
  atualizar: async ({ url }) => atualizarLcr(url),
  resumir: async ({ results }) => {
    const falhas = results.filter((r) => !r.aplicada);
    if (falhas.length > 0) logger.warn('CRLs not refreshed', { falhas: falhas.map((f) => ({ url: f.url, falha: f.falha })) });
    logger.info('CRLs refreshed', { lcrs: results.length, aplicadas: results.length - falhas.length });
    return { lcrs: results.length, aplicadas: results.length - falhas.length, falhas: falhas.length };
  },
});
