import * as z from 'zod';
import { isBusinessMonth, parseBrDate } from '../domain/dates';
import { STATUS_NAO_ENCONTRADA } from '../domain/consumo';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, DATA_BR_META, decimalInteger, idClienteSchema, MES_META, opcionalVazio, ufSchema } from './common';
import { defineContract } from './define';

/**
 * Usage metering's screens: consumption by client, by UF, the not-found look-ups and the client's
 * consumption monitoring (functions/consumo). A client user sees only its own client and a Sefaz
 * manager only its own UF (checked in the service: 403 clienteNaoPermitido / acessoNegado).
 */

const ADMIN_CLIENTE = ['sefaz_admin', 'cliente'] as const;
const ADMIN_GESTOR = ['sefaz_admin', 'sefaz_gestor'] as const;
const MONITORAMENTO = ['sefaz_admin', 'cliente_monitoramento'] as const;

const idCliente = idClienteSchema.meta({ example: 'c0a8012e-5b7d-4c1e-9f3a-2d6e8b4f7a19' });

const opcional = opcionalVazio;

const idModuloServico = decimalInteger('Serviço').pipe(z.number().int().min(1).max(100_000).meta({ title: 'Serviço' }));

/** 'YYYY-MM', a business month (the current month in Bahia when left out). */
const mes = z
  .string()
  .trim()
  .refine(isBusinessMonth, { error: message('campoData', { field: 'mês' }) })
  .meta({ title: 'mês', ...MES_META });

const dataFiltro = (obrigatoria: 'dataInicioObrigatoria' | 'dataFimObrigatoria') =>
  z
    .string({ error: message(obrigatoria) })
    .trim()
    .min(1, { error: message(obrigatoria) })
    .transform((value, ctx) => {
      const day = parseBrDate(value);
      if (!day) {
        ctx.addIssue({ code: 'custom', message: message('dataInvalida') });
        return z.NEVER;
      }
      return day;
    })
    .meta(DATA_BR_META);

// ---- consumption by client ------------------------------------------------------------------------

const porServicoSchema = z.object({ idModuloServico: z.number().int(), servico: z.string(), requisicoes: z.number().int() });
const porServicoUfSchema = porServicoSchema.extend({ uf: z.string() });

export const consumoClienteSchema = z.object({
  cliente: z.object({
    id: z.string(),
    razaoSocial: z.string(),
    cnpj: z.string(),
    tipo: z.string(),
    situacao: z.string(),
    createdAt: z.string(),
  }),
  /** Requests of the month (of the service asked for, when one was). */
  total: z.number().int(),
  porServico: z.array(porServicoSchema),
  /** By service and UF: answered for one client (asked for, or a client user's own); the list of every client leaves it out (its row asks for it when opened). */
  porServicoUf: z.array(porServicoUfSchema).optional(),
});

export const consumoPorCliente = defineContract({
  id: 'consumo.clientes',
  context: 'consumo',
  method: 'GET',
  path: '/api/v1/consumo/clientes',
  summary:
    'Consumo do mês (atual, se não informado) por cliente: requisições cobradas por serviço e por serviço e UF de origem. ' +
    'Sem cliente, os clientes com consumo no mês em ordem de razão social, uma página por vez (nextCursor → cursor), cada um com o total e o resumo por serviço ' +
    '(o resumo por serviço e UF vem ao pedir o cliente); um usuário cliente vê somente o próprio cliente.',
  access: ADMIN_CLIENTE,
  query: z.object({ idCliente: opcional(idCliente), idModuloServico: opcional(idModuloServico), mes: opcional(mes), ...cursorQuery(10, [10, 25, 50]) }),
  response: z.object({ mes: z.string(), clientes: z.array(consumoClienteSchema), nextCursor: z.string().optional().meta({ description: 'Presente quando há uma próxima página: envie-o como cursor.' }) }),
  errors: ['clienteNaoPermitido', 'recursoNaoEncontrado', 'cursorInvalido', 'tamanhoPaginaInvalido'],
});

