import * as z from 'zod';
import type { Role } from '../access/roles';
import { isValidChaveAcesso } from '../domain/chave-acesso';
import { isValidCnpj, isValidCnpjBase } from '../domain/cnpj';
import { isValidCpf } from '../domain/cpf';
import { parseBrDate } from '../domain/dates';
import { LOTE_MAXIMO_BYTES } from '../domain/consultas';
import { message } from '../messages';
import { cursorPageOf, cursorSchema } from './common';
import { defineContract } from './define';
import { evidenciaSchema } from './evidencia';
import { fateViewSchema as fateSchema } from './fate-view';

export type { FateView } from './fate-view';

/**
 * Look-ups of Fat-e data. The same operations twice:
 * - the **integrator API**, on the mutual-TLS domain (`/api/v1/integracao/...`): the caller presents
 *   its company's ICP-Brasil e-CNPJ, whose CNPJ must be an ATIVO client allowed the service; no token;
 * - the **portal's** routes (bearer token, the roles of spec 3 section 6), which also take the five
 *   CSV batches and answer a CSV.
 * Every look-up that finds data is charged once to the client (functions/consumo); one that finds
 * nothing is recorded for the not-found screens and not charged. A retry that repeats the
 * `Idempotency-Key` header is answered again and charged once. Values are in centavos.
 */

/** Fat-e look-ups of the portal: administrator, client under evaluation, client web user (spec 3, 6). */
const CONSULTA: readonly Role[] = ['sefaz_admin', 'avaliacao', 'cliente_web'];
/** Receivable under evaluation: client users only. */
const RECEBIVEL: readonly Role[] = ['avaliacao', 'cliente_web'];

const chave = z
  .string()
  .trim()
  .refine(isValidChaveAcesso, { error: message('campoInvalido', { field: 'chave de acesso' }) })
  .meta({ title: 'chave de acesso', description: 'Os 44 dígitos da chave de acesso da NF-e.', example: '29261112345678000195550010000012341123456784' });
const cnpj = (title: string) =>
  z.string().trim().toUpperCase().refine(isValidCnpj, { error: message('cnpjInvalido') }).meta({ title, example: '11222333000181' });
const cnpjBase = z.string().trim().toUpperCase().refine(isValidCnpjBase, { error: message('cnpjBaseInvalido') }).meta({ title: 'CNPJ base', example: '11222333' });
const documento = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => isValidCnpj(v) || isValidCpf(v), { error: message('campoInvalido', { field: 'CNPJ/CPF' }) })
  .meta({ title: 'CNPJ/CPF', example: '11222333000181' });
/** AAAA-MM-DD, a real day. */
const dia = (title: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: message('dataInvalida') })
    .refine((v) => parseBrDate(`${v.slice(8, 10)}/${v.slice(5, 7)}/${v.slice(0, 4)}`) !== null, { error: message('dataInvalida') })
    .meta({ title, example: '2026-11-23' });


/**
 * Service 3: the receivable under evaluation with its evidence (docs/recebivel.md): status and
 * cancellation, the recipient's manifestation, the delivery proof, returns, CT-e, each instalment's
 * due state and assignment, the flags with their rules and the key's timeline.
 */
const recebivelSchema = z
  .object({
    chave: z.string(),
    situacao: z.enum(['ATIVA', 'CANCELADA']),
    uf: z.string(),
    emitente: z.object({ cnpj: z.string(), nome: z.string() }),
    destinatario: z.object({ documento: z.string(), nome: z.string() }),
    emissao: z.string(),
    valorNota: z.number().int(),
    valorLiquido: z.number().int(),
    cancelamento: z.object({ data: z.string(), protocolo: z.string() }).nullable(),
    /** Sum of the instalments still to fall due, in centavos: what can still be advanced on. */
    saldoAVencer: z.number().int(),
    consultadoEm: z.string(),
  })
  .extend(evidenciaSchema.shape);

const chaveCompostaBody = z.object({
  cnpjEmissor: cnpj('CNPJ do emissor'),
  cnpjDestinatario: documento,
  dataVencimentoParcela: dia('data de vencimento da parcela'),
  /** Centavos. */
  valorParcela: z.number().int().min(1).max(100_000_000_000).meta({ title: 'valor da parcela', description: 'Em centavos.', example: 150000 }),
  /** Optional: without it, every instalment with that due date and value. */
  numeroParcela: z.string().trim().regex(/^\d{1,3}$/, { error: message('campoInvalido', { field: 'número da parcela' }) }).optional(),
});

