import { createHash, randomUUID } from 'node:crypto';
import { Entity, type EntityItem } from 'electrodb';
import * as fate from '../fate';
import { env } from '../platform/env';
import { logger } from '../platform/observability';
import { startExecution } from '../platform/step-functions';
import { escritaCondicional, isConditionalFailure } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The carrier report's grand total under a filter (issue 38: "every total a counter, every bulk output
 * a job"). A filter by any part of the name, or by the start of the document, can have no counter of
 * its own, so its total is the sum of the month counters (`fate.totalDoTransportador`) of every
 * matching carrier, at any number of them:
 *
 * - A filter whose matches fit in one bounded step (at most TRANSPORTADORES_POR_PASSO carriers and, for
 *   a name, a registry that ends within REGISTRO_POR_PASSO items) is answered inline, exact.
 * - Otherwise a job adds it up: its record (`totalTransportadoras`, keyed by the filter's document, its
 *   folded name and the first and last month) holds the state PROCESSANDO/CONCLUIDO, the partial sum,
 *   where to resume in the carrier registry (name order) and when it was computed. The state machine
 *   TotalTransportadoras (infra/lib/constructs/total-transportadoras.ts) runs one step after another
 *   (`passo`), each reading at most REGISTRO_POR_PASSO registry items and the counters of at most
 *   TRANSPORTADORES_POR_PASSO matching carriers, until the registry ends.
 * - Each step writes its sum and its next position in ONE write, conditional on the version it read
 *   (and on its run, `execucao`, and on PROCESSANDO): a step run again (Retry, a crash after the write,
 *   a duplicate) either finds the position moved on or loses the condition, so no carrier is counted twice.
 * - Starting is idempotent: a put on condition that no record is usable (none, a stale total, a stopped
 *   job), so an identical request while one runs or while its total is fresh gets that same job.
 *
 * Freshness: counters keep moving as Fat-e arrive (the Sefaz load runs every 5 minutes). A total is
 * exact as of its computation: every carrier matching when the step read its part of the registry,
 * counted once, with its counters as read then. It is answered as the report's total for VALIDADE_MS
 * after it was computed (`calculadoEm`, answered as `totalGeralCalculadoEm`); after that, the next
 * request computes it again (and answers "being computed" meanwhile).
 */

/** Matching carriers whose month counters one step reads at most (and the most answered inline). */
export const TRANSPORTADORES_POR_PASSO = 400;
/** Registry items one step examines at most, matching or not (a name filter is checked on what is read). */
export const REGISTRO_POR_PASSO = 4_000;
/** Registry items per read of its shards (transportadoresPagina reads this many of each shard). */
const LOTE_REGISTRO = 200;
/** A computed total is the report's total for this long (see "Freshness" above). */
export const VALIDADE_MS = 10 * 60_000;
/**
 * A job writes its record at every step (seconds apart; a failed step is retried within a minute), so one
 * PROCESSANDO with no write for this long has stopped (its execution failed, or the twin restarted): the
 * next request takes it over with a new `execucao`, which fences off anything left of the old run.
 */
export const PARADO_MS = 5 * 60_000;
/** Kept a day after its last write (TTL), then the table removes it: bounded by the filters asked in a day. */
const RETENCAO_S = 86_400;

/**
 * One per filter and months. Kept a day (TTL), overwritten by the next computation of the same filter.
 */
