import * as z from 'zod';
import { isBusinessMonth } from '../domain/dates';
import { MAX_NOME_GRUPO_RATEIO, SITUACOES_GRUPO_RATEIO, TIPOS_BENEFICIADO } from '../domain/rateio';
import { message } from '../messages';
import { cursorQuery, isoDateTime, MES_ENCERRADO_EXEMPLO, MES_META, MES_SEGUINTE_EXEMPLO } from './common';
import { defineContract } from './define';

/**
 * Revenue sharing (rateio) and its transfers (repasse): spec 3, sections 2.3-2.6, 3.6-3.10, 4.2,
 * 5.2, 7.3, 7.4; issue 15. This module: the sharing groups (grupo de rateio) with their beneficiaries,
 * the participants, and the banks of the beneficiaries' accounts. sefaz_admin only (spec 3, 6).
 *
 * Group validity is in business months 'YYYY-MM'; a beneficiary's validity (its agreement period) in
 * days 'YYYY-MM-DD'. Percentages are whole numbers 1-100. Create and update answer the spec's array
 * whose first item true means success, with the message as the second item.
 */

const ADMIN = ['sefaz_admin'] as const;

// ---- banks ------------------------------------------------------------------------------------------

/** Bank code (COMPE): 3 digits. */
export const codigoBancoSchema = z
  .string({ error: message('campoObrigatorio', { field: 'Código' }) })
  .trim()
  .regex(/^\d{3}$/, { error: message('bancoCodigoInvalido') })
  .meta({ title: 'Código' });

/**
 * ISPB: 8 digits, as the Central Bank publishes it (the spec's mask says 10; docs/repasse.md).
 */
export const ispbSchema = z
  .string({ error: message('campoObrigatorio', { field: 'ISPB' }) })
  .trim()
  .regex(/^\d{8}$/, { error: message('bancoIspbInvalido') })
  .meta({ title: 'ISPB' });

export const nomeBancoSchema = z
  .string({ error: message('campoObrigatorio', { field: 'Nome' }) })
  .trim()
  .min(1, { error: message('campoObrigatorio', { field: 'Nome' }) })
  .max(200)
  .meta({ title: 'Nome' });

export const bancoSchema = z.object({ codigo: z.string(), nome: z.string(), ispb: z.string() });

const bancoBody = z.object({ codigo: codigoBancoSchema, nome: nomeBancoSchema, ispb: ispbSchema });

/** The answer of a bank save: its name (spec 3, 7.4) and the toast's text. */
const bancoSalvo = z.object({ nome: z.string(), message: z.string() });

export const listBancos = defineContract({
  id: 'rateio.bancos',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/beneficiado/bancos',
  summary: 'Os bancos, pelo código.',
  access: ADMIN,
  response: z.array(bancoSchema),
  errors: [],
});

export const searchBancos = defineContract({
  id: 'rateio.bancosBusca',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/beneficiado/bancos/{search}',
  summary: 'Os bancos cujo código começa pelo termo ou cujo nome o contém (2 caracteres ou menos: todos).',
  access: ADMIN,
  params: z.object({ search: z.string().trim().max(100) }),
  response: z.array(bancoSchema),
  errors: [],
});

export const createBanco = defineContract({
  id: 'rateio.bancoCreate',
  context: 'rateio',
  method: 'POST',
  path: '/api/v1/beneficiado/bancos',
  summary: 'Cadastra um banco (código de 3 dígitos e ISPB de 8, únicos).',
  access: ADMIN,
  body: bancoBody,
  response: bancoSalvo,
  status: 201,
  errors: ['bancoCodigoDuplicado', 'bancoIspbDuplicado'],
});

export const updateBanco = defineContract({
  id: 'rateio.bancoUpdate',
  context: 'rateio',
  method: 'PUT',
  path: '/api/v1/beneficiado/bancos',
  summary: 'Altera o nome e o ISPB de um banco, pelo código.',
  access: ADMIN,
  body: bancoBody,
  response: bancoSalvo,
  errors: ['bancoIspbDuplicado', 'recursoNaoEncontrado'],
});

