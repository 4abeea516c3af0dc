import { Entity, type EntityItem } from 'electrodb';
import { FLUXOS } from '@plac/shared/domain';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';
import { MODELO_FATE, STATUS } from './modelos';
import {
  contagemEmitente,
  contagemEmitenteLegado,
  contagemTransportador,
  contagemTransportadorLegado,
  contagemTransporte,
  contagemTransporteLegado,
  fateDoEmitente,
  fateDoTransportador,
  fateDoTransportadorLegado,
} from './contagem-entities';

/**
 * The Fat-e context's items in the table (docs/data-model.md, "Fat-e"), but the counters and links
 * (contagem-entities.ts), and the ElectroDB services over them. One service holds every entity, so
 * that one transaction writes several kinds together (a Fat-e and its instalments; its `contagem`
 * mark, its counters and its links). Each entity says what it holds and how long it is kept; its
 * reads and writes are in the store of its aggregate (fate-store.ts, eventos-store.ts,
 * documentos-erro-store.ts, carga-store.ts, historico-store.ts, transportadores-store.ts,
 * emitentes-store.ts). An entity's name, version and keys are the stored items' identity: changing
 * one leaves the items already written unread.
 */

export type FateStatus = (typeof STATUS)[number];

const fate = entidadeSobDemanda(() => new Entity(MODELO_FATE));

/**
 * The carriers named by the Fat-e (transp/transporta of an NF-e, the emitter of a CT-e), in
 * REGISTRO_SHARDS partitions (`$fate#lista_transportadores#shard_<n>`, the document's hash), on the
 * table by document and on gsi1 by folded name: the carrier report lists them (every shard read and
 * merged in key order), then counts each one's Fat-e from its counters.
 * Kept: reference data, one item per carrier (bounded by the carriers, not by their Fat-e).
 */
const transportador = entidadeSobDemanda(() => new Entity({
  model: { entity: 'transportador', version: '1', service: 'fate' },
  attributes: {
    /** Always 'transportadores': names the partition key, apart from the other shared keys of the service. */
    lista: { type: 'string', required: true, default: 'transportadores' },
    /** `shardDe(documento, REGISTRO_SHARDS)`; absent on items of before issue 36 (transportadorLegado). */
    shard: { type: 'number', required: true },
    documento: { type: 'string', required: true },
    nome: { type: 'string', required: true },
    /** The name folded (no accents, upper case): the registry by name (gsi1) and the name filter. */
    nomeFolded: { type: 'string' },
  },
  indexes: {
    all: { pk: { field: 'pk', composite: ['lista', 'shard'] }, sk: { field: 'sk', composite: ['documento'] } },
    byNome: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['lista', 'shard'] }, sk: { field: 'gsi1sk', composite: ['nomeFolded', 'documento'] } },
  },
}));

/**
 * The registry's partitions. A registry put (table and gsi1, 1 unit each) happens when a process first
 * sees a carrier: at most once per stored Fat-e, so even then 600 Fat-e/s put 150 units/s (15 %) on
 * each of the 4 keys of the table and of gsi1. A listing reads the 4 in parallel.
 */
export const REGISTRO_SHARDS = 4;

/**
 * One per instalment: the composite-key look-up (table key: issuer, recipient, due date, value and
 * number) and the look-up without the number (gsi3: the same four, sorted by number and key). gsi3
 * projects the keys only, so the instalment's index copy is its four keys, not the whole item: that
 * look-up needs the keys and nothing else (its answer is the Fat-e read by key), and its keys keep the
 * case of the values (`casing: 'none'`) so that they read back exactly. Before, the look-up used gsi2,
 * which copies whole items: first as the recipient's due dates (`fateDuplicataLegado`), then with the
 * same composites as now (`fateDuplicataGsi2`), both read beside until infra/migrations/duplicatas-chave.ts
 * has moved every item.
 */
const fateDuplicata = entidadeSobDemanda(() => new Entity({
  model: { entity: 'fateDuplicata', version: '1', service: 'fate' },
  attributes: {
    emitenteCnpj: { type: 'string', required: true },
    destinatarioDoc: { type: 'string', required: true },
    vencimento: { type: 'string', required: true },
    valor: { type: 'number', required: true },
    numero: { type: 'string', required: true },
    chave: { type: 'string', required: true },
    status: { type: STATUS, required: true },
    uf: { type: 'string', required: true },
    /** TTL: the Fat-e's. */
    expiresAt: { type: 'number' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byComposta: {
      pk: { field: 'pk', composite: ['emitenteCnpj', 'destinatarioDoc', 'vencimento', 'valor', 'numero'] },
      sk: { field: 'sk', composite: ['chave'] },
    },
    // Every composite of the key but the number in the partition key, so a look-up without the number
    // reads only the instalments that answer it (a recipient's whole day was read before issue 38).
    bySemNumero: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['emitenteCnpj', 'destinatarioDoc', 'vencimento', 'valor'], casing: 'none' },
      sk: { field: 'gsi3sk', composite: ['numero', 'chave'], casing: 'none' },
    },
  },
}));

