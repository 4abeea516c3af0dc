import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { DESCRICAO_EVENTO, documentoArmazenadoSchema, type DocumentoArmazenado } from '@plac/shared/contracts/documento-armazenado';
import { sqsClient } from '../platform/aws';
import { config } from '../platform/env';
import * as store from './store';
import { fateView } from './view';

/**
 * The loader's domain events (docs/webhooks.md, "Producers"): once a Fat-e or an event is stored, one
 * message goes to the documents queue, and only then is the item marked published (`publicadoEm`).
 * The mark is the outbox: a load that stopped between the write and the publication writes nothing
 * new when it runs again (the document is a repeat) but finds the mark missing and publishes then,
 * before the cursor moves past the document. So every stored document is published at least once;
 * a crash between the publication and the mark publishes it twice, which the producers absorb (their
 * delivery ids are deterministic and the dispatcher's log takes each id once).
 */

async function enviar(mensagem: DocumentoArmazenado): Promise<void> {
  // Validated on the way out too: a malformed message is a bug here, not the producer's to find.
  const body = documentoArmazenadoSchema.parse(mensagem);
  await sqsClient().send(new SendMessageCommand({ QueueUrl: config.documentosQueueUrl, MessageBody: JSON.stringify(body) }));
}

/**
 * Publishes the Fat-e's domain event unless it was already published (the Fat-e as stored now: a
 * cancellation included). `criado`: the record this load has just created and left unchanged, which
 * spares the read.
 */
export async function publicarFate(chave: string, criado?: store.FateRecord): Promise<void> {
  const atual = criado ?? (await store.fateAtual(chave));
  if (!atual || atual.publicadoEm) return;
  await enviar({ versao: 1, tipo: 'FATE', chave, fate: fateView(atual) });
  await store.marcarFatePublicada(chave, new Date().toISOString());
}

/** Publishes the event's domain event unless it was already published, with the key's Fat-e as stored now (or null). */
export async function publicarEvento(chave: string, tpEvento: string): Promise<void> {
  const evento = await store.eventoDe(chave, tpEvento);
  if (!evento || evento.publicadoEm) return;
  const fate = await store.fateAtual(chave);
  await enviar({
    versao: 1,
    tipo: 'EVENTO',
    chave,
    uf: evento.uf,
    evento: {
      tpEvento,
      descricao: DESCRICAO_EVENTO[tpEvento] ?? tpEvento,
      protocolo: evento.protocolo,
      justificativa: evento.justificativa,
      data: evento.data,
    },
    fate: fate ? { emitenteCnpj: fate.emitenteCnpj, transportadorDoc: fate.transportadorDoc ?? null, publicadoEm: fate.publicadoEm ?? null } : null,
  });
  await store.marcarEventoPublicado(chave, tpEvento, new Date().toISOString());
}