const faturamentoBody = z.object({
  cnpjBaseInstFin: cnpjBase,
  cnpjEmitente: cnpj('CNPJ do emitente'),
  dataInicio: dia('data de início'),
  dataFim: dia('data de fim'),
});

const faturamentoSchema = z.object({
  cnpjEmitente: z.string(),
  nomeEmitente: z.string(),
  /** 65 (NFC-e) or 55 (NF-e). */
  modelo: z.string(),
  dataInicio: z.string(),
  dataFim: z.string(),
  quantidade: z.number().int(),
  /** Sum of the documents' value, in centavos (cancelled documents excluded). */
  valorTotal: z.number().int(),
  meses: z.array(z.object({ mes: z.string(), quantidade: z.number().int(), valorTotal: z.number().int() })),
});

/** The carrier look-up's page size: an answer holds at most this many Fat-e (about 0.9 MB). */
export const TRANSPORTADORA_PAGINA = 1000;

const transportadoraSchema = z.object({
  documento: z.string(),
  nome: z.string().nullable(),
  dataInicio: z.string(),
  dataFim: z.string(),
  fates: z.array(fateSchema).meta({ description: `No máximo ${TRANSPORTADORA_PAGINA} Fat-e por página, da mais antiga para a mais nova.` }),
  nextCursor: z
    .string()
    .optional()
    .meta({ description: 'Presente quando há mais Fat-e no período: envie-o em ?cursor= com os mesmos parâmetros para a página seguinte. Ausente na última página.' }),
});

const periodoQuery = z.object({ dataInicio: dia('data de início'), dataFim: dia('data de fim') });
const periodoPaginadoQuery = periodoQuery.extend({ cursor: cursorSchema.optional() });
const PAGINACAO_TRANSPORTADORA =
  ` Responde até ${TRANSPORTADORA_PAGINA} Fat-e por chamada; havendo mais, a resposta traz nextCursor, que o chamador envia em ?cursor= ` +
  '(com o mesmo documento e período) para a página seguinte. O cursor é opaco e vale só para o mesmo cliente e a mesma consulta: ' +
  'o de outro cliente, de outra consulta ou alterado é recusado com 400 cursorInvalido. Cada página respondida com Fat-e é uma ' +
  'requisição do serviço 7 (medida e cobrada como uma consulta); repetir a mesma página com a mesma Idempotency-Key não cobra de novo.';
const tipoFaturamento = z.object({ tipo: z.enum(['0', '1']).transform(Number).pipe(z.union([z.literal(0), z.literal(1)])).meta({ title: 'tipo' }) });

const COMUNS = ['fateNaoEncontrada', 'chaveIdempotenciaInvalida', 'servicoNaoPermitido'] as const;
/** The portal's client user whose client is neither ATIVO nor in evaluation. */
const PORTAL = [...COMUNS, 'clienteSemConsulta'] as const;
const CERTIFICADO = ['certificadoAusente', 'certificadoInvalido', 'raizNaoIcpBrasil', 'certificadoRevogado', 'revogacaoIndisponivel', 'certificadoSemCliente'] as const;

// ---- the integrator API (mutual TLS) ------------------------------------------------------------------

export const fatePorChaveIntegrador = defineContract({
  id: 'consulta.fatePorChaveIntegrador',
  context: 'consulta',
  method: 'GET',
  path: '/api/v1/integracao/fate/{chave}',
  summary: 'Fat-e pela chave de acesso (serviço 1). Chave desconhecida: 404 fateNaoEncontrada, não cobrada; cancelada: 200 com situacao CANCELADA.',
  access: 'public',
  channel: 'mtls',
  idempotent: true,
  params: z.object({ chave }),
  response: fateSchema,
  errors: [...CERTIFICADO, 'cotaExcedida', ...COMUNS],
});

