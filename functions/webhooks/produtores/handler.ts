import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { documentoArmazenadoSchema } from '@plac/shared/contracts/documento-armazenado';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../platform/observability';
import { enfileirarEntregas } from '../fila';
import { destinatariosDe } from './destinatarios';
import { entregasDe } from './regras';

/**
 * The webhook producers' Lambda: consumes the documents queue (the loader's domain events, up to 10
 * a batch) and puts one message per delivery on the webhook queue, in batches of 10. Partial batch
 * failures: a record that cannot be read (not JSON, an unknown version) or whose deliveries could not
 * be enqueued fails alone, comes back, and after the queue's maxReceiveCount waits in its dead-letter
 * queue; the others are done. Producing a document again is harmless: the delivery ids are
 * deterministic and the dispatcher's log takes each id once.
 */
async function record(r: SQSRecord): Promise<void> {
  const doc = documentoArmazenadoSchema.parse(JSON.parse(r.body));
  const entregas = entregasDe(doc, await destinatariosDe(doc));
  await enfileirarEntregas(entregas);
  logger.info('document event produced', { chave: doc.chave, tipo: doc.tipo, entregas: entregas.length });
}

/** A processor per invocation (its state is the batch's; the twin runs invocations at once). */
export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, record, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
