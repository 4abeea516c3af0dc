import * as z from 'zod';
import { isBusinessMonth, parseBrDate } from '../domain/dates';
import { FLUXOS, LOTE_MAXIMO_NSU } from '../domain/cargas';
import { message } from '../messages';
import { cursorPageOf, cursorQuery, DATA_BR_META, decimalInteger, DIA_META, MES_META, ufSchema } from './common';
import { defineContract } from './define';

/**
 * Load control and monitoring of the Fat-e data plane: the Sefaz the platform loads from, the
 * per-Sefaz processing summary with its stalled loads, the loaded-documents history, the batch import
 * of an NSU range, and the documents a load could not process. A Sefaz manager (sefaz_gestor) sees
 * and acts on the own UF only (checked in the service).
 */

const ADMIN = ['sefaz_admin'] as const;
const ADMIN_GESTOR = ['sefaz_admin', 'sefaz_gestor'] as const;
const MONITORAMENTO = ['sefaz_admin', 'cliente_monitoramento'] as const;

export const sefazSchema = z.object({ cuf: z.number().int(), sigla: z.string(), nome: z.string() });

const nsu = z.string().regex(/^\d{15}$/);

export const resumoProcessamentoSchema = z.object({
  cuf: z.number().int(),
  sigla: z.string(),
  /** When the Sefaz last published a document the platform loaded (its authorisation instant). */
  updatedAt: z.string().nullable(),
  /** When the platform last asked this Sefaz. */
  consultadoEm: z.string().nullable(),
  cStat: z.string().nullable(),
  status: z.string(),
  ultNSU: nsu,
  nsuMax: nsu,
  /** Loaded share, 0-100, one decimal. */
  carregado: z.number(),
  /** Set while the Sefaz asked the platform to wait (656): no call before this instant. */
  aguardarAte: z.string().nullable(),
});

export const monitoramentoSchema = z.object({
  resumo: z.array(resumoProcessamentoSchema),
  sefaz: z.array(sefazSchema),
  /** Sigla of the authorities stalled for more than 24, 12 and 3 hours (each in its largest class). */
  interrompidas: z.object({ mais24h: z.array(z.string()), mais12h: z.array(z.string()), mais3h: z.array(z.string()) }),
  /** The server's clock, for "x hours ago". */
  agora: z.string(),
});

const tipoMonitoramento = z.enum(['documentos', 'eventos']).default('documentos').meta({ title: 'tipo' });
/** Which distribution: goods (NF-e) or transport (CT-e); goods unless said. */
const fluxo = z.enum(FLUXOS).default('nfe').meta({ title: 'fluxo' });

export const historicoSchema = z.object({
  /** Labels of the points: 'YYYY-MM-DD' days or 'YYYY-MM' months. */
  dias: z.array(z.string()),
  /** Per Sefaz, the documents loaded at each point (Fat-e and summaries, or events). */
  serie: z.array(z.object({ sigla: z.string(), valores: z.array(z.number().int()) })),
  /** Per Sefaz, the documents recorded as errors at each point. */
  serie_erro: z.array(z.object({ sigla: z.string(), valores: z.array(z.number().int()) })),
  sefaz: z.array(sefazSchema),
});

export const listSefaz = defineContract({
  id: 'fate.sefaz',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/processamento/sefaz',
  summary: 'As Sefaz ativas, das quais a plataforma carrega documentos.',
  access: ['sefaz_admin', 'sefaz_gestor', 'cliente_monitoramento'],
  response: z.array(sefazSchema),
  errors: [],
});

export const monitoramento = defineContract({
  id: 'fate.monitoramento',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/processamento/monitoramento',
  summary:
    'Resumo do processamento por Sefaz: última atualização, situação, último NSU, NSU máximo e cargas interrompidas, ' +
    'da distribuição de mercadorias (fluxo=nfe) ou de transporte (fluxo=cte).',
  access: MONITORAMENTO,
  query: z.object({ fluxo }),
  response: monitoramentoSchema,
  errors: [],
});

export const monitoramentoEvento = defineContract({
  id: 'fate.monitoramentoEvento',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/processamento/monitoramento/evento',
  summary: 'Resumo do processamento dos eventos financeiros por Sefaz, com as cargas interrompidas (fluxo=nfe ou cte).',
  access: ADMIN,
  query: z.object({ fluxo }),
  response: monitoramentoSchema,
  errors: [],
});

