import * as z from 'zod';
import { OPERACOES_WEBHOOK, type OperacaoWebhook } from '../domain/clientes';
import { cnpjSchema } from '../domain/cnpj';
import { parseBrDate } from '../domain/dates';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, idClienteSchema, opcionalVazio } from './common';
import { defineContract } from './define';

/**
 * Webhook event monitoring (spec 3 §2.15, §3.16, §7.9): the deliveries still pending or failed, the
 * history of one delivery's attempts, and their replay (functions/webhooks, docs/webhooks.md). The
 * administrator sees every client (all by default); a cliente_monitoramento user only its own client
 * (another's: 403 clienteNaoPermitido, checked in the service).
 */

const MONITORAMENTO = ['sefaz_admin', 'cliente_monitoramento'] as const;

/**
 * A resume or replay-all job (functions/webhooks/jobs.ts): started by the request (202), then followed
 * by the screen until CONCLUIDO. Its id is its lock: one per paused endpoint, one per client (or all).
 */
export const jobWebhookSchema = z.object({
  jobId: z.string(),
  tipo: z.enum(['retomada', 'reenvio']),
  situacao: z.enum(['EM_ANDAMENTO', 'CONCLUIDO']),
  /** Deliveries queued so far. */
  enfileiradas: z.number().int(),
  iniciadoEm: z.string(),
  concluidoEm: z.string().nullable(),
  clienteId: z.string().optional(),
  operacao: z.string().optional(),
  /** What the screen says: running (with the count) or the result. */
  message: z.string(),
});
export type JobWebhook = z.infer<typeof jobWebhookSchema>;

const jobId = z
  .string()
  .trim()
  .regex(/^(retomada|reenvio)(\.[A-Za-z0-9_-]{1,64}){0,2}$/, { error: message('campoInvalido', { field: 'job' }) })
  .meta({ title: 'job' });

const idCliente = idClienteSchema;

const opcional = opcionalVazio;

/** A calendar day, DD/MM/YYYY or YYYY-MM-DD, answered as YYYY-MM-DD. */
const dia = (obrigatoria: 'dataInicioObrigatoria' | 'dataFimObrigatoria') =>
  z
    .string({ error: message(obrigatoria) })
    .trim()
    .min(1, { error: message(obrigatoria) })
    .transform((value, ctx) => {
      const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? parseBrDate(value.split('-').reverse().join('/')) : parseBrDate(value);
      if (!day) {
        ctx.addIssue({ code: 'custom', message: message('dataInvalida') });
        return z.NEVER;
      }
      return day;
    })
    .meta({ description: 'DD/MM/AAAA ou AAAA-MM-DD, um dia real', pattern: '^(\\d{2}/\\d{2}/\\d{4}|\\d{4}-\\d{2}-\\d{2})$', example: '23/11/2026' });

const deliveryId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, { error: message('campoInvalido', { field: 'entrega' }) })
  .meta({ title: 'entrega' });

const periodo = { idCliente: opcional(idCliente), dataInicial: dia('dataInicioObrigatoria'), dataFinal: dia('dataFimObrigatoria') };

export const mensagemSchema = z.object({
  deliveryId: z.string(),
  clienteId: z.string(),
  razaoSocial: z.string(),
  dataCriacao: z.string(),
  operacao: z.string(),
  descricao: z.string(),
  tentativas: z.number().int(),
  ultimaTentativa: z.string().nullable(),
  /** PAUSADA: held while the client's endpoint is paused; sent again when it resumes. */
  situacao: z.enum(['PENDENTE', 'FALHA', 'ENTREGUE', 'PAUSADA']),
  /** The JSON sent, as a string. */
  body: z.string(),
});

export const mensagensWebhook = defineContract({
  id: 'webhooks.mensagens',
  context: 'webhooks',
  method: 'GET',
  path: '/api/v1/webhook-monitoramento',
  summary:
    'Mensagens de webhook pendentes e com falha de um cliente (ou de todos, para o administrador) criadas no período ' +
    '(dataInicial a dataFinal, no máximo 90 dias), da mais nova para a mais antiga, uma página por vez (nextCursor → cursor; ' +
    'uma página pode vir com menos mensagens, e com nextCursor, quando o período tem sobretudo mensagens entregues).',
  access: MONITORAMENTO,
  query: z.object({
    ...periodo,
    ...cursorQuery(10),
  }),
  response: cursorPageOf(mensagemSchema),
  errors: ['clienteNaoPermitido', 'dataInicioObrigatoria', 'dataFimObrigatoria', 'dataInicioMaiorDataFim', 'periodoMaximo', 'cursorInvalido'],
});

/**
 * The same list as the spec's call (spec 3 §7.9): POST to the monitoring path with the client's CNPJ
 * (absent or empty: every client, for the administrator), the period and the page.
 */