// ---- sharing groups ---------------------------------------------------------------------------------

const id = z.string().trim().min(1).max(64);

const mes = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? message('campoObrigatorio', { field }) : message('campoInvalido', { field })) })
    .refine(isBusinessMonth, { error: message('campoInvalido', { field }) })
    .meta({ title: field, ...MES_META });

const percentual = (field: string) =>
  z.number({ error: message('percentualInvalido') }).int({ error: message('percentualInvalido') }).min(1, { error: message('percentualInvalido') }).max(100, { error: message('percentualInvalido') }).meta({ title: field });

const nomeGrupo = z
  .string({ error: message('campoObrigatorio', { field: 'Nome do Grupo' }) })
  .trim()
  .min(1, { error: message('campoObrigatorio', { field: 'Nome do Grupo' }) })
  .max(MAX_NOME_GRUPO_RATEIO)
  .meta({ title: 'Nome do Grupo' });

const dv = z
  .string({ error: message('digitoVerificadorInvalido') })
  .trim()
  .regex(/^[0-9Xx]$/, { error: message('digitoVerificadorInvalido') });

/** A beneficiary's bank account (spec 3, 3.7): the bank's code, agency and account with their check digits. */
export const contaSchema = z.object({
  banco: codigoBancoSchema,
  agencia: z.string({ error: message('campoObrigatorio', { field: 'Agência' }) }).trim().regex(/^\d{1,5}$/, { error: message('campoInvalido', { field: 'Agência' }) }),
  dvAgencia: dv,
  conta: z.string({ error: message('campoObrigatorio', { field: 'Conta' }) }).trim().regex(/^\d{1,12}$/, { error: message('campoInvalido', { field: 'Conta' }) }),
  dvConta: dv,
  contaAtiva: z.boolean().default(true),
});

const tipo = z.enum(TIPOS_BENEFICIADO, { error: message('participanteTipoObrigatorio') });

const audit = { createdBy: z.string().nullable(), updatedBy: z.string().nullable(), createdAt: isoDateTime, updatedAt: isoDateTime };

export const beneficiadoSchema = z.object({
  idBeneficiado: z.string(),
  idParticipante: z.string(),
  nomeParticipante: z.string(),
  tipo: z.enum(TIPOS_BENEFICIADO),
  /** 0 SEFAZ, 1 Participante, 2 Resíduo Distribuição (spec 3, 3.7). */
  tipoCodigo: z.number().int(),
  /** The participant is a Sefaz. */
  sefaz: z.boolean(),
  /** A Sefaz participant's UF. */
  uf: z.string().nullable(),
  /** SEFAZ beneficiaries show the group's SEFAZ percentage. */
  percentualRateio: z.number().int(),
  vigenciaInicial: z.string(),
  vigenciaFinal: z.string().nullable(),
  /** SEFAZ beneficiaries: the cooperation agreement; others: null ('Não se aplica'). */
  convenioAtivo: z.boolean().nullable(),
  conta: contaSchema.extend({ contaAtiva: z.boolean(), nomeBanco: z.string().nullable() }).nullable(),
});

export const grupoRateioResumoSchema = z.object({
  id: z.string(),
  descricao: z.string(),
  dtVigenciaInicial: z.string(),
  dtVigenciaFinal: z.string().nullable(),
  situacao: z.enum(SITUACOES_GRUPO_RATEIO),
});

export const grupoRateioSchema = grupoRateioResumoSchema.extend({
  percentualSefaz: z.number().int(),
  /** The timeline's revision: an update sends it back so that a stale form is refused. */
  revisao: z.number().int(),
  /** The business month the situations were computed for. */
  mesAtual: z.string(),
  beneficiados: z.array(beneficiadoSchema),
  ...audit,
});

export const participanteSchema = z.object({ id: z.string(), nome: z.string(), sefaz: z.boolean(), uf: z.string().nullable() });

export const historicoSchema = z.object({ em: isoDateTime, por: z.string(), acao: z.string(), detalhe: z.string() });