const totalTransportadoras = entidadeSobDemanda(() => new Entity({
  model: { entity: 'totalTransportadoras', version: '1', service: 'consulta' },
  attributes: {
    /** SHA-256 (32 hex) of the filter: document prefix, folded name, first and last month. */
    totalId: { type: 'string', required: true },
    documento: { type: 'string' },
    nome: { type: 'string' },
    de: { type: 'string', required: true },
    ate: { type: 'string', required: true },
    situacao: { type: ['PROCESSANDO', 'CONCLUIDO'] as const, required: true },
    /** Fencing: the run that owns the record; a step of another run does nothing. */
    execucao: { type: 'string', required: true },
    /** Fat-e of the matching carriers counted so far (the total once CONCLUIDO). */
    soma: { type: 'number', required: true },
    /** Matching carriers counted so far. */
    transportadores: { type: 'number', required: true },
    /** Where the next step starts in the registry's name order (inclusive); absent: its start. */
    posicaoNome: { type: 'string' },
    posicaoDocumento: { type: 'string' },
    /** Each step's write is conditional on it. */
    versao: { type: 'number', required: true },
    iniciadoEm: { type: 'string', required: true },
    atualizadoEm: { type: 'string', required: true },
    calculadoEm: { type: 'string' },
    expiresAt: { type: 'number', required: true },
  },
  indexes: { byId: { pk: { field: 'pk', composite: ['totalId'] }, sk: { field: 'sk', composite: [] } } },
}));

const db = servicoSobDemanda({ totalTransportadoras });

export type TotalRecord = EntityItem<typeof totalTransportadoras>;

export interface FiltroTotal {
  /** The start of the document (unmasked), or undefined. */
  documento?: string | undefined;
  /** Any part of the folded (upper-case, unaccented) name, or undefined. */
  nome?: string | undefined;
  /** First and last month, YYYY-MM. */
  de: string;
  ate: string;
}

/** What the report answers about its grand total. */
export type SituacaoTotal = { situacao: 'CONCLUIDO'; total: number; calculadoEm?: string } | { situacao: 'PROCESSANDO' };

interface Posicao {
  nomeFolded: string;
  documento: string;
}

type Transportador = Awaited<ReturnType<typeof fate.transportadoresPagina>>['itens'][number];

export const idDoTotal = (f: FiltroTotal) =>
  createHash('sha256')
    .update(JSON.stringify([f.documento ?? '', f.nome ?? '', f.de, f.ate]))
    .digest('hex')
    .slice(0, 32);

const corresponde = (f: FiltroTotal, t: Transportador) => (!f.documento || t.documento.startsWith(f.documento)) && (!f.nome || t.nomeFolded.includes(f.nome));

async function somaDosContadores(itens: readonly Transportador[], f: FiltroTotal): Promise<number> {
  const totais = await fate.totaisDosTransportadores(itens.map((t) => t.documento), f.de, f.ate);
  return [...totais.values()].reduce((s, n) => s + n, 0);
}

interface Trecho {
  soma: number;
  transportadores: number;
  /** The next position to read from; null: the registry ended. */
  proxima: Posicao | null;
}

/**
 * One bounded part of the registry in name order from `desde` (inclusive): at most REGISTRO_POR_PASSO
 * items read, and the counters of at most TRANSPORTADORES_POR_PASSO matching carriers. Stops right after
 * the carrier that fills the quota, so the next part starts at the first carrier not counted.
 */
async function lerTrecho(f: FiltroTotal, desde: Posicao | undefined): Promise<Trecho> {
  const contar: Transportador[] = [];
  let lidos = 0;
  let posicao = desde;
  for (;;) {
    const { itens, fim } = await fate.transportadoresPagina({ limite: LOTE_REGISTRO, desde: posicao });
    let tomados = itens.length;
    for (const [i, t] of itens.entries()) {
      if (!corresponde(f, t)) continue;
      contar.push(t);
      if (contar.length >= TRANSPORTADORES_POR_PASSO) {
        tomados = i + 1;
        break;
      }
    }
    lidos += tomados;
    const ultimo = itens[tomados - 1];
    const acabou = (fim && tomados === itens.length) || !ultimo;
    // Just past the last carrier read: its document followed by the highest character (as the report's cursor).
    posicao = acabou ? undefined : { nomeFolded: ultimo.nomeFolded, documento: `${ultimo.documento}~` };
    if (acabou || contar.length >= TRANSPORTADORES_POR_PASSO || lidos >= REGISTRO_POR_PASSO) {
      return { soma: await somaDosContadores(contar, f), transportadores: contar.length, proxima: posicao ?? null };
    }
  }
}

