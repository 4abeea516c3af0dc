import { Entity, type EntityItem } from 'electrodb';
import { TransactWriteCommand } from '../platform/aws-direto/dynamodb';
import { dynamoDb } from '../platform/aws';
import { isConditionalFailure, motivosDoCancelamento } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The DAEs (docs/faturamento.md "DAE", docs/data-model.md). Two entities:
 * - dae: one DAE of one invoice, keyed by the invoice, its revision and the due date, so the same
 *   invoice (as priced) and due date always answer the same DAE: it is created only on the condition
 *   that none exists under that key, and a second request finds it. Indexed by its 44-digit barcode
 *   (gsi1), which is what a bank's return file carries: a key lookup, never a Scan;
 * - daeSequencia: the platform-wide counter that numbers DAEs (positions 34–44 of the barcode), one
 *   atomic ADD per DAE issued.
 */

/** Kept: a DAE is what a bank's payment of an invoice names, kept as long as the invoice it pays (five years; issue 41 archives them). */
const dae = entidadeSobDemanda(() => new Entity({
  model: { entity: 'dae', version: '1', service: 'faturamento' },
  attributes: {
    /**
     * The invoice's id, or for a prepaid reservation its id ('PA-<clienteId>-<ciclo>', origem PREPAGO),
     * or for the DAE of an invoice's balance after a short payment `<faturaId>/saldo-<n>` (n: the
     * invoice's receipts recorded when it was issued), which `faturaCobrada` names.
     */
    faturaId: { type: 'string', required: true },
    /** A balance's DAE (issue 37): the invoice it pays. Absent: `faturaId` is the invoice (or reservation). */
    faturaCobrada: { type: 'string' },
    /** What the DAE pays: a monthly invoice (absent: the first DAEs had none) or a prepaid reservation. */
    origem: { type: ['FATURA', 'PREPAGO'] as const },
    /** The invoice's revision the DAE was issued for (a re-price asks for a new DAE). */
    revisao: { type: 'number', required: true },
    /** 'YYYY-MM-DD'. */
    dtVencimento: { type: 'string', required: true },
    clienteId: { type: 'string', required: true },
    /** The invoice's month, 'YYYY-MM'. */
    mes: { type: 'string', required: true },
    numero: { type: 'number', required: true },
    /** Centavos, the invoice's total when issued. */
    valor: { type: 'number', required: true },
    codigoBarras: { type: 'string', required: true },
    linhaDigitavel: { type: 'string', required: true },
    /** The PDF's key in the documents bucket. */
    chavePdf: { type: 'string', required: true },
    emitidoEm: { type: 'string', required: true },
    emitidoPor: { type: 'string', required: true },
    /** Set by the bank-return import (not built yet): centavos paid and when. */
    valorPago: { type: 'number' },
    pagoEm: { type: 'string' },
  },
  indexes: {
    byFatura: { pk: { field: 'pk', composite: ['faturaId'] }, sk: { field: 'sk', composite: ['revisao', 'dtVencimento'] } },
    // The bank-return import finds a DAE by the barcode the bank read.
    byCodigoBarras: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['codigoBarras'] }, sk: { field: 'gsi1sk', composite: [] } },
  },
}));

/** Kept: one counter item for the whole platform, rewritten in place. */
const sequencia = entidadeSobDemanda(() => new Entity({
  model: { entity: 'daeSequencia', version: '1', service: 'faturamento' },
  attributes: { nome: { type: 'string', required: true }, valor: { type: 'number', required: true } },
  indexes: { byNome: { pk: { field: 'pk', composite: ['nome'] }, sk: { field: 'sk', composite: [] } } },
}));

const entities = { dae, sequencia };
const db = servicoSobDemanda(entities);

export type DaeRecord = EntityItem<typeof dae>;

export async function lerDae(faturaId: string, revisao: number, dtVencimento: string): Promise<DaeRecord | null> {
  const { data } = await db().entities.dae.get({ faturaId, revisao, dtVencimento }).go({ consistent: true });
  return data;
}

/**
 * Creates the DAE unless one exists under its key; either way answers the one stored (the first wins).
 * `junto`: updates (DocumentClient parameters, e.g. the invoice pointed at the DAE) written in the same
 * transaction as the creation, so a DAE never exists without them; when the DAE already existed they are
 * not written (`criado` false: the caller completes them).
 */
export async function criarDae(record: DaeRecord, junto: readonly Record<string, unknown>[] = []): Promise<DaeRecord & { criado?: boolean }> {
  try {
    if (junto.length === 0) await db().entities.dae.create(record).go({ response: 'none' });
    else {
      const put = db().entities.dae.create(record).params<Record<string, unknown>>();
      await dynamoDb().send(new TransactWriteCommand({ TransactItems: [{ Put: put as never }, ...junto.map((u) => ({ Update: u as never }))] }));
    }
    return { ...record, criado: true };
  } catch (error) {
    // In a transaction, only the DAE's own condition (the first item) means "it exists"; any other cancellation is a failure.
    const jaExiste = junto.length === 0 ? isConditionalFailure(error) : motivosDoCancelamento(error)?.[0] === 'ConditionalCheckFailed';
    if (!jaExiste) throw error;
    const existente = await lerDae(record.faturaId, record.revisao, record.dtVencimento);
    if (!existente) throw error;
    return { ...existente, criado: false };
  }
}

/** The next DAE number (1, 2, …): an atomic ADD on the counter item. */
export async function proximoNumero(): Promise<number> {
  const { data } = await db().entities.sequencia.update({ nome: 'dae' }).add({ valor: 1 }).go({ response: 'all_new' });
  if (typeof data.valor !== 'number') throw new Error('DAE counter without a value');
  return data.valor;
}

/** The DAE whose barcode is this one (the GSI on the barcode), or null. */
export async function daePorCodigoBarras(codigoBarras: string): Promise<DaeRecord | null> {
  const { data } = await db().entities.dae.query.byCodigoBarras({ codigoBarras }).go({ limit: 1 });
  return data[0] ?? null;
}

/** Every DAE of an invoice (all revisions and due dates). */
export async function daesDaFatura(faturaId: string): Promise<DaeRecord[]> {
  // Bounded: one invoice's DAEs, one per revision or new due date asked for it (a handful).
  const { data } = await db().entities.dae.query.byFatura({ faturaId }).go({ pages: 'all' });
  return data;
}
