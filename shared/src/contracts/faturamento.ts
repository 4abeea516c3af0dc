import * as z from 'zod';
import { formatDate, isBusinessMonth } from '../domain/dates';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, decimalInteger, isoDateTime, MES_ENCERRADO_EXEMPLO, MES_META, opcionalVazio } from './common';
import { relatorioJobSchema } from './consumo';
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
  .meta({ title: 'mês', ...MES_META });

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
  body: z.object({ mes: mes.meta(MES_ENCERRADO_EXEMPLO) }),
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

export const faturasVencidas = defineContract({
  id: 'faturamento.vencidas',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/faturamento-mensal/vencidas',
  summary:
    'As faturas vencidas dos últimos 12 meses (em aberto, com o vencimento do DAE, ou o padrão, antes de hoje), de todos os clientes fora de avaliação: ' +
    'quantidade, total (centavos) e o vencimento mais antigo. Para o painel do administrador.',
  access: ADMIN,
  response: z.object({ quantidade: z.number().int(), total: z.number().int(), vencimentoMaisAntigo: z.string().nullable() }),
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

const opcional = opcionalVazio;

/**
 * Short payments of an invoice ("Pago parcialmente" on screen while it is open): each payment received
 * that left a balance owed, with the amount (centavos) and the day paid, oldest first.
 */
const pagamentosParciaisSchema = z.array(z.object({ valorPago: z.number().int(), dataPagamento: z.string() }));

/**
 * What an invoice received and still owes (issue 37), centavos: the part of its total the payments
 * amortised, the balance owed (0 once paid), and what was received over what was owed (to be refunded).
 */
const saldoSchema = {
  valorRecebido: z.number().int(),
  saldoDevedor: z.number().int(),
  valorExcedente: z.number().int(),
};

/**
 * Each payment received for the invoice, as the bank reported it and as it was applied: first to the
 * late-payment surcharge due that day, then to the balance, the rest an overpayment (Civil Code art. 354).
 */
const recebimentoSchema = z.object({
  dataPagamento: z.string(),
  banco: z.string(),
  nomeBanco: z.string(),
  nomeArquivo: z.string(),
  valorPago: z.number().int(),
  valorAcrescimo: z.number().int(),
  valorAmortizado: z.number().int(),
  valorExcedente: z.number().int(),
});

export const faturaResumoSchema = z.object({
  id: z.string(),
  mes: z.number().int(),
  ano: z.number().int(),
  valorTotal: z.number().int(),
  situacao: z.enum(['A', 'P']),
  cliente: z.object({ razaoSocial: z.string(), cnpj: z.string() }),
  /** The DAE, once generated. */
  dae: z.object({ urlDae: z.string().nullable(), dtVencimento: z.string(), valorPago: z.number().int().nullable() }).nullable(),
  pagamentosParciais: pagamentosParciaisSchema,
  ...saldoSchema,
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
  summary:
    'As faturas de um período (AAAA-MM a AAAA-MM), de um cliente ou de todos (administrador), por situação, do mês mais recente ao ' +
    'mais antigo, uma página por vez (nextCursor → cursor).',
  access: ADMIN_CLIENTE,
  query: z.object({
    /** The client's CNPJ; a client user may give only its own (or none). */
    cnpj: opcional(z.string().trim().regex(/^[0-9A-Za-z]{14}$/, { error: message('campoInvalido', { field: 'cliente' }) })),
    dataInicio: mes,
    dataFim: mes,
    situacao: opcional(z.enum(['A', 'P'])),
    ...cursorQuery(25),
  }),
  response: cursorPageOf(faturaResumoSchema),
  errors: ['dataInicioMaiorDataFim', 'periodoMaximoDozeMeses', 'faturamentoMesFuturo', 'clienteNaoPermitido', 'cursorInvalido'],
});

/** An invoice's line: one service from one origin UF. */
const itemFaturaSchema = z.object({
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
  /**
   * The DAE the invoice is filed with: the one paid once paid, else the latest generated; its number
   * and due date ('YYYY-MM-DD'). Null before any DAE (the screen shows the default due date).
   */
  dae: z.object({ numero: z.number().int(), dtVencimento: z.string() }).nullable(),
  /** The payment the bank-return import recorded (situacao P): the day paid and the centavos paid, surcharge included. */
  pagamento: z.object({ dataPagamento: z.string(), valorPago: z.number().int() }).nullable(),
  pagamentosParciais: pagamentosParciaisSchema,
  /**
   * The month's evidence in the archive (issue 41): when it was archived and the charged requests it
   * holds; null until the archive job has archived the month whole (then the evidence can be downloaded).
   */
  arquivo: z.object({ arquivadoEm: isoDateTime, requisicoes: z.number().int() }).nullable().optional(),
  ...saldoSchema,
  /** The late-payment surcharge the balance owes if paid today (0 before its DAE's due date). */
  acrescimoSobreSaldo: z.number().int(),
  recebimentos: z.array(recebimentoSchema),
  itens: z.array(itemFaturaSchema),
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

// ---- the projected bill (the client's dashboard) ------------------------------------------------------

const faixaProjecaoSchema = z
  .object({ nome: z.string(), qtdMinima: z.number().int(), qtdMaxima: z.number().int().nullable(), valorUnitario: z.number().int() })
  .nullable();

const totaisSchema = z.object({ valorServicos: z.number().int(), valorAssinatura: z.number().int(), valorTotal: z.number().int() });

export const faturaProjetadaSchema = z.object({
  mes: z.string(),
  calculadaEm: isoDateTime,
  /** Day `dia` of `diasNoMes` (Bahia): the pace the projection extrapolates. */
  dia: z.number().int(),
  diasNoMes: z.number().int(),
  cliente: z.object({ cnpj: z.string(), razaoSocial: z.string(), situacao: z.string() }),
  /** false: no tariff version is in force this month (nothing can be priced). */
  tarifacao: z.boolean(),
  /** Whether the month, as it stands, would be invoiced (never for a client in evaluation). */
  faturavel: z.boolean(),
  requisicoes: z.number().int(),
  servicos: z.array(
    z.object({
      idModuloServico: z.number().int(),
      descricao: z.string(),
      requisicoes: z.number().int(),
      requisicoesProjetadas: z.number().int(),
      faixa: faixaProjecaoSchema,
      proximaFaixa: faixaProjecaoSchema,
      /** Requests still to make to reach the next band (null: the last band is reached). */
      faltamParaProximaFaixa: z.number().int().nullable(),
      faixaProjetada: faixaProjecaoSchema,
    }),
  ),
  /** The invoice's lines so far, each with its month-end projection. */
  itens: z.array(
    itemFaturaSchema.extend({
      requisicoesProjetadas: z.number().int(),
      valorUnitarioProjetado: z.number().int(),
      valorConsumoProjetado: z.number().int(),
    }),
  ),
  /** The invoice of the usage so far and of the projected usage (null without a tariff version). */
  atual: totaisSchema.nullable(),
  projetada: totaisSchema.nullable(),
  assinaturaMinima: z.number().int().nullable(),
});
export type FaturaProjetada = z.infer<typeof faturaProjetadaSchema>;

export const faturaProjetada = defineContract({
  id: 'faturamento.projecao',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/fatura-projetada',
  summary:
    'A fatura projetada do mês corrente: o consumo até hoje por serviço e UF, a faixa atingida, quanto falta para a próxima ' +
    'e a fatura do fim do mês no ritmo atual, pela mesma regra de preço do faturamento (o cliente vê somente a sua).',
  access: ADMIN_CLIENTE,
  query: z.object({
    /** The client's CNPJ: required for the admin; a client user may give only its own (or none). */
    cnpj: opcional(z.string().trim().regex(/^[0-9A-Za-z]{14}$/, { error: message('campoInvalido', { field: 'cliente' }) })),
  }),
  response: faturaProjetadaSchema,
  errors: ['campoObrigatorio', 'clienteNaoPermitido', 'recursoNaoEncontrado'],
});

// ---- tax notes and the detail ZIP (spec 2 sections 2.9, 3, 5, 7 and 8; docs/faturamento.md) ------------

/** The tax note's two files. */
export const tipoNotaFiscal = z.enum(['pdf', 'xml'], { error: message('campoInvalido', { field: 'tipo' }) }).meta({ title: 'tipo' });
export type TipoNotaFiscal = z.infer<typeof tipoNotaFiscal>;

/** The file's name as the user picked it; its extension (.pdf or .xml) is checked by the service ('somentePdfXml'). */
const nomeArquivoNota = z
  .string({ error: message('campoObrigatorio', { field: 'Arquivo' }) })
  .trim()
  .min(1, { error: message('campoObrigatorio', { field: 'Arquivo' }) })
  .max(200)
  .meta({ title: 'Arquivo' });

const idEnvio = z.string().trim().regex(/^[0-9a-f-]{36}$/i, { error: message('campoInvalido', { field: 'envio' }) }).meta({ title: 'envio' });

export const envioNotaFiscal = defineContract({
  id: 'faturamento.notaFiscalEnvio',
  context: 'faturamento',
  method: 'POST',
  path: '/api/v1/fatura/{idConsumo}/nota-fiscal/envios',
  summary:
    'Prepara o envio do PDF ou do XML da nota fiscal de uma fatura: responde uma URL (PUT, válida por 5 minutos) para o arquivo, ' +
    'que depois é confirmado. Somente .pdf e .xml.',
  access: ADMIN,
  params: z.object({ idConsumo: idFatura }),
  body: z.object({ nomeArquivo: nomeArquivoNota }),
  response: z.object({
    envioId: z.string(),
    tipo: tipoNotaFiscal,
    /** The PUT must send this Content-Type. */
    contentType: z.string(),
    url: z.string(),
    /** Bytes; a larger file is refused at the confirmation. */
    tamanhoMaximo: z.number().int(),
  }),
  status: 201,
  errors: ['recursoNaoEncontrado', 'somentePdfXml'],
});

export const confirmarNotaFiscal = defineContract({
  id: 'faturamento.notaFiscalConfirmar',
  context: 'faturamento',
  method: 'PUT',
  path: '/api/v1/fatura/{idConsumo}/nota-fiscal',
  summary:
    'Confirma o envio da nota fiscal: o conteúdo é conferido (PDF ou XML bem formado, até 4 MB) e o arquivo passa a ser o PDF ou o XML ' +
    'da fatura, substituindo o anterior. Um conteúdo inválido é recusado e nada muda.',
  access: ADMIN,
  params: z.object({ idConsumo: idFatura }),
  body: z.object({ envioId: idEnvio, nomeArquivo: nomeArquivoNota }),
  response: z.object({ tipo: tipoNotaFiscal, nomePdfFile: z.string().nullable(), nomeXmlFile: z.string().nullable() }),
  errors: ['recursoNaoEncontrado', 'somentePdfXml', 'notaFiscalNaoRecebida', 'conteudoNaoPdf', 'conteudoNaoXml', 'arquivoGrandeDemais', 'faturaAlterada'],
});

export const baixarNotaFiscal = defineContract({
  id: 'faturamento.notaFiscal',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/fatura/{idConsumo}/nota-fiscal/{tipo}',
  summary: 'O PDF ou o XML da nota fiscal de uma fatura: o nome do arquivo e uma URL de download válida por 5 minutos (o cliente, somente das suas).',
  access: ADMIN_CLIENTE,
  params: z.object({ idConsumo: idFatura, tipo: tipoNotaFiscal }),
  response: z.object({ nomeArquivo: z.string(), url: z.string() }),
  errors: ['recursoNaoEncontrado', 'clienteNaoPermitido'],
});

export const detalhamentoFatura = defineContract({
  id: 'faturamento.detalhamento',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/fatura/{idConsumo}/detalhamento',
  summary:
    'O detalhamento da fatura, detalhamento_fatura.zip: um CSV por serviço (separador ";", UTF-8 com BOM) com cada requisição cobrada ' +
    'no mês da fatura, ou somente do serviço informado. Produzido uma vez, quando o faturamento fecha o mês, e servido do armazenamento depois; ' +
    'responde 202 com o relatório (CONCLUIDO com a URL de download, ou em produção: a situação em /api/v1/consumo/relatorios/{idRelatorio}).',
  access: ADMIN_CLIENTE,
  params: z.object({ idConsumo: idFatura }),
  query: z.object({
    idModuloServico: opcional(decimalInteger('Serviço').pipe(z.number().int().min(1).max(100_000).meta({ title: 'Serviço' }))),
  }),
  status: 202,
  response: relatorioJobSchema,
  errors: ['recursoNaoEncontrado', 'clienteNaoPermitido'],
});

export const evidenciaFatura = defineContract({
  id: 'faturamento.evidencia',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/fatura/{idConsumo}/evidencia',
  summary:
    'As evidências arquivadas do mês da fatura (issue 41): cada requisição cobrada, lida do arquivo em S3 (Parquet) e entregue como o CSV ' +
    'do relatório de consumo (separador ";", UTF-8 com BOM), para qualquer mês dos últimos cinco anos, mesmo depois que o log de ' +
    'requisições expirou do banco. Responde 202 com o relatório (CONCLUIDO com a URL de download, ou em produção: a situação em ' +
    '/api/v1/consumo/relatorios/{idRelatorio}); 409 enquanto o mês não foi arquivado por inteiro.',
  access: ADMIN_CLIENTE,
  params: z.object({ idConsumo: idFatura }),
  status: 202,
  response: relatorioJobSchema,
  errors: ['recursoNaoEncontrado', 'clienteNaoPermitido', 'evidenciaNaoArquivada'],
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
  /** true for the DAE of an invoice's balance after a short payment (its value is the balance owed). */
  complementar: z.boolean(),
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

// ---- bank return files (issue 14 item 4; docs/faturamento.md "Payments") ------------------------------

/** The largest file and the most payments one import takes (20,000 G lines of 150 positions). */
export const RETORNO_MAX_PAGAMENTOS = 20_000;
export const RETORNO_MAX_BYTES = 3_200_000;

export const linhaRetornoSchema = z.object({
  linha: z.number().int(),
  codigoBarras: z.string(),
  dataPagamento: z.string(),
  valorRecebido: z.number().int(),
  /** PAGA: the invoice is now paid; JA_PAGA: it was already; NAO_ENCONTRADA: no DAE has the barcode; INCONSISTENTE: see motivo. */
  situacao: z.enum(['PAGA', 'JA_PAGA', 'NAO_ENCONTRADA', 'INCONSISTENTE']),
  motivo: z.string().optional(),
  faturaId: z.string().optional(),
  cliente: z.string().optional(),
  valorAcrescimo: z.number().int().optional(),
});

export const retornoBancarioSchema = z.object({
  importacaoId: z.string(),
  nomeArquivo: z.string(),
  importadoEm: isoDateTime,
  importadoPor: z.string(),
  banco: z.string(),
  nomeBanco: z.string(),
  nsa: z.number().int(),
  /** The file's generation date: the invoices' bank return date. */
  dataGeracao: z.string(),
  registros: z.number().int(),
  valorTotal: z.number().int(),
  pagas: z.number().int(),
  jaPagas: z.number().int(),
  naoEncontradas: z.number().int(),
  inconsistentes: z.number().int(),
  /** PROCESSANDO: its payments are being matched by the import's job (202); the totals are those done so far. */
  situacao: z.enum(['PROCESSANDO', 'CONCLUIDA']),
  totalPagamentos: z.number().int(),
  processadas: z.number().int(),
  /** true: this file had been imported before; the stored report is answered and nothing changed. */
  jaImportado: z.boolean(),
});
export type RetornoBancario = z.infer<typeof retornoBancarioSchema>;
export type LinhaRetorno = z.infer<typeof linhaRetornoSchema>;

export const importarRetorno = defineContract({
  id: 'faturamento.retornoImportar',
  context: 'faturamento',
  method: 'POST',
  path: '/api/v1/faturamento-mensal/retornos',
  summary:
    'Importa o arquivo de retorno de arrecadação de um banco (layout FEBRABAN: A, G, Z; versões 05 a 07): cada DAE pago, achado pelo código de barras, ' +
    'marca a sua fatura como paga; um pagamento a menor é registrado na fatura como parcial. Um arquivo já importado não altera nada; ' +
    'um arquivo de outra versão ou com data posterior a hoje é recusado; linhas sem DAE, inconsistentes ou com pagamento posterior ao arquivo são relatadas. ' +
    'Um arquivo de milhares de pagamentos continua num job: a resposta é 202 com a importação PROCESSANDO e o andamento (faturamento.retorno).',
  access: ADMIN,
  body: z.object({
    nomeArquivo: z.string({ error: message('campoObrigatorio', { field: 'Arquivo' }) }).trim().min(1).max(200).meta({ title: 'Arquivo' }),
    /** The file's text (ASCII fixed-width records). */
    conteudo: z
      .string({ error: message('campoObrigatorio', { field: 'Arquivo' }) })
      .max(RETORNO_MAX_BYTES * 2, { error: message('retornoGrandeDemais') })
      .meta({ title: 'Arquivo' }),
  }),
  // A file whose payments go on as a job: 202, the import PROCESSANDO with its progress.
  alsoStatus: [202],
  response: retornoBancarioSchema,
  errors: ['retornoExtensao', 'retornoGrandeDemais', 'retornoInvalido', 'retornoVersaoNaoSuportada', 'retornoDataFutura', 'retornoEmProcessamento'],
});

export const retornoBancario = defineContract({
  id: 'faturamento.retorno',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/faturamento-mensal/retornos/{importacaoId}',
  summary: 'Um arquivo de retorno importado: os totais e, enquanto o job importa os seus pagamentos (PROCESSANDO), o andamento.',
  access: ADMIN,
  params: z.object({ importacaoId: z.string().regex(/^[0-9a-f]{64}$/, { error: message('recursoNaoEncontrado') }) }),
  response: retornoBancarioSchema,
  errors: ['recursoNaoEncontrado'],
});

export const linhasDoRetorno = defineContract({
  id: 'faturamento.retornoLinhas',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/faturamento-mensal/retornos/{importacaoId}/linhas',
  summary: 'O resultado de cada linha de um arquivo de retorno importado, na ordem do arquivo, uma página por vez (nextCursor → cursor).',
  access: ADMIN,
  params: z.object({ importacaoId: z.string().regex(/^[0-9a-f]{64}$/, { error: message('recursoNaoEncontrado') }) }),
  query: z.object({ ...cursorQuery(50) }),
  response: cursorPageOf(linhaRetornoSchema),
  errors: ['recursoNaoEncontrado', 'cursorInvalido', 'tamanhoPaginaInvalido'],
});

export const retornosImportados = defineContract({
  id: 'faturamento.retornos',
  context: 'faturamento',
  method: 'GET',
  path: '/api/v1/faturamento-mensal/retornos',
  summary: 'Os últimos 50 arquivos de retorno importados, com os totais de cada um (as linhas: faturamento.retornoLinhas).',
  access: ADMIN,
  response: z.array(retornoBancarioSchema),
  errors: [],
});