export const consultarMensagensWebhook = defineContract({
  id: 'webhooks.consultarMensagens',
  context: 'webhooks',
  method: 'POST',
  path: '/api/v1/webhook-monitoramento',
  summary: 'As mensagens de webhook pendentes e com falha, como GET, com o cliente informado pelo CNPJ no corpo (spec 7.9).',
  access: MONITORAMENTO,
  body: z.object({
    cnpj: opcional(cnpjSchema),
    dataInicial: periodo.dataInicial,
    dataFinal: periodo.dataFinal,
    ...cursorQuery(10),
  }),
  response: cursorPageOf(mensagemSchema),
  errors: ['clienteNaoPermitido', 'dataInicioObrigatoria', 'dataFimObrigatoria', 'dataInicioMaiorDataFim', 'periodoMaximo', 'recursoNaoEncontrado', 'cursorInvalido'],
});

export const tentativasWebhook = defineContract({
  id: 'webhooks.tentativas',
  context: 'webhooks',
  method: 'GET',
  path: '/api/v1/webhook-monitoramento/{deliveryId}/tentativas',
  summary: 'O histórico de tentativas de uma entrega: número, instante, status HTTP (ou o erro de rede) e latência.',
  access: MONITORAMENTO,
  params: z.object({ deliveryId }),
  response: z.array(
    z.object({ numero: z.number().int(), instante: z.string(), status: z.number().int().nullable(), erro: z.string().nullable(), latenciaMs: z.number() }),
  ),
  errors: ['clienteNaoPermitido', 'recursoNaoEncontrado'],
});

export const reenviarWebhook = defineContract({
  id: 'webhooks.reenviar',
  context: 'webhooks',
  method: 'POST',
  path: '/api/v1/webhook-monitoramento/{deliveryId}/reenvio',
  summary: 'Reenvia uma entrega com falha (a mesma entrega, o mesmo id); uma já entregue ou ainda pendente não é reenviada.',
  access: MONITORAMENTO,
  params: z.object({ deliveryId }),
  response: z.object({ message: z.string() }),
  errors: ['clienteNaoPermitido', 'recursoNaoEncontrado', 'webhookJaEntregue', 'webhookPendente'],
});

export const reenviarFalhasWebhook = defineContract({
  id: 'webhooks.reenviarFalhas',
  context: 'webhooks',
  method: 'POST',
  path: '/api/v1/webhook-monitoramento/reenvio',
  summary:
    'Inicia o reenvio de todas as entregas com falha do período (e do cliente, se informado), de qualquer tamanho: ' +
    'um job que as envia em lotes (202, com o job; um pedido repetido enquanto ele roda devolve o mesmo job).',
  access: MONITORAMENTO,
  body: z.object(periodo),
  response: jobWebhookSchema,
  status: 202,
  errors: ['clienteNaoPermitido', 'dataInicioObrigatoria', 'dataFimObrigatoria', 'dataInicioMaiorDataFim', 'periodoMaximo'],
});

export const jobWebhook = defineContract({
  id: 'webhooks.job',
  context: 'webhooks',
  method: 'GET',
  // Not under /webhook-monitoramento/: `jobs/{jobId}` and `{deliveryId}/reenvio` would be the same
  // template to a generated client (Redocly no-ambiguous-paths).
  path: '/api/v1/webhook-monitoramento-jobs/{jobId}',
  summary: 'O andamento de uma retomada ou de um reenvio de todas as falhas: em andamento (quantas enviadas) ou concluído.',
  access: MONITORAMENTO,
  params: z.object({ jobId }),
  response: jobWebhookSchema,
  errors: ['clienteNaoPermitido', 'recursoNaoEncontrado'],
});

const operacaoWebhook = z.enum(OPERACOES_WEBHOOK.map((o) => o.operacao) as [OperacaoWebhook, ...OperacaoWebhook[]], {
  error: message('campoInvalido', { field: 'operação' }),
});

export const pausasWebhook = defineContract({
  id: 'webhooks.pausas',
  context: 'webhooks',
  method: 'GET',
  path: '/api/v1/webhook-monitoramento/pausas',
  summary:
    'Os endereços de webhook pausados (de um cliente, ou de todos para o administrador): um endereço cuja entrega esgotou ' +
    'as tentativas sem nenhum sucesso desde que foi criada é pausado, e suas mensagens ficam retidas até a retomada.',
  access: MONITORAMENTO,
  query: z.object({ idCliente: opcional(idCliente) }),
  response: z.array(
    z.object({
      clienteId: z.string(),
      razaoSocial: z.string(),
      operacao: z.string(),
      url: z.string(),
      pausadoEm: z.string(),
      /** A resume job is queueing its held deliveries (the pause goes when it ends). */
      retomando: z.boolean(),
    }),
  ),
  errors: ['clienteNaoPermitido'],
});

export const retomarWebhook = defineContract({
  id: 'webhooks.retomar',
  context: 'webhooks',
  method: 'POST',
  path: '/api/v1/webhook-monitoramento/pausas/{idCliente}/{operacao}/retomada',
  summary:
    'Retoma o envio a um endereço pausado: um job envia de novo, em lotes e em ordem de criação, as mensagens retidas ' +
    'e só então remove a pausa (202, com o job; um pedido repetido enquanto ele roda devolve o mesmo job).',
  access: MONITORAMENTO,
  params: z.object({ idCliente, operacao: operacaoWebhook }),
  response: jobWebhookSchema,
  status: 202,
  errors: ['clienteNaoPermitido', 'webhookNaoPausado'],
});
