import { Entity, Service, type EntityItem } from 'electrodb';
import { isConditionalFailure, tableConfig } from '../platform/table';

/**
 * A report job (relatorio-job.ts): the consumption report's CSV or an invoice's detail ZIP, written by
 * a state machine one bounded step at a time. The item holds what the screen shows (state, lines
 * written, lines expected) and what the next step needs (`progresso`: the log cursor, the multipart
 * upload and its parts, the totals so far), so that no step keeps anything in memory for the next one.
 * Each step's write is conditional on the step number it read: a step run twice writes once.
 */

export type EstadoRelatorio = 'PROCESSANDO' | 'CONCLUIDO' | 'FALHA';

const relatorioJob = new Entity({
  model: { entity: 'relatorioJob', version: '1', service: 'consumo' },
  attributes: {
    jobId: { type: 'string', required: true },
    tipo: { type: ['consumo', 'detalhamento'] as const, required: true },
    /** Whose report: only that client's users and the administrators read it. */
    clienteId: { type: 'string', required: true },
    mes: { type: 'string', required: true },
    idModuloServico: { type: 'number' },
    faturaId: { type: 'string' },
    /** The object's key in the documents bucket, its file name and content type. */
    chave: { type: 'string', required: true },
    nomeArquivo: { type: 'string', required: true },
    contentType: { type: 'string', required: true },
    estado: { type: ['PROCESSANDO', 'CONCLUIDO', 'FALHA'] as const, required: true },
    /** Steps done; the condition of the next step's write. */
    passo: { type: 'number', required: true },
    /** A new attempt after a failure gets a new execution name (`<jobId>-<tentativa>`). */
    tentativa: { type: 'number', required: true },
    linhas: { type: 'number', required: true },
    /** The month's charged requests by the counters when the job started: the progress' 100 %. */
    total: { type: 'number', required: true },
    /** JSON of relatorio-job.ts `Progresso`. */
    progresso: { type: 'string', required: true },
    erro: { type: 'string' },
    criadoEm: { type: 'string', required: true },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['jobId'] }, sk: { field: 'sk', composite: [] } },
  },
});

let service: Service<{ relatorioJob: typeof relatorioJob }> | undefined;
const db = () => (service ??= new Service({ relatorioJob }, tableConfig()));

export type RelatorioJobRecord = EntityItem<typeof relatorioJob>;

export async function lerJob(jobId: string): Promise<RelatorioJobRecord | null> {
  const { data } = await db().entities.relatorioJob.get({ jobId }).go({ consistent: true });
  return data;
}

/**
 * Records a new job, or a new attempt of a failed one (same id, `tentativa` + 1). false when the job
 * is already there and not failed: it is running or done, and is not started twice.
 */
export async function criarJob(job: RelatorioJobRecord): Promise<boolean> {
  try {
    await db()
      .entities.relatorioJob.put(job)
      .where((a, { notExists, eq }) => `${notExists(a.jobId)} OR ${eq(a.estado, 'FALHA')}`)
      .go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** A step's result, written only if no other run of that step wrote first (false then). */
export async function gravarPasso(
  jobId: string,
  passoLido: number,
  mudanca: { linhas: number; progresso: string; estado: EstadoRelatorio },
): Promise<boolean> {
  try {
    await db()
      .entities.relatorioJob.patch({ jobId })
      .set({ ...mudanca, passo: passoLido + 1 })
      .where((a, { eq }) => `${eq(a.passo, passoLido)} AND ${eq(a.estado, 'PROCESSANDO')}`)
      .go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** The job failed (the state machine's Catch): kept with its error, so a new request starts it again. */
export async function marcarFalha(jobId: string, erro: string): Promise<void> {
  try {
    await db()
      .entities.relatorioJob.patch({ jobId })
      .set({ estado: 'FALHA', erro: erro.slice(0, 1000) })
      .where((a, { eq }) => eq(a.estado, 'PROCESSANDO'))
      .go();
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}
