import { createConversions, Entity, type EntityItem } from 'electrodb';
import { paginaEmSequencia, type Pagina } from '../../platform/paginas';
import { escritaCondicional } from '../../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../../platform/entidade-sob-demanda';

/** One G line's outcome as stored: in its own item, and inside the header of an import of before issue 26. */
const RESULTADO_DA_LINHA = {
  linha: { type: 'number', required: true },
  codigoBarras: { type: 'string', required: true },
  dataPagamento: { type: 'string', required: true },
  valorRecebido: { type: 'number', required: true },
  situacao: { type: ['PAGA', 'JA_PAGA', 'NAO_ENCONTRADA', 'INCONSISTENTE'] as const, required: true },
  motivo: { type: 'string' },
  faturaId: { type: 'string' },
  cliente: { type: 'string' },
  valorAcrescimo: { type: 'number' },
} as const;

/**
 * The bank-return imports (docs/faturamento.md "Payments"): one item per file imported, keyed by the
 * SHA-256 of its bytes and created only if absent, so a file imported twice is recognised and changes
 * nothing. It keeps the header and the totals, and is PROCESSANDO while its lines are being matched,
 * CONCLUIDA once every line's outcome is written: one `retornoLinha` item per G line (a file of
 * thousands of payments is thousands of small items, read a page at a time). Imports are listed
 * newest first from one partition (a handful of files a day: a key lookup, never a Scan). Items
 * written before issue 26 keep their lines inside the header (`linhas`) and no `situacao`: done.
 * Kept: a bank return file is the evidence of the payments it recorded, kept as long as the invoices it paid (five years).
 */
const importacao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'retornoBancario', version: '1', service: 'faturamento' },
  attributes: {
    importacaoId: { type: 'string', required: true },
    nomeArquivo: { type: 'string', required: true },
    importadoEm: { type: 'string', required: true },
    importadoPor: { type: 'string', required: true },
    banco: { type: 'string', required: true },
    nomeBanco: { type: 'string', required: true },
    nsa: { type: 'number', required: true },
    dataGeracao: { type: 'string', required: true },
    registros: { type: 'number', required: true },
    valorTotal: { type: 'number', required: true },
    pagas: { type: 'number', required: true },
    jaPagas: { type: 'number', required: true },
    naoEncontradas: { type: 'number', required: true },
    inconsistentes: { type: 'number', required: true },
    /** PROCESSANDO from the start of the matching until every line is written; absent on old items (done). */
    situacao: { type: ['PROCESSANDO', 'CONCLUIDA'] as const },
    /** When the current attempt started: an attempt that stopped (a crash) is taken over after a while. */
    iniciadoEm: { type: 'string' },
    /** The file's G lines, and how many of them (in file order) have their outcome written and counted. */
    totalPagamentos: { type: 'number' },
    processadas: { type: 'number' },
    /** Old items only: their lines, kept inside the header. */
    linhas: {
      type: 'list',
      items: {
        type: 'map',
        properties: RESULTADO_DA_LINHA,
      },
    },
    lista: { type: 'string', required: true, default: 'retornos' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['importacaoId'] }, sk: { field: 'sk', composite: [] } },
    recentes: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['lista'] }, sk: { field: 'gsi1sk', composite: ['importadoEm'] } },
  },
}));

/**
 * One G line's outcome, by its position in the file.
 * Kept: each line is the evidence of one payment recorded, kept as long as the invoice it paid (five years).
 */
const linha = entidadeSobDemanda(() => new Entity({
  model: { entity: 'retornoLinha', version: '1', service: 'faturamento' },
  attributes: {
    importacaoId: { type: 'string', required: true },
    /** The line number, zero-padded so that the sort key orders the lines as in the file. */
    ordem: { type: 'string', required: true },
    ...RESULTADO_DA_LINHA,
  },
  indexes: { byImportacao: { pk: { field: 'pk', composite: ['importacaoId'] }, sk: { field: 'sk', composite: ['ordem'] } } },
}));

const entities = { importacao, linha };
const db = servicoSobDemanda(entities);

export type ImportacaoRecord = EntityItem<typeof importacao>;
export type LinhaRecord = Omit<EntityItem<typeof linha>, 'importacaoId' | 'ordem'>;

export async function lerImportacao(importacaoId: string): Promise<ImportacaoRecord | null> {
  const { data } = await db().entities.importacao.get({ importacaoId }).go({ consistent: true });
  return data;
}