export const chaveCompostaIntegrador = defineContract({
  id: 'consulta.chaveCompostaIntegrador',
  context: 'consulta',
  method: 'POST',
  path: '/api/v1/integracao/fate/chave-composta',
  summary: 'Fat-e pela composição de dados da parcela: emissor, destinatário, vencimento, valor e número (serviço 2).',
  access: 'public',
  channel: 'mtls',
  idempotent: true,
  body: chaveCompostaBody,
  response: z.array(fateSchema),
  errors: [...CERTIFICADO, 'cotaExcedida', ...COMUNS],
});

export const recebivelIntegrador = defineContract({
  id: 'consulta.recebivelIntegrador',
  context: 'consulta',
  method: 'GET',
  path: '/api/v1/integracao/recebivel-avaliacao/{chave}',
  summary: 'Recebível em avaliação: a situação da Fat-e, a manifestação do destinatário, a entrega, devoluções, CT-e, cessões das parcelas, sinais (flags) e linha do tempo (serviço 3).',
  access: 'public',
  channel: 'mtls',
  idempotent: true,
  params: z.object({ chave }),
  response: recebivelSchema,
  errors: [...CERTIFICADO, 'cotaExcedida', ...COMUNS],
});

export const faturamentoIntegrador = defineContract({
  id: 'consulta.faturamentoIntegrador',
  context: 'consulta',
  method: 'POST',
  path: '/api/v1/integracao/faturamento/{tipo}',
  summary:
    'Faturamento do emitente no período (no máximo 1 ano), tipo 0 NFC-e (serviço 4) ou 1 NF-e (serviço 5), para a instituição financeira ' +
    'autorizada pelo cliente (cnpjBaseInstFin). Só é respondido enquanto o emitente mantiver consentimento ativo que nomeie a filial e a ' +
    'instituição (CNPJ base); sem ele: 403 semConsentimento, nada é cobrado. A remoção do consentimento vale a partir da consulta seguinte.',
  access: 'public',
  channel: 'mtls',
  idempotent: true,
  params: tipoFaturamento,
  body: faturamentoBody,
  response: faturamentoSchema,
  errors: [...CERTIFICADO, 'cotaExcedida', ...COMUNS, 'periodoMaximoUmAno', 'dataInicioMaiorDataFim', 'instituicaoNaoAutorizada', 'semConsentimento', 'faturamentoNaoEncontrado'],
});

export const transportadoraIntegrador = defineContract({
  id: 'consulta.transportadoraIntegrador',
  context: 'consulta',
  method: 'GET',
  path: '/api/v1/integracao/transportadora/{documento}',
  summary: 'As Fat-e que nomeiam a transportadora (CNPJ ou CPF), emitidas no período de no máximo 1 ano (serviço 7).' + PAGINACAO_TRANSPORTADORA,
  access: 'public',
  channel: 'mtls',
  idempotent: true,
  params: z.object({ documento }),
  query: periodoPaginadoQuery,
  response: transportadoraSchema,
  errors: [...CERTIFICADO, 'cotaExcedida', ...COMUNS, 'periodoMaximoUmAno', 'dataInicioMaiorDataFim', 'transportadoraSemFate', 'cursorInvalido'],
});

// ---- the same look-ups for the portal (bearer token) --------------------------------------------------

export const fatePorChave = defineContract({
  ...fatePorChaveIntegrador,
  id: 'consulta.fatePorChave',
  path: '/api/v1/fate/{chave}',
  summary: 'Fat-e pela chave de acesso, para o portal (serviço 1, cobrado do cliente do usuário).',
  access: CONSULTA,
  channel: 'web',
  errors: [...PORTAL],
});

export const chaveComposta = defineContract({
  ...chaveCompostaIntegrador,
  id: 'consulta.chaveComposta',
  path: '/api/v1/fate/chave-composta',
  summary: 'Fat-e pela composição de dados da parcela, para o portal (serviço 2).',
  access: CONSULTA,
  channel: 'web',
  errors: [...PORTAL],
});

export const recebivel = defineContract({
  ...recebivelIntegrador,
  id: 'consulta.recebivel',
  path: '/api/v1/recebivel-avaliacao/{chave}',
  summary: 'Recebível em avaliação, para o portal (serviço 3).',
  access: RECEBIVEL,
  channel: 'web',
  errors: [...PORTAL],
});

