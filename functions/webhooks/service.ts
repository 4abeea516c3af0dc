import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Principal } from '@plac/shared/access';
import { REENVIO_MAXIMO } from '@plac/shared/contracts/webhooks';
import { daysBetween } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { sqsClient } from '../platform/aws';
import { config } from '../platform/env';
import { conflict, forbidden, invalid, notFound } from '../platform/errors';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import type { WebhookDelivery } from './dispatcher';
import { clienteIdPorCnpj } from '../clientes/webhook-entrega';
import * as endpoints from './endpoint-store';
import * as log from './log-store';

/**
 * Webhook monitoring (spec 3 §2.15): pending and failed deliveries, one delivery's attempts and the
 * replay of failed ones. An administrator sees every client; a cliente_monitoramento user only its own.
 */

/** The longest period a query or a bulk replay covers, in days (the product's 90-day rule). */
export const PERIODO_MAXIMO_DIAS = 90;

const isAdmin = (p: Principal) => p.roles.includes('sefaz_admin');

/** The client the caller may see: the asked one (or all) for an administrator, always the own for a client user. */
export function clienteDoFiltro(principal: Principal, pedido: string | undefined): string | undefined {
  if (isAdmin(principal)) return pedido;
  if (!principal.clienteId) throw forbidden('clienteNaoPermitido');
  if (pedido && pedido !== principal.clienteId) throw forbidden('clienteNaoPermitido');
  return principal.clienteId;
}

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

export async function tentativas(principal: Principal, deliveryId: string) {
  await entregaVisivel(principal, deliveryId);
  return (await log.tentativasDe(deliveryId)).map((t, i) => ({
    numero: i + 1,
    instante: t.instante,
    status: t.status ?? null,
    erro: t.erro ?? null,
    latenciaMs: t.latenciaMs,
  }));
}

/**
 * Enqueues the same delivery again (same id, so receivers can drop a duplicate). The message names the
 * client and the operation, so the dispatcher sends it with the configuration in force (URL, Basic
 * credentials, signature); a delivery without a client goes to the URL it was logged with.
 */
async function enfileirar(e: log.EntregaRecord): Promise<void> {
  const delivery: WebhookDelivery = {
    deliveryId: e.deliveryId,
    operacao: e.operacao,
    payload: JSON.parse(e.body) as Record<string, unknown>,
    ...(e.clienteId !== log.SEM_CLIENTE ? { clienteId: e.clienteId } : { url: e.url }),
    ...(e.razaoSocial ? { razaoSocial: e.razaoSocial } : {}),
    ...(e.dependeDe ? { dependeDe: e.dependeDe } : {}),
    descricao: e.descricao,
  };
  await sqsClient().send(new SendMessageCommand({ QueueUrl: config.webhookQueueUrl, MessageBody: JSON.stringify(delivery) }));
}

/** Replays one failed delivery: only a failed one is set back to pending (once), then enqueued. */
export async function reenviar(principal: Principal, deliveryId: string) {
  const entrega = await entregaVisivel(principal, deliveryId);
  if (entrega.situacao === 'ENTREGUE') throw conflict('webhookJaEntregue');
  if (entrega.situacao === 'PENDENTE' || !(await log.marcarReenvio(deliveryId))) {
    const agora = await log.lerEntrega(deliveryId);
    throw conflict(agora?.situacao === 'ENTREGUE' ? 'webhookJaEntregue' : 'webhookPendente');
  }
  await enfileirar(entrega);
  return { message: message('webhookReenviado') };
}

/** Replays every failed delivery of the period (and client): refused whole above REENVIO_MAXIMO. */
export async function reenviarFalhas(principal: Principal, f: Filtro) {
  const clienteId = clienteDoFiltro(principal, f.idCliente);
  const { desde, ate } = periodo(f.dataInicial, f.dataFinal);
  const falhas = await log.entregasNoPeriodo({ ...(clienteId ? { clienteId } : {}), desde, ate, situacoes: ['FALHA'] }, REENVIO_MAXIMO + 1);
  if (falhas.length > REENVIO_MAXIMO) throw invalid('webhookReenvioGrandeDemais', { max: String(REENVIO_MAXIMO) });
  let reenviadas = 0;
  for (const entrega of falhas) {
    if (!(await log.marcarReenvio(entrega.deliveryId))) continue; // replayed meanwhile
    await enfileirar(entrega);
    reenviadas++;
  }
  return { reenviadas, message: message('webhookReenviados', { n: String(reenviadas) }) };
}

// ---- paused endpoints (docs/webhooks.md "Pausing a failing endpoint") ------------------------------

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
  }));
}

/**
 * Resumes a paused endpoint: the pause is deleted on condition that it exists (a second click is
 * refused with 409), then every delivery held since is set back to pending, once each, and enqueued.
 */
export async function retomar(principal: Principal, idCliente: string, operacao: string) {
  const clienteId = clienteDoFiltro(principal, idCliente);
  if (!clienteId) throw forbidden('clienteNaoPermitido');
  const pausa = await endpoints.retomar(clienteId, operacao);
  if (!pausa) throw conflict('webhookNaoPausado');
  const desde = new Date(Date.parse(pausa.pausadoEm) - RETENCAO_ANTES_DA_PAUSA_MS).toISOString();
  const retidas = await log.entregasNoPeriodo({ clienteId, desde, ate: new Date().toISOString(), situacoes: ['PAUSADA'] }, Number.MAX_SAFE_INTEGER);
  let reenviadas = 0;
  for (const entrega of retidas.reverse()) {
    if (entrega.operacao !== operacao || !(await log.marcarRetomada(entrega.deliveryId))) continue;
    await enfileirar(entrega);
    reenviadas++;
  }
  return { reenviadas, message: message('webhookRetomado', { n: String(reenviadas) }) };
}
