import { isAdmin, type Principal } from '@plac/shared/access';
import { daysBetween } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { conflict, forbidden, invalid, notFound } from '../platform/errors';
import { clienteDoFiltro } from '../platform/escopo';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import { clienteIdPorCnpj } from '../clientes';
import * as endpoints from './endpoint-store';
import { enviarEmLotes } from './fila';
import * as jobs from './jobs';
import * as log from './log-store';

/**
 * Webhook monitoring (spec 3 §2.15): pending and failed deliveries, one delivery's attempts and the
 * replay of failed ones. An administrator sees every client; a cliente_monitoramento user only its own.
 */

/**
 * The longest period a query or a bulk replay covers, in days (the product's 90-day rule): the replay
 * window the delivery log's end date allows for (log-store.ts DIAS_DO_LOG).
 */
export const PERIODO_MAXIMO_DIAS = log.JANELA_DE_REENVIO_DIAS;

/** A period of Bahia days as UTC instants: start ≤ end, at most 90 days. */
export function periodo(dataInicial: string, dataFinal: string): { desde: string; ate: string } {
  const dias = daysBetween(dataInicial, dataFinal);
  if (dias < 0) throw invalid('dataInicioMaiorDataFim');
  if (dias > PERIODO_MAXIMO_DIAS) throw invalid('periodoMaximo');
  return { desde: new Date(`${dataInicial}T00:00:00.000-03:00`).toISOString(), ate: new Date(`${dataFinal}T23:59:59.999-03:00`).toISOString() };
}

function view(e: log.EntregaRecord) {
  return {
    deliveryId: e.deliveryId,
    clienteId: e.clienteId,
    razaoSocial: e.razaoSocial ?? '',
    dataCriacao: e.dataCriacao,
    operacao: e.operacao,
    descricao: e.descricao,
    tentativas: e.tentativas,
    ultimaTentativa: e.ultimaTentativa ?? null,
    situacao: e.situacao,
    body: e.body,
  };
}

interface Filtro {
  idCliente?: string;
  dataInicial: string;
  dataFinal: string;
}

export async function mensagens(principal: Principal, q: Filtro & { cursor?: string | undefined; perPage: number }) {
  const clienteId = clienteDoFiltro(principal, q.idCliente);
  const { desde, ate } = periodo(q.dataInicial, q.dataFinal);
  const vinculo = vinculoDoCursor(principal, 'webhooks.mensagens', { clienteId, desde, ate, perPage: q.perPage });
  const pagina = await paginaComCursor(vinculo, q.cursor, (posicao) =>
    log.paginaDeEntregas({ clienteId, desde, ate, situacoes: ['PENDENTE', 'FALHA', 'PAUSADA'] }, { perPage: q.perPage, posicao }),
  );
  return { ...pagina, items: pagina.items.map(view) };
}

/** The spec's form (POST with the client's CNPJ): the CNPJ names the client; an unknown one is 404. */
export async function mensagensPorCnpj(principal: Principal, q: Omit<Filtro, 'idCliente'> & { cnpj?: string | undefined; cursor?: string | undefined; perPage: number }) {
  const { cnpj, ...resto } = q;
  if (!cnpj) return mensagens(principal, resto);
  const clienteId = await clienteIdPorCnpj(cnpj);
  if (!clienteId) throw notFound();
  return mensagens(principal, { ...resto, idCliente: clienteId });
}

/** A delivery the caller may see, or 404 (absent) / 403 (another client's, to a client user). */
async function entregaVisivel(principal: Principal, deliveryId: string): Promise<log.EntregaRecord> {
  const entrega = await log.lerEntrega(deliveryId);
  if (!entrega) throw notFound();
  if (!isAdmin(principal) && entrega.clienteId !== principal.clienteId) throw forbidden('clienteNaoPermitido');
  return entrega;
}

/** An attempt logged before its POST and never finished: still being sent, or its process died during it. */
export const SEM_RESPOSTA_REGISTRADA = 'Sem resposta registrada: envio em andamento ou interrompido';

export async function tentativas(principal: Principal, deliveryId: string) {
  await entregaVisivel(principal, deliveryId);
  return (await log.tentativasDe(deliveryId)).map((t, i) => ({
    numero: i + 1,
    instante: t.instante,
    status: t.status ?? null,
    erro: t.emCurso ? SEM_RESPOSTA_REGISTRADA : (t.erro ?? null),
    latenciaMs: t.latenciaMs,
  }));
}

