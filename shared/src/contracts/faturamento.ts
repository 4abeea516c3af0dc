import * as z from 'zod';
import { isBusinessMonth } from '../domain/dates';
import { message } from '../messages';
import { isoDateTime } from './common';
import { defineContract } from './define';

/**
 * Monthly billing (issue 14; spec 2 sections 2.9, 2.10, 3 Invoice, 4, 7, 8, 9; docs/faturamento.md):
 * the billing run of a month (the admin starts it and watches its progress; EventBridge Scheduler
 * starts it on the 1st for the month before) and the audited re-price of an open invoice.
 * Money in integer centavos, unit values in thousandths of a real; months 'YYYY-MM'.
 */

const ADMIN = ['sefaz_admin'] as const;

const mes = z
  .string({ error: message('campoObrigatorio', { field: 'mês' }) })
  .trim()
  .refine(isBusinessMonth, { error: message('campoInvalido', { field: 'mês' }) })
  .meta({ title: 'mês' });

const uuid = z.string().trim().regex(/^[0-9a-f-]{36}$/i, { error: message('campoInvalido', { field: 'execução' }) });

/** `<YYYYMM>-<clienteId>`. */
export const idFatura = z
  .string()
  .trim()
  .regex(/^\d{6}-[A-Za-z0-9_-]{1,64}$/, { error: message('campoInvalido', { field: 'fatura' }) })
  .meta({ title: 'fatura' });

export const execucaoSchema = z.object({
  execucaoId: z.string(),
  mes: z.string(),
  origem: z.enum(['agendamento', 'admin']),
  iniciadaPor: z.string(),
  iniciadaEm: isoDateTime,
  concluidaEm: isoDateTime.nullable(),
  /** INTERROMPIDA: still "running" past the state machine's timeout. */
  situacao: z.enum(['EM_ANDAMENTO', 'CONCLUIDA', 'FALHA', 'INTERROMPIDA']),
  erro: z.string().nullable(),
  /** The clients the run went through (known once it has listed them). */
  totalClientes: z.number().int().nullable(),
  feitos: z.number().int(),
  emitidas: z.number().int(),
  jaEmitidas: z.number().int(),
  semFatura: z.number().int(),
  emAvaliacao: z.number().int(),
  falhas: z.array(z.object({ clienteId: z.string(), erro: z.string() })),
});
export type ExecucaoFaturamento = z.infer<typeof execucaoSchema>;

export const iniciarFaturamento = defineContract({
  id: 'faturamento.iniciar',
  context: 'faturamento',
  method: 'POST',
  path: '/api/v1/faturamento/execucoes',
  summary: 'Inicia o faturamento de um mês encerrado (uma fatura por cliente; faturas já emitidas não mudam).',
  access: ADMIN,
  body: z.object({ mes }),
  response: execucaoSchema,
  status: 202,
  errors: ['faturamentoMesInvalido', 'faturamentoSemTarifacao', 'faturamentoEmAndamento'],
});

export const execucoesFaturamento = defineContract({
  id: 'faturamento.execucoes',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/faturamento/execucoes',
  summary: 'As execuções do faturamento de um mês, com o andamento (clientes feitos / total, falhas).',
  access: ADMIN,
  query: z.object({ mes }),
  response: z.array(execucaoSchema),
  errors: [],
});

export const execucaoFaturamento = defineContract({
  id: 'faturamento.execucao',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/faturamento/execucoes/{execucaoId}',
  summary: 'Uma execução do faturamento, com o andamento.',
  access: ADMIN,
  params: z.object({ execucaoId: uuid }),
  response: execucaoSchema,
  errors: ['recursoNaoEncontrado'],
});

export const recalcularFatura = defineContract({
  id: 'faturamento.recalcular',
  context: 'faturamento',
  method: 'PUT',
  path: '/api/v1/fatura/{idConsumo}/recalcular',
  summary: 'Recalcula uma fatura em aberto com a tarifação hoje registrada para o mês (ação auditada, com justificativa).',
  access: ADMIN,
  params: z.object({ idConsumo: idFatura }),
  body: z.object({
    /** The revision the admin saw. */
    revisao: z.number().int().min(1),
    justificativa: z.string({ error: message('campoObrigatorio', { field: 'justificativa' }) }).trim().min(5).max(500).meta({ title: 'justificativa' }),
  }),
  response: z.object({ revisao: z.number().int(), valorServicos: z.number().int(), valorAssinatura: z.number().int(), valorTotal: z.number().int() }),
  errors: ['recursoNaoEncontrado', 'faturaNaoReprecificavel', 'faturaAlterada', 'faturamentoSemTarifacao'],
});
