import { Entity, type EntityItem } from 'electrodb';
import { isConditionalFailure } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * A report job (relatorio-job.ts): the consumption report's CSV or an invoice's detail ZIP, written by
 * a state machine one bounded step at a time. The item holds what the screen shows (state, lines
 * written, lines expected) and what the next step needs (`progresso`: the log cursor, the multipart
 * upload and its parts, the totals so far), so that no step keeps anything in memory for the next one.
 * Each step's write is conditional on the step number it read: a step run twice writes once.
 */

export type EstadoRelatorio = 'PROCESSANDO' | 'CONCLUIDO' | 'FALHA';

const relatorioJob = entidadeSobDemanda(() => new Entity({
  model: { entity: 'relatorioJob', version: '1', service: 'consumo' },
  attributes: {
    jobId: { type: 'string', required: true },
    tipo: { type: ['consumo', 'detalhamento', 'evidencia'] as const, required: true },
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
    /** The last step's write (absent: no step yet): a job whose steps stopped is seen by it (`parado`). */
    atualizadoEm: { type: 'string' },
    expiresAt: { type: 'number' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['jobId'] }, sk: { field: 'sk', composite: [] } },
  },
}));

/**
 * A client's consumption report request (month and service): the generation of its job. The job's id is
 * derived from the request and the generation (relatorio.ts), so identical requests meet on one job
 * record (its conditional create) while it runs or is fresh; a new generation, moved on conditionally
 * from the one read, is a new job. Kept as long as a report (a week).
 */
const relatorioPedido = entidadeSobDemanda(() => new Entity({
  model: { entity: 'relatorioPedido', version: '1', service: 'consumo' },
  attributes: {
    clienteId: { type: 'string', required: true },
    pedido: { type: 'string', required: true },
    geracao: { type: 'number', required: true },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    byPedido: { pk: { field: 'pk', composite: ['clienteId', 'pedido'] }, sk: { field: 'sk', composite: [] } },
  },
}));

/**
 * One of a client's few places for a consumption report in production: the job holding it. A place is
 * free when empty or when its job no longer runs (done, failed or stopped), so nothing has to give it
 * back; taking one is conditional on the job read in it.
 */
const relatorioVaga = entidadeSobDemanda(() => new Entity({
  model: { entity: 'relatorioVaga', version: '1', service: 'consumo' },
  attributes: {
    clienteId: { type: 'string', required: true },
    vaga: { type: 'number', required: true },
    jobId: { type: 'string', required: true },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['vaga'] } },
  },
}));

const db = servicoSobDemanda({ relatorioJob, relatorioPedido, relatorioVaga });

export type RelatorioJobRecord = EntityItem<typeof relatorioJob>;

/** A job PROCESSANDO without a step written for this long has stopped (a step takes seconds). */
export const PARADO_MS = 15 * 60_000;

/** Whether a job still runs: PROCESSANDO, with a step (or its creation) less than PARADO_MS ago. */
export function emProducao(job: RelatorioJobRecord, agora: Date = new Date()): boolean {
  return job.estado === 'PROCESSANDO' && agora.getTime() - Date.parse(job.atualizadoEm ?? job.criadoEm) < PARADO_MS;
}

/** The generation of a client's report request (0 when never asked). */
export async function geracaoDoPedido(clienteId: string, pedido: string): Promise<number> {
  const { data } = await db().entities.relatorioPedido.get({ clienteId, pedido }).go({ consistent: true });
  return data?.geracao ?? 0;
}

/** Moves a request to its next generation if it still is at `lida`; false when another request moved it first. */
export async function avancarGeracao(clienteId: string, pedido: string, lida: number, expiresAt: number): Promise<boolean> {
  try {
    await db()
      .entities.relatorioPedido.put({ clienteId, pedido, geracao: lida + 1, expiresAt })
      .where((a, { notExists, eq }) => (lida === 0 ? `${notExists(a.geracao)} OR ${eq(a.geracao, 0)}` : eq(a.geracao, lida)))
      .go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/**
 * Takes one of the client's `vagas` places for `jobId`: the first one empty or whose job no longer runs
 * (read, then written on the condition that it still holds what was read). false: every place holds a
 * running job.
 */
export async function ocuparVaga(clienteId: string, jobId: string, vagas: number, expiresAt: number, agora: Date = new Date()): Promise<boolean> {
  const { data: ocupadas } = await db().entities.relatorioVaga.query.byCliente({ clienteId }).go({ consistent: true, limit: vagas });
  const porVaga = new Map(ocupadas.map((v) => [v.vaga, v.jobId]));
  for (let vaga = 0; vaga < vagas; vaga++) {
    const anterior = porVaga.get(vaga);
    if (anterior === jobId) return true;
    if (anterior) {
      const job = await lerJob(anterior);
      if (job && emProducao(job, agora)) continue;
      // Stopped: failed, so a late step of it writes nothing (gravarPasso's condition) and a request starts it again.
      if (job?.estado === 'PROCESSANDO') await marcarFalha(anterior, 'parado: nenhum passo gravado em 15 minutos');
    }
    try {
      await db()
        .entities.relatorioVaga.put({ clienteId, vaga, jobId, expiresAt })
        .where((a, { notExists, eq }) => (anterior ? eq(a.jobId, anterior) : notExists(a.jobId)))
        .go();
      return true;
    } catch (error) {
      if (!isConditionalFailure(error)) throw error;
    }
  }
  return false;
}

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
      .set({ ...mudanca, passo: passoLido + 1, atualizadoEm: new Date().toISOString() })
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
