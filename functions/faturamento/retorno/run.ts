import { GetObjectCommand } from '@aws-sdk/client-s3';
import { pagamentoDeReserva } from '../../prepago';
import { s3Client } from '../../platform/aws';
import { config } from '../../platform/env';
import { logger } from '../../platform/observability';
import { chaveDoArquivo, passoDoJob } from './service';

/**
 * The task of the bank-return import's job (infra/lib/constructs/retorno.ts): one step matches the
 * payments of the import's kept file from where it stands, for up to PRAZO_MS, and says whether the
 * import is done. A step retried after a crash resumes from the last counted batch (service.ts).
 */

/** A step stops starting batches after this long; its timeout (300 s) leaves room for the batch in hand. */
const PRAZO_MS = 240_000;

export interface PassoRetorno {
  importacaoId: string;
  token: string;
}

export async function handler(event: PassoRetorno): Promise<PassoRetorno & { concluida: boolean }> {
  const lerArquivo = async () => {
    const objeto = await s3Client().send(new GetObjectCommand({ Bucket: config.documentsBucket, Key: chaveDoArquivo(event.importacaoId) }));
    return objeto.Body!.transformToString('utf-8');
  };
  const concluida = await passoDoJob(event.importacaoId, event.token, lerArquivo, pagamentoDeReserva, PRAZO_MS);
  logger.info('bank return import step', { importacaoId: event.importacaoId, concluida });
  return { ...event, concluida };
}