const month = (title: string) => z.string().refine(isBusinessMonth, { error: message('campoInvalido', { field: title }) }).meta({ title, ...MES_META });
const day = (title: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: message('dataInvalida') })
    .refine((v) => parseBrDate(`${v.slice(8, 10)}/${v.slice(5, 7)}/${v.slice(0, 4)}`) !== null, { error: message('dataInvalida') })
    .meta({ title, ...DIA_META });

export const historicoMes = defineContract({
  id: 'fate.historicoMes',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/processamento/historico/mes/{mes}',
  summary: 'Documentos carregados por dia do mês (AAAA-MM), por Sefaz. tipo=eventos: só para o administrador.',
  access: MONITORAMENTO,
  params: z.object({ mes: month('mês') }),
  query: z.object({ tipo: tipoMonitoramento, fluxo }),
  response: historicoSchema,
  errors: ['acessoNegado'],
});

export const historicoPeriodo = defineContract({
  id: 'fate.historicoPeriodo',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/processamento/historico/periodo/{a}/{b}',
  summary: 'Documentos carregados por mês entre dois meses (AAAA-MM, no máximo 24), por Sefaz.',
  access: MONITORAMENTO,
  params: z.object({ a: month('mês inicial'), b: month('mês final') }),
  query: z.object({ tipo: tipoMonitoramento, fluxo }),
  response: historicoSchema,
  errors: ['acessoNegado', 'dataInicioMaiorDataFim', 'campoInvalido'],
});

export const historicoDia = defineContract({
  id: 'fate.historicoDia',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/processamento/historico/dia/{a}/{b}',
  summary: 'Documentos carregados por dia entre duas datas (AAAA-MM-DD, no máximo 90 dias), por Sefaz.',
  access: MONITORAMENTO,
  params: z.object({ a: day('data inicial'), b: day('data final') }),
  query: z.object({ tipo: tipoMonitoramento, fluxo }),
  response: historicoSchema,
  errors: ['acessoNegado', 'dataInicioMaiorDataFim', 'faixaDataInvalida'],
});

/** An NSU as typed in the batch form: digits only, up to 15. */
const nsuInformado = z
  .union([z.string(), z.number()], { error: message('nsuObrigatorios') })
  .transform((value, ctx) => {
    const text = String(value).trim();
    if (!/^\d{1,15}$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: message('nsuObrigatorios') });
      return z.NEVER;
    }
    return Number(text);
  });

export const loteDocumentoSchema = z.object({
  nsu,
  schema: z.string(),
  /** What the load did with it: a new Fat-e, event, summary, error document, ignored, or already stored. */
  resultado: z.enum(['fate', 'eventos', 'resumos', 'erros', 'ignorados', 'repetidos']),
  chave: z.string().optional(),
  erro: z.string().optional(),
});

export const importarLote = defineContract({
  id: 'fate.importarLote',
  context: 'fate',
  method: 'POST',
  path: '/api/v1/processamento/lote',
  summary:
    'Relê da Sefaz os documentos de NSU maior que ultNSU até nsuFin (no máximo 50) e os processa como a carga agendada: ' +
    'o que já está gravado não muda. nsuFin vazio: ultNSU + 50.',
  access: ADMIN_GESTOR,
  body: z
    .object({
      sefaz: decimalInteger('Sefaz').pipe(z.number().int().min(11).max(53)).optional(),
      fluxo,
      ultNSU: nsuInformado,
      nsuFin: z.union([nsuInformado, z.literal('').transform(() => undefined), z.null().transform(() => undefined)]).optional(),
    })
    .transform((b, ctx) => {
      if (b.sefaz === undefined) {
        ctx.addIssue({ code: 'custom', path: ['sefaz'], message: message('sefazObrigatoria') });
        return z.NEVER;
      }
      const nsuFin = b.nsuFin ?? b.ultNSU + LOTE_MAXIMO_NSU;
      if (nsuFin <= b.ultNSU) {
        ctx.addIssue({ code: 'custom', path: ['nsuFin'], message: message('nsuFimMenorInicio') });
        return z.NEVER;
      }
      if (nsuFin - b.ultNSU > LOTE_MAXIMO_NSU) {
        ctx.addIssue({ code: 'custom', path: ['nsuFin'], message: message('loteMaximo') });
        return z.NEVER;
      }
      return { sefaz: b.sefaz, fluxo: b.fluxo, ultNSU: b.ultNSU, nsuFin };
    }),
  response: z.object({
    sefaz: sefazSchema,
    fluxo: z.enum(FLUXOS),
    ultNSU: nsu,
    nsuFin: nsu,
    cStat: z.string(),
    xMotivo: z.string(),
    maxNSU: nsu,
    contagem: z.object({
      fate: z.number().int(),
      eventos: z.number().int(),
      resumos: z.number().int(),
      erros: z.number().int(),
      ignorados: z.number().int(),
      repetidos: z.number().int(),
    }),
    documentos: z.array(loteDocumentoSchema),
  }),
  errors: ['sefazObrigatoria', 'nsuObrigatorios', 'nsuFimMenorInicio', 'loteMaximo', 'sefazInativa', 'sefazIndisponivel', 'acessoNegado'],
});