export const faturamento = defineContract({
  ...faturamentoIntegrador,
  id: 'consulta.faturamento',
  path: '/api/v1/faturamento/{tipo}',
  summary: 'Faturamento do emitente no período, para o portal (serviços 4 e 5), somente com o consentimento ativo do emitente para a instituição.',
  access: CONSULTA,
  channel: 'web',
  errors: [...PORTAL, 'periodoMaximoUmAno', 'dataInicioMaiorDataFim', 'instituicaoNaoAutorizada', 'semConsentimento', 'faturamentoNaoEncontrado'],
});

export const transportadora = defineContract({
  ...transportadoraIntegrador,
  id: 'consulta.transportadora',
  path: '/api/v1/transportadora/{documento}',
  summary: 'As Fat-e da transportadora no período, para o portal (serviço 7).' + PAGINACAO_TRANSPORTADORA,
  access: CONSULTA,
  channel: 'web',
  errors: [...PORTAL, 'periodoMaximoUmAno', 'dataInicioMaiorDataFim', 'transportadoraSemFate', 'cursorInvalido'],
});

// ---- the CSV batches (spec 3, 3.13, 5.4, 7.5) ---------------------------------------------------------

/** The file's lines as the portal read them, header first; the server checks them again. */
const linhas = z
  .array(z.string().max(1000))
  .max(20_000)
  .refine((l) => l.reduce((n, s) => n + s.length + 1, 0) <= LOTE_MAXIMO_BYTES, { error: message('csvGrandeDemais') });
const LOTE_ERROS = ['semArquivo', 'csvVazio', 'csvCabecalhoInvalido', 'csvSeparadorInvalido', 'csvGrandeDemais', 'servicoNaoPermitido', 'clienteSemConsulta', 'chaveIdempotenciaInvalida'] as const;
const csv = z.string();

export const loteFate = defineContract({
  id: 'consulta.loteFate',
  context: 'consulta',
  method: 'POST',
  path: '/api/v1/fatura/lote',
  summary: 'Consulta Fat-e em lote: CSV com a coluna CHNFE, até 50 linhas; responde o CSV retorno-lote-consultar-fatura.csv.',
  access: CONSULTA,
  body: z.object({ listaChNfe: linhas }),
  response: csv,
  produces: 'text/csv; charset=utf-8',
  idempotent: true,
  errors: [...LOTE_ERROS],
});

export const loteChaveComposta = defineContract({
  id: 'consulta.loteChaveComposta',
  context: 'consulta',
  method: 'POST',
  path: '/api/v1/fatura/chave-composta',
  summary:
    'Consulta Fat-e por chave composta em lote: CNPJ_EMISSOR;CNPJ_DESTINATARIO;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA; ' +
    'responde retorno-lote-consultar-fatura-filtro.csv.',
  access: CONSULTA,
  body: z.object({ listaChaveComposta: linhas }),
  response: csv,
  produces: 'text/csv; charset=utf-8',
  idempotent: true,
  errors: [...LOTE_ERROS],
});

export const loteRecebivel = defineContract({
  id: 'consulta.loteRecebivel',
  context: 'consulta',
  method: 'POST',
  path: '/api/v1/acao-financeira/recebivel-avaliacao',
  summary: 'Recebível em avaliação em lote (coluna CHNFE); responde retorno-lote-recebivel-avaliacao.csv.',
  access: RECEBIVEL,
  body: z.object({ listaChNfe: linhas }),
  response: csv,
  produces: 'text/csv; charset=utf-8',
  idempotent: true,
  errors: [...LOTE_ERROS],
});

export const loteFaturamento = defineContract({
  id: 'consulta.loteFaturamento',
  context: 'consulta',
  method: 'POST',
  path: '/api/v1/faturamento/lote/{tipo}',
  summary:
    'Faturamento NFC-e (0) ou NF-e (1) em lote: CNPJ_BASE_INST_FIN;CNPJ_EMIT;DATA_INICIO;DATA_FIM, período de no máximo 1 ano; ' +
    'responde retorno-lote-consultar-faturamentob2c.csv ou -b2b.csv.',
  access: CONSULTA,
  params: tipoFaturamento,
  body: z.object({ lista: linhas }),
  response: csv,
  produces: 'text/csv; charset=utf-8',
  idempotent: true,
  errors: [...LOTE_ERROS, 'csvLinhaPeriodo'],
});

// ---- the administrator's free look-up and the carrier report (spec 3, 2.19, 2.20, 7.11) ---------------