/** Starts an import (PROCESSANDO) unless that file was recorded already: false then, and nothing is written. */
export async function iniciarImportacao(record: ImportacaoRecord): Promise<boolean> {
  return escritaCondicional(() =>
    db().entities.importacao.create({ ...record, situacao: 'PROCESSANDO' }).go({ response: 'none' }),
  );
}

/**
 * Takes over an import whose attempt started at `iniciadoEm` and never finished (the function stopped;
 * service.ts decides when, RETOMADA_MS): true for the one caller that moves its start, so two retries
 * never both take it.
 */
export async function retomarImportacao(importacaoId: string, iniciadoEm: string, novoInicio: string): Promise<boolean> {
  return escritaCondicional(() =>
    db()
      .entities.importacao.patch({ importacaoId })
      .set({ iniciadoEm: novoInicio })
      .where((a, op) => `${op.eq(a.situacao, 'PROCESSANDO')} AND ${op.eq(a.iniciadoEm, iniciadoEm)}`)
      .go({ response: 'none' }),
  );
}

/** Writes lines' outcomes (25 per BatchWriteItem, ElectroDB's batching; a line written again is the same item). */
export async function gravarLinhas(importacaoId: string, linhas: readonly LinhaRecord[]): Promise<void> {
  if (linhas.length === 0) return;
  const { unprocessed } = await db()
    .entities.linha.put(linhas.map((l) => ({ ...l, importacaoId, ordem: String(l.linha).padStart(7, '0') })))
    .go({ concurrency: 4 });
  if (unprocessed.length > 0) throw new Error(`${unprocessed.length} bank-return lines were not written`);
}

/**
 * Commits a batch of lines: `processadas` moves from `de` by `quantas` and the batch's outcomes are added
 * to the totals, only for the attempt that holds the import (its start) and only from where it read, so
 * a batch done twice (a retry after a crash) is counted once.
 */
export async function avancarImportacao(
  importacaoId: string,
  iniciadoEm: string,
  de: number,
  quantas: number,
  totais: Pick<ImportacaoRecord, 'pagas' | 'jaPagas' | 'naoEncontradas' | 'inconsistentes'>,
): Promise<boolean> {
  return escritaCondicional(() =>
    db()
      .entities.importacao.patch({ importacaoId })
      .set({ processadas: de + quantas })
      .add(totais)
      .where((a, op) => `${op.eq(a.situacao, 'PROCESSANDO')} AND ${op.eq(a.iniciadoEm, iniciadoEm)} AND ${op.eq(a.processadas, de)}`)
      .go({ response: 'none' }),
  );
}

/** Closes the import once every line is counted: only the attempt that holds it (its start) may. */
export async function concluirImportacao(importacaoId: string, iniciadoEm: string, totalPagamentos: number): Promise<boolean> {
  return escritaCondicional(() =>
    db()
      .entities.importacao.patch({ importacaoId })
      .set({ situacao: 'CONCLUIDA' })
      .where((a, op) => `${op.eq(a.situacao, 'PROCESSANDO')} AND ${op.eq(a.iniciadoEm, iniciadoEm)} AND ${op.eq(a.processadas, totalPagamentos)}`)
      .go({ response: 'none' }),
  );
}

/** One page of an import's lines, in file order. */
export async function linhasDaImportacao(importacaoId: string, pagina: { perPage: number; posicao?: string | undefined }): Promise<Pagina<LinhaRecord>> {
  const entity = db().entities.linha;
  return paginaEmSequencia<LinhaRecord>(
    [
      async (desde, limite) => {
        const { data, cursor } = await entity.query.byImportacao({ importacaoId }).go({ limit: limite, cursor: desde ?? null });
        return { data: data.map(({ importacaoId: _id, ordem: _ordem, ...l }) => l), cursor };
      },
    ],
    (_, item) => createConversions(entity).byAccessPattern.byImportacao.fromComposite.toCursor({ importacaoId, ordem: String(item.linha).padStart(7, '0') })!,
    pagina,
  );
}

export async function importacoesRecentes(limite: number): Promise<ImportacaoRecord[]> {
  const { data } = await db().entities.importacao.query.recentes({ lista: 'retornos' }).go({ order: 'desc', limit: limite });
  return data;
}
