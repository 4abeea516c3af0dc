import { Entity, Service, type EntityItem } from 'electrodb';
import { isConditionalFailure, tableConfig } from '../platform/table';

/**
 * The repasse runs of a month (docs/repasse.md; docs/data-model.md "Revenue sharing"): one item per
 * (month, kind): the month's simulation (rewritten by each new simulation) and its definitive run
 * (created once: the condition is what makes the definitive repasse happen once per month; a FALHA
 * one may be started again). Each holds the totals per (UF, beneficiary) and the transfer orders per
 * beneficiary account, with who started it and when.
 */
const repasse = new Entity({
  model: { entity: 'repasse', version: '1', service: 'rateio' },
  attributes: {
    mes: { type: 'string', required: true },
    tipo: { type: ['SIMULACAO', 'DEFINITIVO'] as const, required: true },
    execucaoId: { type: 'string', required: true },
    situacao: { type: ['EM_ANDAMENTO', 'CONCLUIDO', 'FALHA'] as const, required: true },
    iniciadoEm: { type: 'string', required: true },
    iniciadoPor: { type: 'string', required: true },
    concluidoEm: { type: 'string' },
    erro: { type: 'string' },
    grupoRateioId: { type: 'string' },
    faturas: { type: 'number' },
    /** Centavos per (UF, beneficiary). */
    totais: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          uf: { type: 'string', required: true },
          beneficiadoId: { type: 'string', required: true },
          nome: { type: 'string', required: true },
          tipo: { type: 'string', required: true },
          valor: { type: 'number', required: true },
        },
      },
    },
    /** The transfer orders: one per beneficiary account. */
    ordens: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          beneficiadoId: { type: 'string', required: true },
          nome: { type: 'string', required: true },
          banco: { type: 'string' },
          agencia: { type: 'string' },
          dvAgencia: { type: 'string' },
          conta: { type: 'string' },
          dvConta: { type: 'string' },
          valor: { type: 'number', required: true },
        },
      },
    },
  },
  indexes: { byMes: { pk: { field: 'pk', composite: ['mes'] }, sk: { field: 'sk', composite: ['tipo'] } } },
});

let service: Service<{ repasse: typeof repasse }> | undefined;
const db = () => (service ??= new Service({ repasse }, tableConfig()));

export type RepasseRecord = EntityItem<typeof repasse>;

export async function ler(mes: string, tipo: RepasseRecord['tipo']): Promise<RepasseRecord | null> {
  const { data } = await db().entities.repasse.get({ mes, tipo }).go({ consistent: true });
  return data;
}

/**
 * Records a new run. The definitive one only when none exists or the last one failed; a simulation
 * only when no definitive exists (checked by the caller) and none is running. False: refused.
 */
export async function iniciar(r: RepasseRecord): Promise<boolean> {
  try {
    await db()
      .entities.repasse.put(r)
      .where(({ situacao }, { notExists, eq, ne }) => (r.tipo === 'DEFINITIVO' ? `${notExists(situacao)} OR ${eq(situacao, 'FALHA')}` : `${notExists(situacao)} OR ${ne(situacao, 'EM_ANDAMENTO')}`))
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

export async function concluir(mes: string, tipo: RepasseRecord['tipo'], execucaoId: string, changes: Partial<RepasseRecord>): Promise<void> {
  await db()
    .entities.repasse.patch({ mes, tipo })
    .set(changes)
    .where(({ execucaoId: e }, { eq }) => eq(e, execucaoId))
    .go({ response: 'none' });
}