const ADMIN: readonly Role[] = ['sefaz_admin'];

export const consultaLivre = defineContract({
  id: 'consulta.consultaLivre',
  context: 'consulta',
  method: 'GET',
  path: '/api/v1/consulta/fate/{tipo}/{chave}',
  summary: 'Consulta livre (não cobrada) do administrador: o documento de uma chave de acesso, tipo 1 NF-e ou 2 MDF-e.',
  access: ADMIN,
  params: z.object({
    tipo: z.enum(['1', '2']).meta({ title: 'tipo' }),
    chave: z.string().regex(/^\d{44}$/, { error: message('campoInvalido', { field: 'chave de acesso' }) }).meta({ title: 'chave de acesso' }),
  }),
  response: fateSchema.extend({ evidencia: evidenciaSchema.meta({ description: 'A evidência do recebível (docs/recebivel.md).' }) }),
  errors: ['fateNaoEncontrada'],
});

export const transportadores = defineContract({
  id: 'consulta.transportadores',
  context: 'consulta',
  method: 'GET',
  path: '/api/v1/consulta/transportadoras',
  summary: 'As transportadoras nomeadas pelas Fat-e carregadas, por nome, uma página por chamada (nome: parte do nome, sem acentos).',
  access: ADMIN,
  query: z.object({
    nome: z.string().trim().max(100).optional().meta({ title: 'nome' }),
    cursor: cursorSchema.optional(),
  }),
  response: cursorPageOf(z.object({ documento: z.string(), nome: z.string() })),
  errors: ['cursorInvalido'],
});

/** MM/AAAA, as the month pickers send it. */
const mesBr = (title: string) =>
  z
    .string()
    .regex(/^(0[1-9]|1[0-2])\/\d{4}$/, { error: message('campoInvalido', { field: title }) })
    .meta({ title, description: 'MM/AAAA', example: '11/2026' });

export const qtdFateTransportadora = defineContract({
  id: 'consulta.qtdFateTransportadora',
  context: 'consulta',
  method: 'POST',
  path: '/api/v1/consulta/qtd-fate-transportadora',
  summary: 'Quantidade de Fat-e por transportadora e dia de recebimento, com o total de cada transportadora e o total geral, dos meses pedidos.',
  access: ADMIN,
  body: z.object({
    cnpjTransportadora: z.string().trim().toUpperCase().max(14).optional(),
    razaoSocialTransportadora: z.string().trim().max(100).optional(),
    dataFaturaIni: mesBr('mês inicial'),
    dataFaturaFim: mesBr('mês final'),
    cursor: cursorSchema.optional(),
    perPage: z.union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)]).default(10),
  }),
  response: z.object({
    linhas: z.array(z.object({ cnpj: z.string(), nome: z.string(), dhRecbto: z.string(), qtdFate: z.number().int(), total: z.number().int() })),
    nextCursor: z.string().optional().meta({ description: 'Presente quando há mais linhas: envie-o como cursor, com os mesmos filtros.' }),
    /** From the counters kept at ingestion; absent while a filter's total is being computed (situacaoTotalGeral PROCESSANDO). */
    totalGeral: z.number().int().optional().meta({ description: 'Total geral do período; ausente enquanto o total do filtro está sendo calculado.', example: 1520 }),
    /**
     * CONCLUIDO: `totalGeral` is there. PROCESSANDO: a filter matching many carriers has its total computed
     * by a job (functions/consulta/total-transportadoras.ts); ask again with the same filters.
     */
    situacaoTotalGeral: z.enum(['CONCLUIDO', 'PROCESSANDO']).meta({
      description: 'CONCLUIDO: o total geral está em totalGeral. PROCESSANDO: o total do filtro está sendo calculado; repita a consulta com os mesmos filtros em alguns segundos.',
      example: 'CONCLUIDO',
    }),
    /** When a filter's total was computed by its job (a total is answered for 10 minutes after it). */
    totalGeralCalculadoEm: z.string().optional().meta({ description: 'Quando o total geral do filtro foi calculado (ISO-8601, UTC); ausente quando calculado nesta consulta.' }),
  }),
  errors: ['dataInicioMaiorDataFim', 'periodoMaximoUmAno', 'cursorInvalido'],
});