const resultado = z.tuple([z.boolean(), z.string()]);

const errosGrupo = [
  'grupoRateioEmElaboracao',
  'residuoObrigatorio',
  'residuoUnico',
  'percentualNaoTotaliza',
  'percentualInvalido',
  'minimoSefaz',
  'minimoSefazAtivo',
  'participanteExistente',
  'participanteNomeObrigatorio',
  'participanteNovoSefaz',
  'participanteDesconhecido',
  'bancoDesconhecido',
  'digitoVerificadorInvalido',
  'vigenciaRateioInvalida',
  'grupoRateioAlterado',
] as const;

export const listGrupos = defineContract({
  id: 'rateio.grupos',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/grupo-rateio',
  summary: 'Os grupos de rateio (o em elaboração, o vigente e os desativados), do mais novo ao mais antigo.',
  access: ADMIN,
  response: z.array(grupoRateioResumoSchema),
  errors: [],
});

export const getGrupo = defineContract({
  id: 'rateio.grupo',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/grupo-rateio/beneficiados/{id}',
  summary: 'Um grupo de rateio com seus beneficiados.',
  access: ADMIN,
  params: z.object({ id }),
  response: grupoRateioSchema,
  errors: ['recursoNaoEncontrado'],
});

export const getVigente = defineContract({
  id: 'rateio.vigente',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/grupo-rateio/beneficiados/vigente',
  summary: 'O grupo de rateio vigente com seus beneficiados.',
  access: ADMIN,
  response: grupoRateioSchema,
  errors: ['semGrupoRateioVigente'],
});

export const verificarElaboracao = defineContract({
  id: 'rateio.verificarElaboracao',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/grupo-rateio/verificar/elaboracao',
  summary: 'Se existe grupo de rateio em elaboração: primeiro item true.',
  access: ADMIN,
  response: z.tuple([z.boolean()]),
  errors: [],
});

export const verificarDesativado = defineContract({
  id: 'rateio.verificarDesativado',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/grupo-rateio/verificar/desativado/{id}',
  summary: 'Se o grupo de rateio está desativado: primeiro item true.',
  access: ADMIN,
  params: z.object({ id }),
  response: z.tuple([z.boolean()]),
  errors: ['recursoNaoEncontrado'],
});

export const createGrupo = defineContract({
  id: 'rateio.grupoCreate',
  context: 'rateio',
  method: 'POST',
  path: '/api/v1/grupo-rateio',
  summary: 'Cadastra um grupo de rateio em elaboração; o vigente termina no mês informado e o novo começa no seguinte.',
  access: ADMIN,
  body: z.object({
    descricao: nomeGrupo,
    vigenciaInicial: mes('Vigência inicial').meta(MES_SEGUINTE_EXEMPLO),
    /** The current group's end month (required when a current group exists). */
    vigenciaFinalVigente: mes('Vigência final').nullable(),
    percentualSefaz: percentual('Percentual SEFAZ'),
    beneficiados: z
      .array(
        z.object({
          idParticipante: id.nullable(),
          nomeParticipante: z.string().trim().max(200),
          percentualRateio: percentual('Percentual'),
          tipo,
          convenioAtivo: z.boolean().optional(),
          conta: contaSchema.nullable().optional(),
        }),
      )
      .max(100),
  }),
  response: resultado,
  status: 201,
  errors: [...errosGrupo],
});

