import { SendMessageCommand } from '../platform/aws-direto/sqs';
import { DESCRICAO_EVENTO, documentoArmazenadoSchema, type DocumentoArmazenado } from '@plac/shared/contracts/documento-armazenado';
import { createHash } from 'node:crypto';
import { sqsClient } from '../platform/aws';
import { config } from '../platform/env';
import * as evidencias from './evidencia-store';
import { eventoDe, marcarEventoPublicado } from './eventos-store';
import { fateAtual, marcarFatePublicada } from './fate-store';
import type { FateRecord } from './store-entities';
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
export async function publicarFate(chave: string, criado?: FateRecord): Promise<void> {
  const atual = criado ?? (await fateAtual(chave));
  if (!atual || atual.publicadoEm) return;
  await enviar({ versao: 1, tipo: 'FATE', chave, fate: fateView(atual) });
  await marcarFatePublicada(chave, new Date().toISOString());
}

/** Publishes the event's domain event unless it was already published, with the key's Fat-e as stored now (or null). */
export async function publicarEvento(chave: string, tpEvento: string): Promise<void> {
  const evento = await eventoDe(chave, tpEvento);
  if (!evento || evento.publicadoEm) return;
  const fate = await fateAtual(chave);
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
  await marcarEventoPublicado(chave, tpEvento, new Date().toISOString());
}

type FateDoEvento = Extract<DocumentoArmazenado, { tipo: 'EVENTO' }>['fate'];
type CorpoDoEvento = Extract<DocumentoArmazenado, { tipo: 'EVENTO' }>['evento'];

const fateDoEvento = (fate: FateRecord | null): FateDoEvento =>
  fate ? { emitenteCnpj: fate.emitenteCnpj, transportadorDoc: fate.transportadorDoc ?? null, publicadoEm: fate.publicadoEm ?? null } : null;

/**
 * Publishes evidence (an event or a return) with the key's Fat-e as stored now, then marks it. Evidence
 * published while the key had no Fat-e is marked so (`semFate`), and published again when the Fat-e
 * arrives (`republicarSemFate`), so the drawer's consent clients get it (ESCR_EVENTO) after their Fat-e
 * delivery; the delivery ids are the same, so the monitoring clients' delivery is not repeated. The
 * Fat-e is read again after the mark: written in between, its own load may have looked for marks
 * before this one existed, so this side publishes it again.
 */
async function publicarEvidencia(chave: string, uf: string, evento: CorpoDoEvento, marcar: (em: string, semFate: boolean) => Promise<void>): Promise<void> {
  const fate = await fateAtual(chave);
  await enviar({ versao: 1, tipo: 'EVENTO', chave, uf, evento, fate: fateDoEvento(fate) });
  await marcar(new Date().toISOString(), !fate);
  if (fate) return;
  const depois = await fateAtual(chave);
  if (!depois) return;
  await enviar({ versao: 1, tipo: 'EVENTO', chave, uf, evento, fate: fateDoEvento(depois) });
  await marcar(new Date().toISOString(), false);
}

function corpoDoEvento(e: evidencias.EventoRecebivelRecord): CorpoDoEvento {
  return {
    tpEvento: e.tpEvento,
    descricao: DESCRICAO_EVENTO[e.tpEvento] ?? e.tpEvento,
    protocolo: e.protocolo,
    justificativa: e.justificativa ?? '',
    data: e.registradoEm,
    id: `${e.tpEvento}_${e.seq}`,
    seq: e.seq,
    autor: e.autor,
    ...(e.correcao ? { correcao: e.correcao } : {}),
    ...(e.entrega ? { entrega: e.entrega } : {}),
    ...(e.protocoloEventoCancelado ? { protocoloEventoCancelado: e.protocoloEventoCancelado } : {}),
  };
}

function corpoDaDevolucao(v: evidencias.VinculoNfeRecord): CorpoDoEvento {
  return {
    tpEvento: 'DEVOLUCAO',
    descricao: 'Devolução',
    protocolo: '',
    justificativa: '',
    data: v.emissao,
    // A return's key does not fit the delivery id beside the Fat-e's: its digest does.
    id: `DEV_${createHash('sha256').update(v.chaveDocumento).digest('hex').slice(0, 16)}`,
    autor: v.emitenteDoc,
    devolucao: { chave: v.chaveDocumento, valor: v.valor },
  };
}

/** Publishes an evidence event's domain event unless it was already published. */
export async function publicarEventoRecebivel(chave: string, tpEvento: string, seq: number): Promise<void> {
  const e = await evidencias.eventoRecebivelDe(chave, tpEvento, seq);
  if (!e || e.publicadoEm) return;
  await publicarEvidencia(chave, e.uf, corpoDoEvento(e), (em, semFate) => evidencias.marcarEventoRecebivelPublicado(chave, tpEvento, seq, em, semFate));
}

/**
 * Publishes a return's domain event unless it was already published. A CT-e carrying the key is
 * evidence on the answer and the timeline but is not published per NF-e: the carrier's own webhooks
 * (TRANSPORTE_FAT) already tell its consent clients, and one CT-e names many NF-e.
 */
export async function publicarVinculo(chave: string, tipo: evidencias.VinculoNfeRecord['tipo'], chaveDocumento: string): Promise<void> {
  if (tipo !== 'DEVOLUCAO') return;
  const v = await evidencias.vinculoDe(chave, tipo, chaveDocumento);
  if (!v || v.publicadoEm) return;
  await publicarEvidencia(chave, v.uf, corpoDaDevolucao(v), (em, semFate) => evidencias.marcarVinculoPublicado(chave, tipo, chaveDocumento, em, semFate));
}

/** The key's evidence published before its Fat-e existed, published again with the Fat-e (see publicarEvidencia). */
export async function republicarSemFate(chave: string): Promise<void> {
  const [eventos, vinculos] = await Promise.all([evidencias.eventosDaChave(chave), evidencias.vinculosDaChave(chave)]);
  const fate = fateDoEvento(await fateAtual(chave));
  if (!fate) return;
  for (const e of eventos.filter((x) => x.publicadoSemFate)) {
    await enviar({ versao: 1, tipo: 'EVENTO', chave, uf: e.uf, evento: corpoDoEvento(e), fate });
    await evidencias.marcarEventoRecebivelPublicado(chave, e.tpEvento, e.seq, new Date().toISOString(), false);
  }
  for (const v of vinculos.filter((x) => x.publicadoSemFate && x.tipo === 'DEVOLUCAO')) {
    await enviar({ versao: 1, tipo: 'EVENTO', chave, uf: v.uf, evento: corpoDaDevolucao(v), fate });
    await evidencias.marcarVinculoPublicado(chave, v.tipo, v.chaveDocumento, new Date().toISOString(), false);
  }
}