/** An event of an NF-e by key and type (only the cancellation, 110111, is stored). */
const evento = entidadeSobDemanda(() => new Entity({
  model: { entity: 'evento', version: '1', service: 'fate' },
  attributes: {
    chave: { type: 'string', required: true },
    tpEvento: { type: 'string', required: true },
    /** The event's own registration protocol (retEvento nProt); `data` is its registration instant. */
    protocolo: { type: 'string', required: true },
    /** The cancelled document's authorisation protocol the event names (detEvento nProt); absent on events stored before it was kept. */
    protocoloDocumento: { type: 'string' },
    justificativa: { type: 'string', required: true },
    data: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    nsu: { type: 'string', required: true },
    xmlKey: { type: 'string', required: true },
    /** When its domain event went to the documents queue (absent: not yet; a repeated load publishes it). */
    publicadoEm: { type: 'string' },
    /** The day (Bahia) of the load history that counts this document (`contarNoHistorico`): set once, with the count. */
    contadoEm: { type: 'string' },
    /** TTL: five years after the event, like its Fat-e. */
    expiresAt: { type: 'number' },
    createdAt: { type: 'string', required: true },
  },
  indexes: { byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: ['tpEvento'] } } },
}));

/** An NF-e summary (resNFe) by key. */
const resumo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'resumo', version: '1', service: 'fate' },
  attributes: {
    chave: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    nsu: { type: 'string', required: true },
    emitenteDoc: { type: 'string', required: true },
    emitenteNome: { type: 'string', required: true },
    emissao: { type: 'string', required: true },
    tipoOperacao: { type: 'string', required: true },
    valorNota: { type: 'number', required: true },
    protocolo: { type: 'string' },
    situacao: { type: 'string', required: true },
    recebimento: { type: 'string' },
    /** The day (Bahia) of the load history that counts this document (`contarNoHistorico`): set once, with the count. */
    contadoEm: { type: 'string' },
    /** TTL: five years after emission, like a Fat-e. */
    expiresAt: { type: 'number' },
    createdAt: { type: 'string', required: true },
  },
  indexes: { byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: [] } } },
}));

/** A document that could not be processed; its XML is in the bucket (xmlKey), never in the item. */
const documentoErro = entidadeSobDemanda(() => new Entity({
  model: { entity: 'documentoErro', version: '1', service: 'fate' },
  attributes: {
    /** `<uf>-<nsu>` (goods) or `<uf>-CTE-<nsu>` (transport): the same document recorded twice is one record. */
    id: { type: 'string', required: true },
    fluxo: { type: FLUXOS, default: 'nfe' },
    /** The document's schema (procNFe_v4.00.xsd, …). */
    tipo: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    nsu: { type: 'string', required: true },
    excecao: { type: 'string', required: true },
    erro: { type: 'string', required: true },
    /** The parser's message and where in the document it failed (line/column, schema path); may be absent. */
    detalhe: { type: 'string' },
    /**
     * Legacy: items written before issue 27 item 2 may hold the server's stack here. Never answered
     * (functions/fate/documentos-erro.ts); kept in the model only so that those items still read.
     */
    trace: { type: 'string' },
    xmlKey: { type: 'string', required: true },
    /** The day (Bahia) of the load history that counts this document (`contarNoHistorico`): set once, with the count. */
    contadoEm: { type: 'string' },
    createdAt: { type: 'string', required: true },
    /** Always 'erros': names gsi2's partition key, apart from the other shared keys of the service. */
    lista: { type: 'string', required: true, default: 'erros' },
    /** `shardDe(id, ERRO_SHARDS)`: the gsi2 partition; absent on items of before issue 36 (until migrated). */
    shard: { type: 'number', required: true },
    /**
     * TTL (epoch seconds): a year after `createdAt` (DIAS_DOCUMENTO_ERRO). The item and its two index
     * copies (up to 4 KB of `detalhe` each) go together; the document's XML stays in the bucket.
     */
    expiresAt: { type: 'number' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
    byUf: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['uf'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'id'] } },
    all: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['lista', 'shard'] }, sk: { field: 'gsi2sk', composite: ['createdAt', 'id'] } },
  },
}));

/**
 * gsi2's partitions of the error documents (all UFs by creation instant). Each error document writes
 * its whole item there (gsi2 projects ALL: 1-5 units with its `detalhe`); 8 keys keep even a national
 * rate of 600 failing documents a second of 2 units each at 150 units/s (15 %) per key. The list of
 * all UFs merges the 8 by creation instant (platform/paginas.ts `paginaIntercalada`).
 */