export const updateGrupo = defineContract({
  id: 'rateio.grupoUpdate',
  context: 'rateio',
  method: 'PUT',
  path: '/api/v1/grupo-rateio',
  summary: 'Altera um grupo de rateio: o em elaboração por inteiro; o vigente só no nome, nas contas e nos convênios.',
  access: ADMIN,
  body: z.object({
    grupoRateio: z.object({
      idGrupoRateio: id,
      descricao: nomeGrupo,
      vigenciaInicial: mes('Vigência inicial').meta(MES_SEGUINTE_EXEMPLO),
      percentualSefaz: percentual('Percentual SEFAZ'),
      revisao: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    }),
    beneficiados: z
      .array(
        z.object({
          beneficiadoId: id.nullable().optional(),
          idParticipante: id.nullable(),
          nomeParticipante: z.string().trim().max(200),
          percentualRateio: percentual('Percentual'),
          tipo,
          convenioAtivo: z.boolean().optional(),
          conta: contaSchema.nullable().optional(),
          /** An existing beneficiary removed on the screen (spec 3, 3.9). */
          excluir: z.boolean().optional(),
        }),
      )
      .max(100),
  }),
  response: resultado,
  errors: [...errosGrupo, 'grupoRateioImutavel', 'recursoNaoEncontrado'],
});

export const removeElaboracao = defineContract({
  id: 'rateio.removeElaboracao',
  context: 'rateio',
  method: 'DELETE',
  path: '/api/v1/grupo-rateio/elaboracao',
  summary: 'Remove o grupo de rateio em elaboração; o vigente volta a não ter fim.',
  access: ADMIN,
  response: resultado,
  errors: ['semGrupoRateioElaboracao', 'grupoRateioAlterado'],
});

export const historico = defineContract({
  id: 'rateio.historico',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/beneficiado/historico/{id}',
  summary: 'O histórico de alterações de um grupo de rateio e de seus beneficiados, do mais recente ao mais antigo.',
  access: ADMIN,
  params: z.object({ id }),
  response: z.array(historicoSchema),
  errors: ['recursoNaoEncontrado'],
});

export const listParticipantes = defineContract({
  id: 'rateio.participantes',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/participante',
  summary: 'Os participantes do rateio (as Sefaz e os demais), pelo nome.',
  access: ADMIN,
  response: z.array(participanteSchema),
  errors: [],
});

// ---- repasse ----------------------------------------------------------------------------------------

const mesQuery = z.object({ mes: mes('Mês') });
/** The month a distribution is made of: an ended one (repasseMesInvalido otherwise). */
const mesEncerradoBody = z.object({ mes: mes('Mês').meta(MES_ENCERRADO_EXEMPLO) });

const execucaoRepasse = z.object({ execucaoId: z.string(), situacao: z.string() });

export const simularRepasse = defineContract({
  id: 'rateio.repasseSimular',
  context: 'rateio',
  method: 'POST',
  path: '/api/v1/repasse/simulacao',
  summary: 'Gera a simulação do repasse de um mês encerrado (só enquanto o relatório definitivo não existe).',
  access: ADMIN,
  body: mesEncerradoBody,
  response: execucaoRepasse,
  status: 202,
  errors: ['repasseMesInvalido', 'repasseDefinitivoJaGerado', 'repasseEmAndamento'],
});

export const gerarRepasse = defineContract({
  id: 'rateio.repasseDefinitivo',
  context: 'rateio',
  method: 'POST',
  path: '/api/v1/repasse/definitivo',
  summary: 'Gera o repasse definitivo de um mês encerrado: uma vez por mês.',
  access: ADMIN,
  body: mesEncerradoBody,
  response: execucaoRepasse,
  status: 202,
  errors: ['repasseMesInvalido', 'repasseDefinitivoJaGerado', 'repasseEmAndamento'],
});

export const definitivoGerado = defineContract({
  id: 'rateio.repasseDefinitivoGerado',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/repasse/definitivo',
  summary: 'Se o relatório definitivo do repasse do mês já foi gerado.',
  access: ADMIN,
  query: mesQuery,
  response: z.boolean(),
  errors: [],
});

const situacaoRepasseSchema = z
  .object({ execucaoId: z.string(), situacao: z.string(), iniciadoEm: isoDateTime, iniciadoPor: z.string(), concluidoEm: isoDateTime.nullable(), erro: z.string().nullable() })
  .nullable();

export const situacaoRepasse = defineContract({
  id: 'rateio.repasseSituacao',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/repasse/situacao',
  summary: 'A simulação e o repasse definitivo do mês: situação, quem e quando.',
  access: ADMIN,
  query: mesQuery,
  response: z.object({ simulacao: situacaoRepasseSchema, definitivo: situacaoRepasseSchema }),
  errors: [],
});