/** The answer inline when the matches fit in one step (exact), else null. */
async function inline(f: FiltroTotal): Promise<{ total: number } | { trecho: Trecho } | null> {
  if (f.documento) {
    // By the start of the document: one read of the registry's shards tells whether the matches fit.
    const { itens, fim } = await fate.transportadoresPagina({ limite: TRANSPORTADORES_POR_PASSO, documentoPrefixo: f.documento, nomeContem: f.nome });
    return fim ? { total: await somaDosContadores(itens, f) } : null;
  }
  // By name: the first step of the job, done here; when the registry ends within it, that is the total.
  const trecho = await lerTrecho(f, undefined);
  return trecho.proxima === null ? { total: trecho.soma } : { trecho };
}

async function lerTotal(totalId: string): Promise<TotalRecord | null> {
  const { data } = await db().entities.totalTransportadoras.get({ totalId }).go({ consistent: true });
  return data;
}

/** The record as the report answers it: a fresh total, a running job, or null (none usable: compute again). */
function situacaoDe(r: TotalRecord | null, agora: Date): SituacaoTotal | null {
  if (!r) return null;
  if (r.situacao === 'CONCLUIDO') return r.calculadoEm && Date.parse(r.calculadoEm) > agora.getTime() - VALIDADE_MS ? { situacao: 'CONCLUIDO', total: r.soma, calculadoEm: r.calculadoEm } : null;
  return Date.parse(r.atualizadoEm) > agora.getTime() - PARADO_MS ? { situacao: 'PROCESSANDO' } : null;
}

/** The execution's name: the record and its run (at most 80 characters: 32 + 1 + 36). */
const nomeDaExecucao = (r: Pick<TotalRecord, 'totalId' | 'execucao'>) => `${r.totalId}-${r.execucao}`;

/**
 * Starts the job unless a usable record is there: the put is conditional on no record, a total older
 * than VALIDADE_MS, or a job with no write for PARADO_MS. Answers the record that holds (`iniciou`: this
 * call's). `inicio` is the first step already done by the request (its sum and position), if any.
 */
export async function iniciar(f: FiltroTotal, inicio: Trecho | null, agora = new Date()): Promise<{ registro: TotalRecord; iniciou: boolean }> {
  const registro: TotalRecord = {
    totalId: idDoTotal(f),
    ...(f.documento ? { documento: f.documento } : {}),
    ...(f.nome ? { nome: f.nome } : {}),
    de: f.de,
    ate: f.ate,
    situacao: 'PROCESSANDO',
    execucao: randomUUID(),
    soma: inicio?.soma ?? 0,
    transportadores: inicio?.transportadores ?? 0,
    ...(inicio?.proxima ? { posicaoNome: inicio.proxima.nomeFolded, posicaoDocumento: inicio.proxima.documento } : {}),
    versao: 0,
    iniciadoEm: agora.toISOString(),
    atualizadoEm: agora.toISOString(),
    expiresAt: Math.floor(agora.getTime() / 1000) + RETENCAO_S,
  };
  const velho = new Date(agora.getTime() - VALIDADE_MS).toISOString();
  const parado = new Date(agora.getTime() - PARADO_MS).toISOString();
  try {
    await db()
      .entities.totalTransportadoras.put(registro)
      .where(
        (attr, { notExists, eq, lt }) =>
          `${notExists(attr.totalId)} OR (${eq(attr.situacao, 'CONCLUIDO')} AND ${lt(attr.calculadoEm, velho)}) OR (${eq(attr.situacao, 'PROCESSANDO')} AND ${lt(attr.atualizadoEm, parado)})`,
      )
      .go({ response: 'none' });
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const atual = await lerTotal(registro.totalId);
    if (!atual) throw error;
    return { registro: atual, iniciou: false };
  }
  try {
    await startExecution(env('TOTAL_TRANSPORTADORAS_STATE_MACHINE_ARN'), nomeDaExecucao(registro), { totalId: registro.totalId, execucao: registro.execucao });
  } catch (error) {
    // No execution runs it: the record goes, so that the next request starts it again rather than wait PARADO_MS.
    await escritaCondicional(() =>
      db()
        .entities.totalTransportadoras.delete({ totalId: registro.totalId })
        .where((attr, { eq }) => eq(attr.execucao, registro.execucao))
        .go({ response: 'none' }),
    );
    throw error;
  }
  logger.info('carrier total job started', { totalId: registro.totalId, execucao: registro.execucao });
  return { registro, iniciou: true };
}

