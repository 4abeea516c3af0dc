import * as z from 'zod';
import { formatDate, isBusinessMonth } from '../domain/dates';
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
  path: '/api/v1/faturamento-mensal/execucoes',
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
  path: '/api/v1/faturamento-mensal/execucoes',
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
  path: '/api/v1/faturamento-mensal/execucoes/{execucaoId}',
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

// ---- invoices (consultar-fatura, detalhe-fatura) ----------------------------------------------------

const ADMIN_CLIENTE = ['sefaz_admin', 'cliente'] as const;

/** An empty select sends '': the same as leaving it out. */
const opcional = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => undefined), schema]).optional();

export const faturaResumoSchema = z.object({
  id: z.string(),
  mes: z.number().int(),
  ano: z.number().int(),
  valorTotal: z.number().int(),
  situacao: z.enum(['A', 'P']),
  cliente: z.object({ razaoSocial: z.string(), cnpj: z.string() }),
  /** The DAE, once generated. */
  dae: z.object({ urlDae: z.string().nullable(), dtVencimento: z.string(), valorPago: z.number().int().nullable() }).nullable(),
  /** The tax note's files, once uploaded. */
  nomePdfFile: z.string().nullable(),
  nomeXmlFile: z.string().nullable(),
});
export type FaturaResumo = z.infer<typeof faturaResumoSchema>;

export const listarFaturas = defineContract({
  id: 'faturamento.faturas',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/fatura',
  summary: 'As faturas de um período (MM/AAAA a MM/AAAA), de um cliente ou de todos (administrador), por situação.',
  access: ADMIN_CLIENTE,
  query: z.object({
    /** The client's CNPJ; a client user may give only its own (or none). */
    cnpj: opcional(z.string().trim().regex(/^[0-9A-Za-z]{14}$/, { error: message('campoInvalido', { field: 'cliente' }) })),
    dataInicio: mes,
    dataFim: mes,
    situacao: opcional(z.enum(['A', 'P'])),
  }),
  response: z.object({ consumos: z.array(faturaResumoSchema) }),
  errors: ['dataInicioMaiorDataFim', 'periodoMaximoDozeMeses', 'faturamentoMesFuturo', 'clienteNaoPermitido'],
});

export const faturaDetalheSchema = z.object({
  id: z.string(),
  cliente: z.object({ cnpj: z.string(), razaoSocial: z.string() }),
  mes: z.number().int(),
  ano: z.number().int(),
  situacao: z.enum(['A', 'P']),
  valorServicos: z.number().int(),
  valorAssinatura: z.number().int(),
  valorTotal: z.number().int(),
  itens: z.array(
    z.object({
      idModuloServico: z.number().int(),
      descricao: z.string(),
      /** The UF's IBGE code, and its initials. */
      uf: z.number().int(),
      sgUf: z.string(),
      requisicoes: z.number().int(),
      /** Thousandths of a real. */
      valorUnitario: z.number().int(),
      /** Centavos. */
      valorConsumo: z.number().int(),
    }),
  ),
});
export type FaturaDetalhe = z.infer<typeof faturaDetalheSchema>;

export const detalheFatura = defineContract({
  id: 'faturamento.fatura',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/fatura/{idConsumo}',
  summary: 'Uma fatura com seus itens por serviço e UF (o cliente vê somente as suas).',
  access: ADMIN_CLIENTE,
  params: z.object({ idConsumo: idFatura }),
  response: faturaDetalheSchema,
  errors: ['recursoNaoEncontrado', 'clienteNaoPermitido'],
});

// ---- the DAE (spec 2 section 4 "DAE generation", section 7 "POST generate DAE") ---------------------

/** 'YYYY-MM-DD', a real calendar day. */
const dataVencimento = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && formatDate(s) !== '', { error: message('campoInvalido', { field: 'data de vencimento' }) })
  .meta({ title: 'data de vencimento' });

export const daeSchema = z.object({
  /** A short-lived presigned URL that shows the PDF (opened in a new tab). */
  urlDAE: z.string(),
  /** 'YYYY-MM-DD'. */
  dtVencimento: z.string(),
  /** The DAE's number (the end of the barcode's free field). */
  numero: z.number().int(),
  /** Centavos. */
  valor: z.number().int(),
  /** The 44 digits (FEBRABAN arrecadação). */
  codigoBarras: z.string().regex(/^\d{44}$/),
  /** The 48 digits (four blocks of 11, each with its check digit). */
  linhaDigitavel: z.string().regex(/^\d{48}$/),
});
export type Dae = z.infer<typeof daeSchema>;

export const emitirDae = defineContract({
  id: 'faturamento.dae',
  context: 'faturamento',
  method: 'POST',
  path: '/api/v1/fatura/{idConsumo}/dae',
  summary:
    'Emite o DAE de uma fatura em aberto (vencimento: o do DAE já emitido, ou dia 15 do mês seguinte ao de referência; se já passou, informe dataVencimento entre hoje e o fim do próximo mês). O mesmo pedido devolve o mesmo DAE.',
  access: ADMIN_CLIENTE,
  params: z.object({ idConsumo: idFatura }),
  body: z.object({ dataVencimento: opcional(dataVencimento) }),
  response: daeSchema,
  errors: ['recursoNaoEncontrado', 'clienteNaoPermitido', 'daeFaturaNaoAberta', 'daeVencimentoExpirado', 'daeVencimentoForaDoPrazo'],
});