/** One run of the month's history (issue 28 item 2): totals in centavos, null until the run ends. */
export const execucaoRepasseSchema = z.object({
  execucaoId: z.string(),
  tipo: z.enum(['SIMULACAO', 'DEFINITIVO']),
  situacao: z.enum(['EM_ANDAMENTO', 'CONCLUIDO', 'FALHA']),
  iniciadoEm: isoDateTime,
  iniciadoPor: z.string(),
  concluidoEm: isoDateTime.nullable(),
  erro: z.string().nullable(),
  faturas: z.number().int().nullable(),
  total: z.number().int().nullable(),
  ordens: z.number().int().nullable(),
});

export const historicoRepasse = defineContract({
  id: 'rateio.repasseHistorico',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/repasse/execucoes',
  summary: 'As execuções do repasse do mês (simulações e definitivo), da mais recente: tipo, quem, quando, situação e totais.',
  access: ADMIN,
  query: mesQuery,
  response: z.array(execucaoRepasseSchema),
  errors: [],
});

const csvRoute = (id: string, path: string, summary: string) =>
  defineContract({
    id,
    context: 'rateio',
    method: 'GET',
    path,
    summary,
    access: ADMIN,
    query: mesQuery,
    response: z.string(),
    produces: 'text/csv; charset=utf-8',
    errors: [],
  });

export const previsaoCsv = csvRoute('rateio.previsaoCsv', '/api/v1/repasse/previsao.csv', 'previsao-repasse.csv: a divisão que as faturas pagas do mês teriam agora (só o cabeçalho quando não há).');
export const simulacaoCsv = csvRoute('rateio.simulacaoCsv', '/api/v1/repasse/simulacao.csv', 'simulacao-repasse.csv: os totais por UF e beneficiado da última simulação do mês (só o cabeçalho quando não há).');
export const definitivoCsv = csvRoute('rateio.definitivoCsv', '/api/v1/repasse/definitivo.csv', 'definitivo-repasse.csv: os totais por UF e beneficiado do repasse definitivo do mês concluído (só o cabeçalho quando não há).');
export const ordensCsv = csvRoute('rateio.ordensCsv', '/api/v1/repasse/ordens.csv', 'ordens-repasse.csv: as ordens de transferência do repasse definitivo, por conta de beneficiado.');

// ---- service payments (spec 2, 2.11 and 2.12) -------------------------------------------------------

const PAGAMENTO = ['sefaz_admin', 'sefaz_gestor', 'cliente'] as const;

const SITUACOES_REPASSE = ['EM_PROCESSAMENTO', 'PREVIA_ANALISADA', 'DISTRIBUIDO', 'FALHA'] as const;

export const pagamentoLinhaSchema = z.object({
  consumoId: z.string(),
  /** Origin UF; '' for an invoice without lines (the subscription alone). */
  uf: z.string(),
  mesReferencia: z.string(),
  razaoSocial: z.string(),
  cnpj: z.string(),
  valorServicos: z.number().int(),
  valorAssinatura: z.number().int(),
  valorAcrescimo: z.number().int(),
  valorTotal: z.number().int(),
  totalRequisicoes: z.number().int(),
  situacao: z.enum(['A', 'P']),
  situacaoRateio: z.enum(SITUACOES_REPASSE).nullable(),
  /** The status text: the repasse status's when present (spec 2, 4). */
  situacaoTexto: z.string(),
  dataRetornoBanco: z.string().nullable(),
});

