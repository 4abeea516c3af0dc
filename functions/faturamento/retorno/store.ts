import { Entity, Service, type EntityItem } from 'electrodb';
import { isConditionalFailure, tableConfig } from '../../platform/table';

/**
 * The bank-return imports (docs/faturamento.md "Payments"): one item per file imported, keyed by the
 * SHA-256 of its bytes and created only if absent, so a file imported twice is recognised and changes
 * nothing. It keeps the report: the header, the totals and every G line's outcome. Listed newest first
 * from one partition (a handful of files a day: a key lookup, never a Scan).
 */
const importacao = new Entity({
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
    linhas: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          linha: { type: 'number', required: true },
          codigoBarras: { type: 'string', required: true },
          dataPagamento: { type: 'string', required: true },
          valorRecebido: { type: 'number', required: true },
          situacao: { type: ['PAGA', 'JA_PAGA', 'NAO_ENCONTRADA', 'INCONSISTENTE'] as const, required: true },
          motivo: { type: 'string' },
          faturaId: { type: 'string' },
          cliente: { type: 'string' },
          valorAcrescimo: { type: 'number' },
        },
      },
    },
    lista: { type: 'string', required: true, default: 'retornos' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['importacaoId'] }, sk: { field: 'sk', composite: [] } },
    recentes: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['lista'] }, sk: { field: 'gsi1sk', composite: ['importadoEm'] } },
  },
});

const entities = { importacao };
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

export type ImportacaoRecord = EntityItem<typeof importacao>;

export async function lerImportacao(importacaoId: string): Promise<ImportacaoRecord | null> {
  const { data } = await db().entities.importacao.get({ importacaoId }).go({ consistent: true });
  return data;
}

/** Records an import unless that file was recorded already: false then, and nothing is written. */
export async function registrarImportacao(record: ImportacaoRecord): Promise<boolean> {
  try {
    await db().entities.importacao.create(record).go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

export async function importacoesRecentes(limite: number): Promise<ImportacaoRecord[]> {
  const { data } = await db().entities.importacao.query.recentes({ lista: 'retornos' }).go({ order: 'desc', limit: limite });
  return data;
}