/** Replays one failed delivery: only a failed one is set back to pending (once), then enqueued. */
export async function reenviar(principal: Principal, deliveryId: string) {
  const entrega = await entregaVisivel(principal, deliveryId);
  if (entrega.situacao === 'ENTREGUE') throw conflict('webhookJaEntregue');
  if (entrega.situacao === 'PENDENTE' || !(await log.marcarReenvio(entrega))) {
    const agora = await log.lerEntrega(deliveryId);
    throw conflict(agora?.situacao === 'ENTREGUE' ? 'webhookJaEntregue' : 'webhookPendente');
  }
  await enviarEmLotes([jobs.mensagemDaEntrega(entrega)]);
  return { message: message('webhookReenviado') };
}

/**
 * Starts the job that puts its first step on the queue; a job of the same lock already running is
 * answered instead (no second job, no second chain of steps).
 */
async function iniciar(novo: jobs.NovoJob) {
  const { job, iniciou } = await jobs.iniciarJob(novo);
  if (iniciou) await enviarEmLotes([jobs.mensagemDoPasso(job)]);
  return job;
}

/** Replays every failed delivery of the period (and client), any number: a job (functions/webhooks/jobs.ts), 202. */
export async function reenviarFalhas(principal: Principal, f: Filtro) {
  const clienteId = clienteDoFiltro(principal, f.idCliente);
  const { desde, ate } = periodo(f.dataInicial, f.dataFinal);
  const job = await iniciar({ jobId: jobs.jobDoReenvio(clienteId), tipo: 'reenvio', clienteId, desde, ate, iniciadoPor: principal.userId });
  return jobs.vistaDoJob(job);
}

/** A job the caller may follow: an administrator any; a client user its client's only. */
export async function job(principal: Principal, jobId: string) {
  const j = await jobs.lerJob(jobId);
  if (!j) throw notFound();
  if (!isAdmin(principal) && (!j.clienteId || j.clienteId !== principal.clienteId)) throw forbidden('clienteNaoPermitido');
  return jobs.vistaDoJob(j);
}
// ---- paused endpoints (docs/webhooks.md "Pausing a failing endpoint") ------------------------------

/** The end of a resume's read: every delivery held so far, whenever created. */
const ATE_O_FIM = '9999-12-31T23:59:59.999Z';

/** Deliveries held while paused were created at most this long before the pause (the retry schedule's ~33 h, with margin). */
const RETENCAO_ANTES_DA_PAUSA_MS = 3 * 24 * 3_600_000;

export async function pausas(principal: Principal, idCliente: string | undefined) {
  const clienteId = clienteDoFiltro(principal, idCliente);
  return (await endpoints.pausas(clienteId)).map((p) => ({
    clienteId: p.clienteId,
    razaoSocial: p.razaoSocial ?? '',
    operacao: p.operacao,
    url: p.url,
    pausadoEm: p.pausadoEm,
    retomando: Boolean(p.retomadaEm),
  }));
}

/**
 * Resumes a paused endpoint as a job (functions/webhooks/jobs.ts), 202: the pause is marked as being
 * resumed (so the dispatcher posts again) and kept until every held delivery was queued; the job
 * deletes it last. A retried click while the job runs answers the same job; once the pause is gone,
 * 409 `webhookNaoPausado`.
 */
export async function retomar(principal: Principal, idCliente: string, operacao: string) {
  const clienteId = clienteDoFiltro(principal, idCliente);
  if (!clienteId) throw forbidden('clienteNaoPermitido');
  const pausa = await endpoints.pausaDe(clienteId, operacao);
  if (!pausa) throw conflict('webhookNaoPausado');
  if (!pausa.retomadaEm) await endpoints.marcarRetomada(clienteId, operacao, new Date().toISOString());
  const desde = new Date(Date.parse(pausa.pausadoEm) - RETENCAO_ANTES_DA_PAUSA_MS).toISOString();
  // The held ones were created while the pause lasted: the job's time slices cut that period.
  const job = await iniciar({ jobId: jobs.jobDaRetomada(clienteId, operacao), tipo: 'retomada', clienteId, operacao, desde, ate: ATE_O_FIM, cortarDe: pausa.pausadoEm, iniciadoPor: principal.userId });
  return jobs.vistaDoJob(job);
}