export const consultarPagamentos = defineContract({
  id: 'rateio.pagamentos',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/pagamento-servico',
  summary:
    'Pagamentos de serviços por fatura e UF de origem, uma página por vez (nextCursor → cursor), com a situação do repasse; o total bruto por UF; o total geral para o administrador e para o cliente (o das suas faturas); ' +
    'o que cada beneficiado recebe das faturas pagas listadas, pela mesma regra dos arquivos de previsão, simulação e definitivo (o acréscimo não é repartido): os totais SEFAZ para o administrador e o gestor (a sua UF), Total FATEC e os demais beneficiados só para o administrador.',
  access: PAGAMENTO,
  query: z.object({
    uf: z.string().trim().max(5).optional(),
    de: mes('Mês inicial').meta(MES_ENCERRADO_EXEMPLO),
    ate: mes('Mês final').meta(MES_ENCERRADO_EXEMPLO),
    idCliente: z.string().trim().max(64).optional(),
    situacao: z.enum(['A', 'P']).optional(),
    ...cursorQuery(10, [10, 25, 50, 100]),
  }),
  response: z.object({
    /** One page of rows: months newest first, then UF, then client name. */
    linhas: z.array(pagamentoLinhaSchema),
    nextCursor: z.string().optional().meta({ description: 'Presente quando há uma próxima página de linhas: envie-o como cursor (os totais são sempre os do período inteiro).' }),
    /** The gross per UF: services, subscription and surcharge of the listed rows. */
    totaisUf: z.array(z.object({ uf: z.string(), total: z.number().int() })),
    /** What each Sefaz receives from the listed paid invoices (null for a client). */
    totaisSefaz: z.array(z.object({ uf: z.string(), nome: z.string(), total: z.number().int() })).nullable(),
    /** What each other beneficiary (Participante, Resíduo) receives (the administrator only). */
    beneficiados: z.array(z.object({ nome: z.string(), tipo: z.enum(['SEFAZ', 'PARTICIPANTE', 'RESIDUO']), total: z.number().int() })).nullable(),
    /** The non-SEFAZ shares together (the administrator only). */
    totalFatec: z.number().int().nullable(),
    /** Every share together: Total FATEC plus the SEFAZ totals (the administrator only). */
    totalRepassado: z.number().int().nullable(),
    totalGeral: z.number().int().nullable(),
  }),
  errors: ['dataInicioMaiorDataFim', 'pagamentoMesInvalido', 'semPermissao', 'cursorInvalido', 'tamanhoPaginaInvalido'],
});

export const clientesPagamento = defineContract({
  id: 'rateio.pagamentosClientes',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/pagamento-servico/clientes',
  summary: 'Os clientes do filtro de pagamentos (nenhum em avaliação; o cliente, só a própria empresa).',
  access: PAGAMENTO,
  response: z.array(z.object({ id: z.string(), cnpj: z.string(), razaoSocial: z.string() })),
  errors: [],
});

export const detalhePagamento = defineContract({
  id: 'rateio.pagamentoDetalhe',
  context: 'rateio',
  method: 'GET',
  path: '/api/v1/pagamento-servico/{idConsumo}/{ufConsumo}',
  summary: 'O detalhe imprimível de um pagamento: itens por serviço e UF; por UF os serviços, a parte da assinatura e do acréscimo e o total (o da linha da lista); o administrador vê também o Consumo Sumarizado.',
  access: PAGAMENTO,
  params: z.object({ idConsumo: id, ufConsumo: z.string().trim().max(5) }),
  response: z.object({
    consumoId: z.string(),
    ufConsumo: z.string(),
    cliente: z.object({ cnpj: z.string(), razaoSocial: z.string() }),
    mesReferencia: z.string(),
    situacaoTexto: z.string(),
    ufs: z.array(
      z.object({
        uf: z.string(),
        itens: z.array(z.object({ descricao: z.string(), requisicoes: z.number().int(), valorUnitario: z.number().int(), valor: z.number().int() })),
        valorServicos: z.number().int(),
        valorAssinatura: z.number().int(),
        valorAcrescimo: z.number().int(),
        /** The list row's total: services, subscription share and surcharge share. */
        total: z.number().int(),
      }),
    ),
    sumarizado: z.array(z.object({ descricao: z.string(), requisicoes: z.number().int(), valor: z.number().int() })).nullable(),
  }),
  errors: ['recursoNaoEncontrado', 'semPermissao'],
});
