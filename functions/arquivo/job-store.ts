import { Entity, type EntityItem } from 'electrodb';
import { isConditionalFailure } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The archive job of a month (job.ts): one item per month, rewritten by each step on the condition
 * that no other run of that step wrote first (`passo`), so a step run twice (a Retry, a duplicate
 * invocation) moves the job once.
 */
export type EstadoArquivo = 'PROCESSANDO' | 'ARQUIVADO' | 'DIVERGENTE' | 'FALHA';

/** Kept: one item per month archived, the audit of that month's archive (when, which clients diverged), as long as the archive. */
const arquivoJob = entidadeSobDemanda(() => new Entity({
  model: { entity: 'arquivoJob', version: '1', service: 'arquivo' },
  attributes: {
    mes: { type: 'string', required: true },
    estado: { type: ['PROCESSANDO', 'ARQUIVADO', 'DIVERGENTE', 'FALHA'] as const, required: true },
    /** A run started again after it ended is a new attempt (`arquivo-<mes>-<tentativa>`). */
    tentativa: { type: 'number', required: true },
    /** Steps done: the condition of the next step's write. */
    passo: { type: 'number', required: true },
    /** JSON of job.ts `Progresso`. */
    progresso: { type: 'string', required: true },
    /** Clients archived whole, and those whose files' rows differ from what the table held. */
    clientes: { type: 'number', required: true },
    divergencias: { type: 'list', items: { type: 'string' } },
    iniciadoEm: { type: 'string', required: true },
    concluidoEm: { type: 'string' },
    erro: { type: 'string' },
  },
  indexes: { byMes: { pk: { field: 'pk', composite: ['mes'] }, sk: { field: 'sk', composite: [] } } },
}));

const db = servicoSobDemanda({ arquivoJob });

export type ArquivoJobRecord = EntityItem<typeof arquivoJob>;

export async function lerJob(mes: string): Promise<ArquivoJobRecord | null> {
  const { data } = await db().entities.arquivoJob.get({ mes }).go({ consistent: true });
  return data;
}

/**
 * Starts the month's job: created, or started again when the one there ended (a new attempt); false
 * when one is running (its step count and attempt are the condition).
 */
export async function iniciarJob(novo: ArquivoJobRecord, anterior: ArquivoJobRecord | null): Promise<boolean> {
  try {
    if (!anterior) await db().entities.arquivoJob.create(novo).go({ response: 'none' });
    else {
      await db()
        .entities.arquivoJob.put(novo)
        .where((a, op) => `${op.eq(a.tentativa, anterior.tentativa)} AND ${op.eq(a.passo, anterior.passo)} AND ${op.ne(a.estado, 'PROCESSANDO')}`)
        .go({ response: 'none' });
    }
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** A step's result, written only if the job is still at `passo` (false: another run of the step wrote first). */
export async function gravarPasso(
  mes: string,
  passo: number,
  mudancas: Pick<ArquivoJobRecord, 'progresso' | 'clientes' | 'estado'> & Partial<Pick<ArquivoJobRecord, 'divergencias' | 'concluidoEm'>>,
): Promise<boolean> {
  try {
    await db()
      .entities.arquivoJob.patch({ mes })
      .set({ ...mudancas, passo: passo + 1 })
      .where((a, op) => `${op.eq(a.passo, passo)} AND ${op.eq(a.estado, 'PROCESSANDO')}`)
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

export async function marcarFalha(mes: string, erro: string): Promise<void> {
  try {
    await db()
      .entities.arquivoJob.patch({ mes })
      .set({ estado: 'FALHA', erro: erro.slice(0, 1000), concluidoEm: new Date().toISOString() })
      .where((a, op) => op.eq(a.estado, 'PROCESSANDO'))
      .go({ response: 'none' });
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}