/**
 * A report job (the consumption report, an invoice's detail ZIP): its real progress and, once
 * CONCLUIDO, a download URL valid for 5 minutes. `total` is the month's charged requests by the
 * counters when the job started (the month in progress may add some while it runs).
 */
export const relatorioJobSchema = z.object({
  id: z.string(),
  estado: z.enum(['PROCESSANDO', 'CONCLUIDO', 'FALHA']),
  linhas: z.number().int(),
  total: z.number().int(),
  nomeArquivo: z.string(),
  url: z.string().optional(),
});
export type RelatorioJob = z.infer<typeof relatorioJobSchema>;

const idRelatorio = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,120}$/, { error: message('campoInvalido', { field: 'relatório' }) })
  .meta({ title: 'relatório' });

export const relatorioJob = defineContract({
  id: 'consumo.relatorioJob',
  context: 'consumo',
  method: 'GET',
  path: '/api/v1/consumo/relatorios/{idRelatorio}',
  summary:
    'A situação de um relatório em produção (relatório de consumo ou detalhamento de fatura): linhas escritas, total previsto e, ' +
    'quando CONCLUIDO, a URL de download válida por 5 minutos. Um usuário cliente vê somente os relatórios do próprio cliente.',
  access: ADMIN_CLIENTE,
  params: z.object({ idRelatorio }),
  response: relatorioJobSchema,
  errors: ['clienteNaoPermitido', 'recursoNaoEncontrado'],
});

export const relatorioConsumo = defineContract({
  id: 'consumo.relatorio',
  context: 'consumo',
  method: 'GET',
  path: '/api/v1/consumo/clientes/{idCliente}/relatorio',
  summary:
    'Relatório de consumo do cliente no mês (atual, se não informado), em CSV (separador ";", UTF-8 com BOM): ' +
    'uma linha por requisição cobrada e os totais por serviço e UF. Produzido em segundo plano: responde 202 com o relatório em produção, ' +
    'cuja situação e URL de download se consultam em /api/v1/consumo/relatorios/{idRelatorio}. Pedido uma vez: o mesmo pedido (cliente, mês, serviço) ' +
    'responde o mesmo relatório enquanto está em produção ou recente (10 minutos no mês corrente; enquanto guardado, em mês encerrado); ' +
    'cada cliente tem no máximo 3 relatórios em produção ao mesmo tempo (429 relatoriosEmAndamento).',
  access: ADMIN_CLIENTE,
  params: z.object({ idCliente }),
  query: z.object({ idModuloServico: opcional(idModuloServico), mes: opcional(mes) }),
  status: 202,
  response: relatorioJobSchema,
  errors: ['clienteNaoPermitido', 'recursoNaoEncontrado', 'relatoriosEmAndamento'],
});

// ---- consumption by UF ----------------------------------------------------------------------------

export const consumoPorUf = defineContract({
  id: 'consumo.uf',
  context: 'consumo',
  method: 'GET',
  path: '/api/v1/consumo/ufs',
  summary:
    'Consumo do mês (atual, se não informado) por UF de origem e serviço, ambos obrigatórios. Um gestor consulta somente a própria UF.',
  access: ADMIN_GESTOR,
  query: z.object({
    uf: z.string().meta({ title: 'UF de Origem', example: 'BA' }).pipe(ufSchema),
    idModuloServico: decimalInteger('Serviço').meta({ example: '1' }).pipe(z.number().int().min(1).max(100_000).meta({ title: 'Serviço' })),
    mes: opcional(mes),
  }),
  response: z.object({
    mes: z.string(),
    itens: z.array(z.object({ uf: z.string(), idModuloServico: z.number().int(), servico: z.string(), requisicoes: z.number().int() })),
  }),
  errors: ['acessoNegado'],
});

// ---- not-found look-ups ---------------------------------------------------------------------------