export const ERRO_SHARDS = 8;

/** The last NSU of a UF whose document is fully written: loading resumes after it. Kept: one per UF and stream, rewritten in place. */
const cursor = entidadeSobDemanda(() => new Entity({
  model: { entity: 'cursor', version: '1', service: 'fate' },
  attributes: {
    uf: { type: 'string', required: true },
    /** The distribution stream: goods (nfe) or transport (cte). */
    fluxo: { type: FLUXOS, required: true, default: 'nfe' },
    ultNSU: { type: 'number', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: { byUf: { pk: { field: 'pk', composite: ['uf', 'fluxo'] }, sk: { field: 'sk', composite: [] } } },
}));

/**
 * The last answer of a UF's distribution (status, its ultNSU and maxNSU), for the loads screen. Kept:
 * one per UF and stream, rewritten in place.
 */
const resumoProcessamento = entidadeSobDemanda(() => new Entity({
  model: { entity: 'resumoProcessamento', version: '1', service: 'fate' },
  attributes: {
    uf: { type: 'string', required: true },
    /** The distribution stream: goods (nfe) or transport (cte). */
    fluxo: { type: FLUXOS, required: true, default: 'nfe' },
    cuf: { type: 'number', required: true },
    sigla: { type: 'string', required: true },
    cStat: { type: 'string', required: true },
    xMotivo: { type: 'string' },
    ultNSU: { type: 'string', required: true },
    nsuMax: { type: 'string', required: true },
    /** The authorisation instant of the newest document loaded from this Sefaz: when its data last moved. */
    updatedAt: { type: 'string' },
    /** When the platform last asked this Sefaz. */
    consultadoEm: { type: 'string', required: true },
    /** After a 656 (too many requests): no call to this Sefaz before this instant. */
    aguardarAte: { type: 'string' },
  },
  indexes: {
    byUf: { pk: { field: 'pk', composite: ['uf', 'fluxo'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['fluxo', 'uf'] } },
  },
}));

/**
 * What a UF's loads stored per day (Bahia calendar), added up atomically. Kept: one small item per UF,
 * stream and day (about 20,000 a year), the loads screen's history: bounded by the calendar, not by
 * the documents.
 */
const historicoProcessamento = entidadeSobDemanda(() => new Entity({
  model: { entity: 'historicoProcessamento', version: '1', service: 'fate' },
  attributes: {
    uf: { type: 'string', required: true },
    /** The distribution stream: goods (nfe) or transport (cte). */
    fluxo: { type: FLUXOS, required: true, default: 'nfe' },
    dia: { type: 'string', required: true },
    fate: { type: 'number', default: 0 },
    eventos: { type: 'number', default: 0 },
    resumos: { type: 'number', default: 0 },
    erros: { type: 'number', default: 0 },
    ignorados: { type: 'number', default: 0 },
    updatedAt: { type: 'string' },
  },
  indexes: { byUf: { pk: { field: 'pk', composite: ['uf', 'fluxo'] }, sk: { field: 'sk', composite: ['dia'] } } },
}));

/**
 * The lease of one stream's load (functions/fate/carga.ts `comTravaDeCarga`): at most one run per UF
 * and stream at a time. Taken with a conditional write (free, or its lease over), released by its
 * holder only; a run that died keeps it until `ate`, then the next run takes it.
 */
const travaCarga = entidadeSobDemanda(() => new Entity({
  model: { entity: 'travaCarga', version: '1', service: 'fate' },
  attributes: {
    uf: { type: 'string', required: true },
    fluxo: { type: FLUXOS, required: true },
    /** Who holds it: the run's request id. */
    dono: { type: 'string', required: true },
    /** The lease's end (ISO instant). */
    ate: { type: 'string', required: true },
    /** DynamoDB TTL (seconds): an old lease is removed a day after it ended. */
    expiresAt: { type: 'number', required: true },
  },
  indexes: { byStream: { pk: { field: 'pk', composite: ['uf', 'fluxo'] }, sk: { field: 'sk', composite: [] } } },
}));

const entities = {
  travaCarga,
  fate,
  fateDuplicata,
  transportador,
  evento,
  resumo,
  documentoErro,
  cursor,
  resumoProcessamento,
  historicoProcessamento,
  contagemEmitente,
  contagemTransportador,
  contagemTransporte,
  fateDoEmitente,
  fateDoTransportador,
};
/** The service over every entity above: for this context's stores (the *-store.ts modules) only. */
export const db = servicoSobDemanda(entities);

/**
 * The registry and the error documents' gsi2 entry as keyed before issue 36 (one constant partition,
 * `$fate`): read beside the shards until infra/migrations/fate-particoes.ts has moved every item (an
 * item is then in exactly one of the two places; a carrier re-registered in the meantime in both, and
 * the merge shows it once), and read by that migration. Never written here.
 * Kept: read-only view of items of before issue 36 (the error documents' view carries their TTL).
 */
const transportadorLegado = entidadeSobDemanda(() => new Entity({
  model: { entity: 'transportador', version: '1', service: 'fate' },
  attributes: {
    documento: { type: 'string', required: true },
    nome: { type: 'string', required: true },
    nomeFolded: { type: 'string' },
  },
  indexes: {
    all: { pk: { field: 'pk', composite: [] }, sk: { field: 'sk', composite: ['documento'] } },
    byNome: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['nomeFolded', 'documento'] } },
  },
}));
const documentoErroLegado = entidadeSobDemanda(() => new Entity({
  model: { entity: 'documentoErro', version: '1', service: 'fate' },
  attributes: { ...documentoErro.schema.attributes },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
    byUf: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['uf'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'id'] } },
    all: { index: 'gsi2', pk: { field: 'gsi2pk', composite: [] }, sk: { field: 'gsi2sk', composite: ['createdAt', 'id'] } },
  },
}));
/**
 * The instalment items as read through their gsi2 keys of before (never written here), one view per
 * earlier form: the same entity and version, so the same items, another index; the table key as
 * `fateDuplicata`'s. Read beside gsi3 by the look-up without the number until
 * infra/migrations/duplicatas-chave.ts has moved every item to gsi3, and by that migration's test, which
 * writes some.
 */
