import { TransactWriteCommand } from '../platform/aws-direto/dynamodb';
import type { Fluxo } from '@plac/shared/domain';
import { dynamoDb } from '../platform/aws';
import { esperarConflito, motivosDoCancelamento } from '../platform/table';
import { db, type HistoricoProcessamentoRecord } from './store-entities';

/**
 * The load history: what each UF's stream stored per day (Bahia calendar), one small item per UF, stream
 * and day, added up atomically. Each stored document is counted exactly once, by its own mark
 * (`contadoEm`) set in the same transaction as the count.
 */

export interface Contagem {
  fate: number;
  eventos: number;
  resumos: number;
  erros: number;
  ignorados: number;
}

export const CONTAGEM_ZERO: Contagem = { fate: 0, eventos: 0, resumos: 0, erros: 0, ignorados: 0 };

/** The update (DocumentClient parameters) adding counts to a stream's day: an atomic ADD, for a transaction. */
export function historicoParams(uf: string, fluxo: Fluxo, dia: string, contagem: Contagem): Record<string, unknown> {
  return db().entities.historicoProcessamento.update({ uf, fluxo, dia }).add(contagem).set({ updatedAt: new Date().toISOString() }).params();
}

/**
 * Documents written before the history counted each stored document by its own mark were counted by
 * the run that wrote them, after its batch: taken as counted, never counted again when met again.
 */
export const CONTADOS_POR_MARCA_DESDE = '2026-12-01T00:00:00.000Z';

/**
 * A stored document's place in the load history: the column that counts it and the conditional update
 * (DocumentClient parameters, made by the document's own store) that sets its mark `contadoEm` if it has
 * none. `condicaoDaMarca` is that condition.
 */
export interface MarcaNoHistorico {
  campo: Exclude<keyof Contagem, 'ignorados'>;
  marcar: (dia: string) => Record<string, unknown>;
}

export const condicaoDaMarca = <A extends { contadoEm: unknown; createdAt: unknown }>(
  attr: A,
  op: { notExists: (a: A['contadoEm']) => string; gte: (a: A['createdAt'], v: string) => string },
) => `${op.notExists(attr.contadoEm)} AND ${op.gte(attr.createdAt, CONTADOS_POR_MARCA_DESDE)}`;

/** The marks of the Fat-e, events, summaries and error documents (the evidence items' are in evidencia-store.ts). */
export const marcaDa = {
  fate: (chave: string): MarcaNoHistorico => ({
    campo: 'fate',
    marcar: (dia) => db().entities.fate.patch({ chave }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
  evento: (chave: string, tpEvento: string): MarcaNoHistorico => ({
    campo: 'eventos',
    marcar: (dia) => db().entities.evento.patch({ chave, tpEvento }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
  resumo: (chave: string): MarcaNoHistorico => ({
    campo: 'resumos',
    marcar: (dia) => db().entities.resumo.patch({ chave }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
  documentoErro: (id: string): MarcaNoHistorico => ({
    campo: 'erros',
    marcar: (dia) => db().entities.documentoErro.patch({ id }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
};

/** Marks in one transaction: the history's update and 99 marks (DynamoDB takes 100 items). */
const MARCAS_POR_TRANSACAO = 99;

/**
 * Counts stored documents in the stream's day of the load history, each exactly once whoever meets it
 * (issue 42): the history's ADD and each document's mark in one transaction, so a run that stopped
 * after writing documents and before counting them leaves them unmarked, and the next run that meets
 * them (a repeat to it) counts them then. A document already marked (counted by an earlier run, or a
 * document delivered again) fails its condition: the transaction is made again without it. Answers
 * what was counted now.
 */
export async function contarNoHistorico(uf: string, fluxo: Fluxo, dia: string, marcas: readonly MarcaNoHistorico[]): Promise<Contagem> {
  const contados = { ...CONTAGEM_ZERO };
  for (let i = 0; i < marcas.length; i += MARCAS_POR_TRANSACAO) {
    let lote = marcas.slice(i, i + MARCAS_POR_TRANSACAO);
    for (let tentativa = 1; lote.length > 0; tentativa++) {
      const soma = { ...CONTAGEM_ZERO };
      for (const m of lote) soma[m.campo] += 1;
      try {
        await dynamoDb().send(
          new TransactWriteCommand({ TransactItems: [{ Update: historicoParams(uf, fluxo, dia, soma) as never }, ...lote.map((m) => ({ Update: m.marcar(dia) as never }))] }),
        );
        for (const campo of Object.keys(soma) as (keyof Contagem)[]) contados[campo] += soma[campo];
        break;
      } catch (error) {
        const motivos = motivosDoCancelamento(error);
        if (!motivos || tentativa === 8) throw error;
        // Another transaction on the same items at that moment (a concurrent import): try again a little later.
        if (motivos.includes('TransactionConflict')) {
          await esperarConflito(tentativa);
          continue;
        }
        if (motivos.some((m) => m !== 'None' && m !== 'ConditionalCheckFailed') || motivos[0] !== 'None') throw error;
        const jaContados = new Set(motivos.slice(1).flatMap((m, j) => (m === 'ConditionalCheckFailed' ? [j] : [])));
        lote = lote.filter((_, j) => !jaContados.has(j));
      }
    }
  }
  return contados;
}

/** A stream's days from `de` to `ate` (inclusive). */
export async function historicoDaUf(uf: string, de: string, ate: string, fluxo: Fluxo = 'nfe'): Promise<HistoricoProcessamentoRecord[]> {
  const { data } = await db()
    .entities.historicoProcessamento.query.byUf({ uf, fluxo })
    .between({ dia: de }, { dia: ate })
    // Bounded: one UF stream's day counters of the period asked (at most a year).
    .go({ pages: 'all' });
  return data;
}