export const naoEncontradaSchema = z.object({
  id: z.string(),
  uf: z.string(),
  /** ISO instant of the look-up. */
  data: z.string(),
  chnfe: z.string(),
  idModuloServico: z.number().int(),
  servico: z.string(),
  status: z.string(),
  statusDescricao: z.string(),
  cnpj: z.string(),
  razao_social: z.string(),
});

export const statusNaoEncontradas = defineContract({
  id: 'consumo.naoEncontradasStatus',
  context: 'consumo',
  method: 'GET',
  path: '/api/v1/consumo/nao-encontradas/status',
  summary: 'As situações com que uma consulta sem resultado é registrada (filtro da consulta de faturas não encontradas).',
  access: ADMIN_GESTOR,
  response: z.array(z.object({ value: z.string(), label: z.string() })),
  errors: [],
});

export const naoEncontradas = defineContract({
  id: 'consumo.naoEncontradas',
  context: 'consumo',
  method: 'GET',
  path: '/api/v1/consumo/nao-encontradas',
  summary:
    'Consultas sem resultado (faturas não encontradas) de uma UF no período (DD/MM/AAAA, no máximo 90 dias), ' +
    'opcionalmente pela chave de acesso e situação, da mais recente à mais antiga, uma página por vez (nextCursor → cursor). Um gestor consulta somente a própria UF.',
  access: ADMIN_GESTOR,
  query: z.object({
    uf: z.string().meta({ title: 'UF', example: 'BA' }).pipe(ufSchema),
    dataInicio: dataFiltro('dataInicioObrigatoria'),
    dataFim: dataFiltro('dataFimObrigatoria'),
    chnfe: opcional(
      z
        .string()
        .trim()
        .regex(/^\d{1,44}$/, { error: message('campoInvalido', { field: 'Chave de acesso' }) })
        .meta({ title: 'Chave de acesso' }),
    ),
    status: opcional(z.enum(STATUS_NAO_ENCONTRADA).meta({ title: 'Status' })),
    // The screen's own default of 15 (spec 2, 2.8 and 9) besides the lists' sizes.
    ...cursorQuery(15, [10, 15, 25, 50, 100]),
  }),
  response: cursorPageOf(naoEncontradaSchema),
  errors: ['dataInicioObrigatoria', 'dataFimObrigatoria', 'dataInicioMaiorDataFim', 'faixaDataInvalida', 'acessoNegado', 'cursorInvalido'],
});

// ---- consumption monitoring -----------------------------------------------------------------------

export const monitoramentoConsumo = defineContract({
  id: 'consumo.monitoramento',
  context: 'consumo',
  method: 'GET',
  path: '/api/v1/consumo/monitoramento',
  summary:
    'Requisições cobradas (sucesso) e consultas sem resultado (erro) de um cliente, por mês (de mesInicio a mesFim, ' +
    'no máximo 12; os últimos 12 meses até o atual, se não informados) ou por dia de um mês. ' +
    'Um usuário cliente_monitoramento vê somente o próprio cliente.',
  access: MONITORAMENTO,
  query: z.object({
    idCliente: opcional(idCliente),
    modo: z.enum(['mes', 'dia']).default('mes').meta({ title: 'modo' }),
    mesInicio: opcional(mes.meta({ title: 'Mês inicial' })),
    mesFim: opcional(mes.meta({ title: 'Mês final' })),
    mes: opcional(mes),
  }),
  response: z.object({
    cliente: z.object({ id: z.string(), razaoSocial: z.string() }),
    /** 'YYYY-MM' months or 'YYYY-MM-DD' days. */
    pontos: z.array(z.string()),
    sucesso: z.array(z.number().int()),
    erro: z.array(z.number().int()),
  }),
  errors: ['clientePlacObrigatorio', 'clienteNaoPermitido', 'recursoNaoEncontrado', 'dataInicioMaiorDataFim', 'periodoMaximoDozeMeses'],
});
