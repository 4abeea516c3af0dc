import { GetObjectCommand } from '../../platform/aws-direto/s3';
import { retorno } from '@plac/shared/contracts/tarefas';
import { pagamentoDeReserva } from '../../prepago';
import { s3Client } from '../../platform/aws';
import { config } from '../../platform/env';
import { logger } from '../../platform/observability';
import { taskHandler } from '../../platform/tarefa';
import { chaveDoArquivo, passoDoJob } from './service';

/**
 * The task of the bank-return import's job (infra/lib/constructs/retorno.ts; its payload: shared/src/
 * contracts/tarefas.ts `retorno`): one step matches the
 * payments of the import's kept file from where it stands, for up to PRAZO_MS, and says whether the
 * import is done. A step retried after a crash resumes from the last counted batch (service.ts).
 */

/** A step stops starting batches after this long; its timeout (300 s) leaves room for the batch in hand. */
const PRAZO_MS = 240_000;

export const handler = taskHandler(retorno, {
  passo: async ({ importacaoId, token }) => {
    const lerArquivo = async () => {
      const objeto = await s3Client().send(new GetObjectCommand({ Bucket: config.documentsBucket, Key: chaveDoArquivo(importacaoId) }));
      return objeto.Body!.transformToString('utf-8');
    };
    const concluida = await passoDoJob(importacaoId, token, lerArquivo, pagamentoDeReserva, PRAZO_MS);
    logger.info('bank return import step', { importacaoId, concluida });
    return { importacaoId, token, concluida };
  },
});