const vistaDasParcelas = <const I extends { index: 'gsi2'; pk: { field: 'gsi2pk'; composite: string[] }; sk: { field: 'gsi2sk'; composite: string[] } }>(porGsi2: I) =>
  new Entity({
    model: { entity: 'fateDuplicata', version: '1', service: 'fate' },
    attributes: { ...fateDuplicata.schema.attributes },
    indexes: {
      byComposta: {
        pk: { field: 'pk', composite: ['emitenteCnpj', 'destinatarioDoc', 'vencimento', 'valor', 'numero'] },
        sk: { field: 'sk', composite: ['chave'] },
      },
      porGsi2,
    },
  });
/** Before issue 38: pk the recipient, sk due date + key + number (the look-up read the recipient's day). */
const fateDuplicataLegado = entidadeSobDemanda(() => vistaDasParcelas({ index: 'gsi2', pk: { field: 'gsi2pk', composite: ['destinatarioDoc'] }, sk: { field: 'gsi2sk', composite: ['vencimento', 'chave', 'numero'] } }));
/** From issue 38's first migration until the look-up moved to gsi3 (keys only): `bySemNumero`'s composites, in gsi2, which copies the whole item. */
const fateDuplicataGsi2 = entidadeSobDemanda(() => vistaDasParcelas({ index: 'gsi2', pk: { field: 'gsi2pk', composite: ['emitenteCnpj', 'destinatarioDoc', 'vencimento', 'valor'] }, sk: { field: 'gsi2sk', composite: ['numero', 'chave'] } }));
const legados = { fateDuplicataGsi2, transportadorLegado, documentoErroLegado, contagemEmitenteLegado, contagemTransporteLegado, contagemTransportadorLegado, fateDoTransportadorLegado, fateDuplicataLegado };
/** The keys of before issues 36 and 38 (see above); for this context's stores, the migrations and their tests only. */
export const fateLegado = servicoSobDemanda(legados);
/** The store's ElectroDB service, for measuring item sizes (bench/fate-bytes.ts); never for writes elsewhere. */
export const fateService = db;

export type FateRecord = EntityItem<typeof fate>;
export type FateDuplicataRecord = EntityItem<typeof fateDuplicata>;
export type EventoRecord = EntityItem<typeof evento>;
export type ResumoRecord = EntityItem<typeof resumo>;
export type DocumentoErroRecord = EntityItem<typeof documentoErro>;
export type ResumoProcessamentoRecord = EntityItem<typeof resumoProcessamento>;
export type HistoricoProcessamentoRecord = EntityItem<typeof historicoProcessamento>;

/** Fat-e and their raw XML are kept five years after emission (docs/data-model.md, "Retention"). */
export const RETENCAO_ANOS = 5;
const SEGUNDOS_RETENCAO = Math.round(RETENCAO_ANOS * 365.25 * 86_400);

/** The TTL (epoch seconds) of a Fat-e, its instalments, links and counters: five years after the instant. */
export function expiraEm(instante: string): number {
  return Math.floor(Date.parse(instante) / 1000) + SEGUNDOS_RETENCAO;
}