/**
 * The grand total of a filtered report: a fresh computed total, the inline total of a small filter, or
 * PROCESSANDO while its job runs (started here when none is usable).
 */
export async function totalFiltrado(f: FiltroTotal, agora = new Date()): Promise<SituacaoTotal> {
  const pronto = situacaoDe(await lerTotal(idDoTotal(f)), agora);
  if (pronto) return pronto;
  const rapido = await inline(f);
  if (rapido && 'total' in rapido) return { situacao: 'CONCLUIDO', total: rapido.total };
  const { registro } = await iniciar(f, rapido?.trecho ?? null, agora);
  return situacaoDe(registro, agora) ?? { situacao: 'PROCESSANDO' };
}

/**
 * One step of the job from the record as read (`r`): the next part of the registry, then its sum and
 * position in one write conditional on `r`'s version, run and state. False when the write lost (another
 * run of this step got there first, or the record changed hands): nothing was counted by this call.
 */
export async function avancar(r: TotalRecord): Promise<{ aplicado: boolean; concluido: boolean }> {
  const f: FiltroTotal = { documento: r.documento, nome: r.nome, de: r.de, ate: r.ate };
  const desde = r.posicaoNome !== undefined && r.posicaoDocumento !== undefined ? { nomeFolded: r.posicaoNome, documento: r.posicaoDocumento } : undefined;
  const trecho = await lerTrecho(f, desde);
  const agora = new Date().toISOString();
  const concluido = trecho.proxima === null;
  const mudancas = {
    soma: r.soma + trecho.soma,
    transportadores: r.transportadores + trecho.transportadores,
    versao: r.versao + 1,
    atualizadoEm: agora,
    expiresAt: Math.floor(Date.now() / 1000) + RETENCAO_S,
    ...(concluido ? { situacao: 'CONCLUIDO' as const, calculadoEm: agora } : { posicaoNome: trecho.proxima!.nomeFolded, posicaoDocumento: trecho.proxima!.documento }),
  };
  let escrita = db().entities.totalTransportadoras.patch({ totalId: r.totalId }).set(mudancas);
  if (concluido) escrita = escrita.remove(['posicaoNome', 'posicaoDocumento']);
  const aplicado = await escritaCondicional(() =>
    escrita
      .where((attr, { eq }) => `${eq(attr.versao, r.versao)} AND ${eq(attr.execucao, r.execucao)} AND ${eq(attr.situacao, 'PROCESSANDO')}`)
      .go({ response: 'none' }),
  );
  if (aplicado && concluido) logger.info('carrier total job finished', { totalId: r.totalId, soma: mudancas.soma, transportadores: mudancas.transportadores });
  return { aplicado, concluido };
}

/**
 * The state machine's step: reads the record and advances it. Done (`concluido`) when the total is
 * computed, or when the record is no longer this run's (taken over, gone): its execution then ends.
 */
export async function passo(totalId: string, execucao: string): Promise<boolean> {
  const r = await lerTotal(totalId);
  if (!r || r.execucao !== execucao || r.situacao !== 'PROCESSANDO') return true;
  const { aplicado, concluido } = await avancar(r);
  // A lost write: another run of this step moved the record; the next step reads where it stands.
  return aplicado && concluido;
}

/** The record (tests, and the step's own reads). */
export const registroDoTotal = (f: FiltroTotal) => lerTotal(idDoTotal(f));
