import { TransactWriteCommand } from '../platform/aws-direto/dynamodb';
import { nsu15, type Fluxo } from '@plac/shared/domain';
import { dynamoDb } from '../platform/aws';
import { escritaCondicional, isConditionalFailure, motivosDoCancelamento } from '../platform/table';
import { CONTAGEM_ZERO, historicoParams } from './historico-store';
import { db, type ResumoProcessamentoRecord } from './store-entities';

/**
 * The Sefaz load's state, per UF and stream (goods NF-e, transport CT-e): the cursor (the last committed
 * NSU, which only moves forward), the last distribution answer, and the load's lease (at most one run
 * per stream at a time). One item of each per UF and stream, rewritten in place.
 */

/** The stream's last committed NSU, or null before its first document. */
export async function lerCursor(uf: string, fluxo: Fluxo = 'nfe'): Promise<number | null> {
  const { data } = await db().entities.cursor.get({ uf, fluxo }).go();
  return data?.ultNSU ?? null;
}

/**
 * Moves the stream's cursor to `nsu`; refused (false) when it already stands past it: it only moves
 * forward. `contar`: the NSUs up to `nsu` of the documents read and not stored, added to the history of
 * `contar.dia` in the same transaction as the move, those past the cursor only, on the condition that
 * the cursor still stands where it was read: each is counted once, when the cursor first passes it.
 */
export async function avancarCursor(uf: string, nsu: number, fluxo: Fluxo = 'nfe', contar?: { dia: string; ignorados: readonly number[] }): Promise<boolean> {
  const agora = () => new Date().toISOString();
  for (let tentativa = 1; ; tentativa++) {
    const atual = await lerCursor(uf, fluxo);
    if (atual !== null && atual > nsu) return false;
    const ignorados = (contar?.ignorados ?? []).filter((n) => n <= nsu && (atual === null || n > atual)).length;
    if (ignorados === 0) {
      return escritaCondicional(() =>
        db()
          .entities.cursor.update({ uf, fluxo })
          .set({ ultNSU: nsu, updatedAt: agora() })
          .where((attr, op) => `${op.notExists(attr.ultNSU)} OR ${op.lte(attr.ultNSU, nsu)}`)
          .go(),
      );
    }
    const mover = db()
      .entities.cursor.update({ uf, fluxo })
      .set({ ultNSU: nsu, updatedAt: agora() })
      .where((attr, op) => (atual === null ? op.notExists(attr.ultNSU) : op.eq(attr.ultNSU, atual)))
      .params();
    const somar = historicoParams(uf, fluxo, contar!.dia, { ...CONTAGEM_ZERO, ignorados });
    try {
      await dynamoDb().send(new TransactWriteCommand({ TransactItems: [{ Update: mover as never }, { Update: somar as never }] }));
      return true;
    } catch (error) {
      // The cursor moved since it was read (or another transaction held it): read it again.
      const motivo = motivosDoCancelamento(error)?.[0];
      if ((motivo !== 'ConditionalCheckFailed' && motivo !== 'TransactionConflict') || tentativa === 5) throw error;
    }
  }
}

/**
 * Records a distribution answer on the stream's summary. `ultNSU`/`nsuMax` are kept when the answer has
 * none (a refusal repeats the request's), and `updatedAt` only ever moves forward: a batch import of
 * old documents or a late retry never makes a Sefaz look staler or fresher than it is.
 */
export async function registrarResumoProcessamento(
  chave: { uf: string; cuf: number; fluxo: Fluxo },
  resposta: { cStat: string; xMotivo: string; consultadoEm: string; aguardarAte: string | null; ultNSU?: string; nsuMax?: string },
  publicadoEm: string | null,
): Promise<void> {
  const entity = db().entities.resumoProcessamento;
  const key = { uf: chave.uf, fluxo: chave.fluxo };
  const atual = (await entity.get(key).go()).data;
  await entity
    .put({
      ...key,
      cuf: chave.cuf,
      sigla: chave.uf,
      cStat: resposta.cStat,
      xMotivo: resposta.xMotivo,
      ultNSU: resposta.ultNSU ?? atual?.ultNSU ?? nsu15(0),
      nsuMax: resposta.nsuMax ?? atual?.nsuMax ?? nsu15(0),
      consultadoEm: resposta.consultadoEm,
      ...(resposta.aguardarAte ? { aguardarAte: resposta.aguardarAte } : {}),
      ...(atual?.updatedAt ? { updatedAt: atual.updatedAt } : {}),
    })
    .go();
  if (!publicadoEm) return;
  try {
    await entity
      .patch(key)
      .set({ updatedAt: publicadoEm })
      .where((attr, op) => `${op.notExists(attr.updatedAt)} OR ${op.lt(attr.updatedAt, publicadoEm)}`)
      .go();
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}

/**
 * Takes the stream's load lease until `ate`, when it is free, its lease is over, or `dono` already holds
 * it (a Step Functions Retry of the same execution after its attempt died: the Task's timeout, past the
 * function's own, means that attempt has ended); false when another run holds it.
 */
export async function tomarTravaCarga(uf: string, fluxo: Fluxo, dono: string, ate: Date, agora: Date): Promise<boolean> {
  return escritaCondicional(() =>
    db()
      .entities.travaCarga.put({ uf, fluxo, dono, ate: ate.toISOString(), expiresAt: Math.floor(ate.getTime() / 1000) + 86_400 })
      .where((attr, op) => `${op.notExists(attr.dono)} OR ${op.lt(attr.ate, agora.toISOString())} OR ${op.eq(attr.dono, dono)}`)
      .go(),
  );
}

/** Releases the lease if `dono` still holds it (a lease taken over after it ended is not the old holder's to release). */
export async function soltarTravaCarga(uf: string, fluxo: Fluxo, dono: string): Promise<void> {
  await escritaCondicional(() =>
    db()
      .entities.travaCarga.delete({ uf, fluxo })
      .where((attr, op) => op.eq(attr.dono, dono))
      .go(),
  );
}

export async function resumoProcessamentoDa(uf: string, fluxo: Fluxo = 'nfe'): Promise<ResumoProcessamentoRecord | null> {
  return (await db().entities.resumoProcessamento.get({ uf, fluxo }).go()).data;
}

/** Every UF's summary of one stream (one Query). */
export async function resumosProcessamento(fluxo: Fluxo = 'nfe'): Promise<ResumoProcessamentoRecord[]> {
  // Bounded: one summary per UF of a stream (27 items).
  const { data } = await db().entities.resumoProcessamento.query.all({ fluxo }).go({ pages: 'all' });
  return data;
}