export const documentoErroSchema = z.object({
  id: z.string(),
  /** The document's schema: procNFe_v4.00.xsd, procCTe_v4.00.xsd, … */
  tipo: z.string(),
  uf: z.string(),
  nsu,
  excecao: z.string(),
  erro: z.string(),
  createdAt: z.string(),
  /**
   * The parser's message and where in the document it failed (line/column, schema path), '' when the
   * rule has none beyond `erro`. Never a stack, a server path or an internal name (issue 27 item 2).
   */
  detalhe: z.string(),
});

/** 'DD/MM/YYYY' or 'DD/MM/YYYY HH:mm:ss' (the filter's form), as the calendar day. */
const dataFiltro = (obrigatoria: 'dataInicioObrigatoria' | 'dataFimObrigatoria') =>
  z
    .string({ error: message(obrigatoria) })
    .trim()
    .min(1, { error: message(obrigatoria) })
    .transform((value, ctx) => {
      const day = parseBrDate(value.slice(0, 10));
      if (!day || (value.length > 10 && !/^ \d{2}:\d{2}:\d{2}$/.test(value.slice(10)))) {
        ctx.addIssue({ code: 'custom', message: message('dataInvalida') });
        return z.NEVER;
      }
      return day;
    })
    .meta({ ...DATA_BR_META, description: 'DD/MM/AAAA, um dia real (opcionalmente seguido de HH:MM:SS)', pattern: '^\\d{2}/\\d{2}/\\d{4}( \\d{2}:\\d{2}:\\d{2})?$' });

export const filtrarDocumentosErro = defineContract({
  id: 'fate.documentosErro',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/documentos-erro',
  summary:
    'Documentos que a carga não conseguiu processar, por UF de origem (vazio: todas) e período de criação ' +
    '(DD/MM/AAAA, no máximo 90 dias), do mais recente ao mais antigo, uma página por vez (nextCursor → cursor).',
  access: ADMIN_GESTOR,
  query: z.object({
    UFOrigem: z.union([ufSchema, z.literal('').transform(() => undefined)]).optional(),
    dataInicio: dataFiltro('dataInicioObrigatoria'),
    dataFim: dataFiltro('dataFimObrigatoria'),
    ...cursorQuery(10),
  }),
  response: cursorPageOf(documentoErroSchema),
  errors: ['dataInicioObrigatoria', 'dataFimObrigatoria', 'dataInicioMaiorDataFim', 'faixaDataInvalida', 'acessoNegado', 'cursorInvalido'],
});

/** `<UF>-<NSU>` for the goods distribution, `<UF>-CTE-<NSU>` for the transport one. */
const documentoErroId = z.string().regex(/^[A-Z]{2}-(CTE-)?\d{15}$/, { error: message('recursoNaoEncontrado') });

export const removerDocumentoErro = defineContract({
  id: 'fate.removerDocumentoErro',
  context: 'fate',
  method: 'DELETE',
  path: '/api/v1/documentos-erro/{id}',
  summary: 'Remove um documento com erro e o seu XML.',
  access: ADMIN_GESTOR,
  params: z.object({ id: documentoErroId }),
  response: z.object({ message: z.string() }),
  errors: ['recursoNaoEncontrado', 'acessoNegado'],
});

export const baixarDocumentoErro = defineContract({
  id: 'fate.baixarDocumentoErro',
  context: 'fate',
  method: 'GET',
  path: '/api/v1/documentos-erro/{id}/download',
  summary: 'O XML do documento com erro, exatamente como a Sefaz o entregou (base64 dos bytes originais).',
  access: ADMIN_GESTOR,
  params: z.object({ id: documentoErroId }),
  response: z.object({ nomeArquivo: z.string(), contentType: z.literal('application/xml'), conteudoBase64: z.string() }),
  errors: ['recursoNaoEncontrado', 'acessoNegado'],
});
