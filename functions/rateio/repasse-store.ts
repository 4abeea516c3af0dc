import { Entity, type EntityItem } from 'electrodb';
import { transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The repasse runs of a month (docs/repasse.md; docs/data-model.md "Revenue sharing"): one item per
 * (month, kind): the month's simulation (rewritten by each new simulation) and its definitive run
 * (created once: the condition is what makes the definitive repasse happen once per month; a FALHA
 * one may be started again). Each holds the totals per (UF, beneficiary) and the transfer orders per
 * beneficiary account, with who started it and when.
 * Kept: the record of how a month's revenue was split and transferred, two items a month: what the
 * transfers made are explained by, as the invoices they distribute are kept.
 */
const repasse = entidadeSobDemanda(() => new Entity({
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
    /**
     * The sharing group as it was when the run distributed (issue 37 item 2): its percentages, its
     * beneficiaries with their agreement in the month and their accounts. A definitive month is read
     * with this, never with the group as it is now (an agreement turned off and on again later, an
     * account changed), so its screen, CSVs and orders stay what was distributed.
     */
    grupo: {
      type: 'map',
      properties: {
        grupoRateioId: { type: 'string', required: true },
        descricao: { type: 'string' },
        percentualSefaz: { type: 'number', required: true },
        beneficiados: {
          type: 'list',
          required: true,
          items: {
            type: 'map',
            properties: {
              beneficiadoId: { type: 'string', required: true },
              nome: { type: 'string', required: true },
              tipo: { type: 'string', required: true },
              uf: { type: 'string' },
              percentual: { type: 'number', required: true },
              ativoNoMes: { type: 'boolean', required: true },
              conta: {
                type: 'map',
                properties: {
                  banco: { type: 'string', required: true },
                  agencia: { type: 'string', required: true },
                  dvAgencia: { type: 'string', required: true },
                  conta: { type: 'string', required: true },
                  dvConta: { type: 'string', required: true },
                },
              },
            },
          },
        },
      },
    },
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
}));

/**
 * The history of a month's runs (issue 28 item 2): one item per run, kept when the month's record is
 * rewritten (a new simulation, a definitive run started again after a failure), so that the screen
 * lists every run of the month with one key Query. A summary only: kind, who, when, status, the number
 * of invoices, the total distributed and the number of transfer orders.
 * Kept: the audit of the month's runs (a few items a month), as long as the month's repasse.
 */
const execucao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'repasseExecucao', version: '1', service: 'rateio' },
  attributes: {
    mes: { type: 'string', required: true },
    execucaoId: { type: 'string', required: true },
    tipo: { type: ['SIMULACAO', 'DEFINITIVO'] as const, required: true },
    situacao: { type: ['EM_ANDAMENTO', 'CONCLUIDO', 'FALHA'] as const, required: true },
    iniciadoEm: { type: 'string', required: true },
    iniciadoPor: { type: 'string', required: true },
    concluidoEm: { type: 'string' },
    erro: { type: 'string' },
    faturas: { type: 'number' },
    /** Centavos: the sum of the run's totals. */
    total: { type: 'number' },
    ordens: { type: 'number' },
  },
  indexes: { byMes: { pk: { field: 'pk', composite: ['mes'] }, sk: { field: 'sk', composite: ['execucaoId'] } } },
}));

const db = servicoSobDemanda({ repasse, execucao });

export type RepasseRecord = EntityItem<typeof repasse>;
export type ExecucaoRecord = EntityItem<typeof execucao>;

/** The month's runs, one key Query (unordered: the caller sorts by start). */
export async function execucoes(mes: string): Promise<ExecucaoRecord[]> {
  // Bounded: one month's repasse runs (its simulations and at most a few definitive attempts).
  const { data } = await db().entities.execucao.query.byMes({ mes }).go({ pages: 'all' });
  return data;
}

/** The history item of a run: its summary from the month's record. */
function resumo(r: Partial<RepasseRecord>): Partial<ExecucaoRecord> {
  const { situacao, concluidoEm, erro, faturas, totais, ordens } = r;
  return {
    ...(situacao ? { situacao } : {}),
    ...(concluidoEm ? { concluidoEm } : {}),
    ...(erro ? { erro } : {}),
    ...(faturas !== undefined ? { faturas } : {}),
    ...(totais ? { total: totais.reduce((s, t) => s + t.valor, 0) } : {}),
    ...(ordens ? { ordens: ordens.length } : {}),
  };
}

export async function ler(mes: string, tipo: RepasseRecord['tipo']): Promise<RepasseRecord | null> {
  const { data } = await db().entities.repasse.get({ mes, tipo }).go({ consistent: true });
  return data;
}

/**
 * Records a new run and its history item in one transaction. The definitive one only when none exists
 * or the last one failed; a simulation only when no definitive exists (checked by the caller) and none
 * is running. False: refused, nothing written.
 */
export async function iniciar(r: RepasseRecord): Promise<boolean> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ repasse: mes, execucao: historico }) => [
        mes
          .put(r)
          .where(({ situacao }, { notExists, eq, ne }) => (r.tipo === 'DEFINITIVO' ? `${notExists(situacao)} OR ${eq(situacao, 'FALHA')}` : `${notExists(situacao)} OR ${ne(situacao, 'EM_ANDAMENTO')}`))
          .commit(),
        historico.put({ mes: r.mes, execucaoId: r.execucaoId, tipo: r.tipo, situacao: r.situacao, iniciadoEm: r.iniciadoEm, iniciadoPor: r.iniciadoPor }).commit(),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data[0]?.code === 'ConditionalCheckFailed') return false;
  throw new Error(`repasse run of ${r.mes} not recorded: ${result.data.map((d) => d.code).join(', ')}`);
}

/**
 * Ends a run: the month's record (only the run that holds it) and its history item in one transaction,
 * so the history never says what the record does not (issue 37 item 2). A run started before the history
 * existed gets its item then.
 */
export async function concluir(mes: string, tipo: RepasseRecord['tipo'], execucaoId: string, changes: Partial<RepasseRecord>): Promise<void> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ repasse: registro, execucao: historico }) => [
        registro
          .patch({ mes, tipo })
          .set(changes)
          .where(({ execucaoId: e }, { eq }) => eq(e, execucaoId))
          .commit(),
        historico.update({ mes, execucaoId }).set({ tipo, ...resumo(changes) }).commit(),
      ])
      .go(),
  );
  if (result.canceled) throw new Error(`repasse run ${execucaoId} not concluded: ${result.data.map((d) => d.code).join(', ')}`);
}
