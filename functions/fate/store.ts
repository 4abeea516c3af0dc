import { QueryCommand, TransactWriteCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { Entity, Service, type EntityItem } from 'electrodb';
import { FLUXOS, foldText, nextMonth, nsu15, toTransportDate, type Fluxo } from '@plac/shared/domain';
import { dynamoDb } from '../platform/aws';
import { escritaCondicional, esperarConflito, isConditionalFailure, motivosDoCancelamento, tableConfig, transactWithRetry } from '../platform/table';
import { createConversions } from 'electrodb';
import { paginaEmSequencia, paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { expiraAposDias } from '../platform/retencao';
import {
  contagemEmitente,
  contagemEmitenteLegado,
  contagemTransportador,
  contagemTransportadorLegado,
  contagemTransporte,
  contagemTransporteLegado,
  EMITENTE_SHARDS,
  fateDoEmitente,
  fateDoTransportador,
  fateDoTransportadorLegado,
  shardDe,
  shardsAte,
  TRANSPORTADOR_SHARDS,
  TRANSPORTE_SHARDS,
} from './contagem-entities';

/**
 * The Fat-e context's data (docs/data-model.md, "Fat-e"). Access patterns:
 * - a Fat-e by access key (table key); its cancellation event and its summary share that partition;
 * - an issuer's and a carrier's Fat-e by emission instant: small link items in the issuer's and the
 *   carrier's partitions (contagem-entities.ts), not secondary indexes, so the Fat-e is stored once;
 * - quantity and value per issuer, model and day/month, Fat-e per carrier and day/month: counters kept
 *   by the counting transaction (`contabilizar`), so range look-ups read a few dozen items;
 * - the composite-key look-up (issuer, recipient, due date, value, instalment number): the instalment
 *   item's table key, so one Query answers it (several Fat-e may share a composite: sort by key); one
 *   small item per instalment written in the Fat-e's transaction;
 * - the same look-up without the instalment number: gsi2 of the instalment items (issuer, recipient,
 *   due date and value; sort number + key), so it too is one Query of one partition, which holds only
 *   the instalments sharing those four, whatever else the recipient has due that day;
 * - error documents by id, by UF and creation instant (gsi1) and all by creation instant (gsi2);
 * - per UF and stream (goods NF-e, transport CT-e): the cursor (last committed NSU), the last
 *   distribution answer and the daily history.
 * Every document write is a conditional create, so writing the same document twice changes nothing.
 */

const STATUS = ['ATIVA', 'CANCELADA'] as const;
export type FateStatus = (typeof STATUS)[number];

const fate = new Entity({
  model: { entity: 'fate', version: '1', service: 'fate' },
  attributes: {
    chave: { type: 'string', required: true },
    status: { type: STATUS, required: true },
    /** The UF whose distribution delivered it, and the NSU there. */
    uf: { type: 'string', required: true },
    nsu: { type: 'string', required: true },
    modelo: { type: 'string', required: true },
    serie: { type: 'string', required: true },
    numero: { type: 'string', required: true },
    /** ISO-8601 UTC instant. */
    emissao: { type: 'string', required: true },
    protocolo: { type: 'string' },
    /** ISO-8601 UTC instant the Sefaz authorised it (protNFe dhRecbto); absent on Fat-e stored before it was kept. */
    autorizadaEm: { type: 'string' },
    emitenteCnpj: { type: 'string', required: true },
    emitenteNome: { type: 'string', required: true },
    emitenteUf: { type: 'string', required: true },
    /** The recipient's CNPJ or CPF (the tipo says which). */
    destinatarioDoc: { type: 'string', required: true },
    destinatarioTipo: { type: ['CNPJ', 'CPF'] as const, required: true },
    destinatarioNome: { type: 'string', required: true },
    destinatarioUf: { type: 'string' },
    /** Centavos. */
    valorNota: { type: 'number', required: true },
    /** The carrier's CNPJ or CPF, when the NF-e names one (transport look-ups and carrier consent). */
    transportadorDoc: { type: 'string' },
    transportadorNome: { type: 'string' },
    faturaNumero: { type: 'string' },
    valorOriginal: { type: 'number', required: true },
    desconto: { type: 'number', required: true },
    valorLiquido: { type: 'number', required: true },
    duplicatas: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          numero: { type: 'string', required: true },
          vencimento: { type: 'string', required: true },
          valor: { type: 'number', required: true },
        },
      },
    },
    /** The document's XML in the documents bucket (gzip). */
    xmlKey: { type: 'string', required: true },
    canceladaEm: { type: 'string' },
    protocoloCancelamento: { type: 'string' },
    /** When its domain event went to the documents queue (absent: not yet; a repeated load publishes it). */
    publicadoEm: { type: 'string' },
    /**
     * What the counters and links hold of this Fat-e (`contabilizar`): absent = nothing yet, ATIVA =
     * counted as active and linked, CANCELADA = linked and no longer counted as active. Moved only by
     * the counting transaction, on the condition that it still holds the value read.
     */
    contagem: { type: STATUS },
    /** The day (Bahia) of the load history that counts this document (`contarNoHistorico`): set once, with the count. */
    contadoEm: { type: 'string' },
    /** TTL (epoch seconds): five years after emission the Fat-e expires (docs/data-model.md, "Retention"). */
    expiresAt: { type: 'number' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: [] } },
  },
});

/**
 * The carriers named by the Fat-e (transp/transporta of an NF-e, the emitter of a CT-e), in
 * REGISTRO_SHARDS partitions (`$fate#lista_transportadores#shard_<n>`, the document's hash), on the
 * table by document and on gsi1 by folded name: the carrier report lists them (every shard read and
 * merged in key order), then counts each one's Fat-e from its counters.
 * Kept: reference data, one item per carrier (bounded by the carriers, not by their Fat-e).
 */
const transportador = new Entity({
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
});

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
const fateDuplicata = new Entity({
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
});

/** An event of an NF-e by key and type (only the cancellation, 110111, is stored). */
const evento = new Entity({
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
});

/** An NF-e summary (resNFe) by key. */
const resumo = new Entity({
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
});

/** A document that could not be processed; its XML is in the bucket (xmlKey), never in the item. */
const documentoErro = new Entity({
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
});

/**
 * gsi2's partitions of the error documents (all UFs by creation instant). Each error document writes
 * its whole item there (gsi2 projects ALL: 1-5 units with its `detalhe`); 8 keys keep even a national
 * rate of 600 failing documents a second of 2 units each at 150 units/s (15 %) per key. The list of
 * all UFs merges the 8 by creation instant (platform/paginas.ts `paginaIntercalada`).
 */
export const ERRO_SHARDS = 8;

/** The last NSU of a UF whose document is fully written: loading resumes after it. Kept: one per UF and stream, rewritten in place. */
const cursor = new Entity({
  model: { entity: 'cursor', version: '1', service: 'fate' },
  attributes: {
    uf: { type: 'string', required: true },
    /** The distribution stream: goods (nfe) or transport (cte). */
    fluxo: { type: FLUXOS, required: true, default: 'nfe' },
    ultNSU: { type: 'number', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: { byUf: { pk: { field: 'pk', composite: ['uf', 'fluxo'] }, sk: { field: 'sk', composite: [] } } },
});

/**
 * The last answer of a UF's distribution (status, its ultNSU and maxNSU), for the loads screen. Kept:
 * one per UF and stream, rewritten in place.
 */
const resumoProcessamento = new Entity({
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
});

/**
 * What a UF's loads stored per day (Bahia calendar), added up atomically. Kept: one small item per UF,
 * stream and day (about 20,000 a year), the loads screen's history: bounded by the calendar, not by
 * the documents.
 */
const historicoProcessamento = new Entity({
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
});

/**
 * The lease of one stream's load (functions/fate/carga.ts `comTravaDeCarga`): at most one run per UF
 * and stream at a time. Taken with a conditional write (free, or its lease over), released by its
 * holder only; a run that died keeps it until `ate`, then the next run takes it.
 */
const travaCarga = new Entity({
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
});

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
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

/**
 * The registry and the error documents' gsi2 entry as keyed before issue 36 (one constant partition,
 * `$fate`): read beside the shards until infra/migrations/fate-particoes.ts has moved every item (an
 * item is then in exactly one of the two places; a carrier re-registered in the meantime in both, and
 * the merge shows it once), and read by that migration. Never written here.
 * Kept: read-only view of items of before issue 36 (the error documents' view carries their TTL).
 */
const transportadorLegado = new Entity({
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
});
const documentoErroLegado = new Entity({
  model: { entity: 'documentoErro', version: '1', service: 'fate' },
  attributes: { ...documentoErro.schema.attributes },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
    byUf: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['uf'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'id'] } },
    all: { index: 'gsi2', pk: { field: 'gsi2pk', composite: [] }, sk: { field: 'gsi2sk', composite: ['createdAt', 'id'] } },
  },
});
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
const fateDuplicataLegado = vistaDasParcelas({ index: 'gsi2', pk: { field: 'gsi2pk', composite: ['destinatarioDoc'] }, sk: { field: 'gsi2sk', composite: ['vencimento', 'chave', 'numero'] } });
/** From issue 38's first migration until the look-up moved to gsi3 (keys only): `bySemNumero`'s composites, in gsi2, which copies the whole item. */
const fateDuplicataGsi2 = vistaDasParcelas({ index: 'gsi2', pk: { field: 'gsi2pk', composite: ['emitenteCnpj', 'destinatarioDoc', 'vencimento', 'valor'] }, sk: { field: 'gsi2sk', composite: ['numero', 'chave'] } });
const legados = { fateDuplicataGsi2, transportadorLegado, documentoErroLegado, contagemEmitenteLegado, contagemTransporteLegado, contagemTransportadorLegado, fateDoTransportadorLegado, fateDuplicataLegado };
let legado: Service<typeof legados> | undefined;
/** The keys of before issues 36 and 38 (see above); exported for the migrations and their tests only. */
export const fateLegado = () => (legado ??= new Service(legados, tableConfig()));
/** The store's ElectroDB service, for measuring item sizes (bench/fate-bytes.ts); never for writes elsewhere. */
export const fateService = db;

export type FateRecord = EntityItem<typeof fate>;
export type FateDuplicataRecord = EntityItem<typeof fateDuplicata>;
export type EventoRecord = EntityItem<typeof evento>;
export type ResumoRecord = EntityItem<typeof resumo>;
export type DocumentoErroRecord = EntityItem<typeof documentoErro>;
export type ResumoProcessamentoRecord = EntityItem<typeof resumoProcessamento>;
export type HistoricoProcessamentoRecord = EntityItem<typeof historicoProcessamento>;

/** `criado` when this call wrote it, `existente` when it was already there (nothing changed). */
export type Gravacao = 'criado' | 'existente';

async function createOnce(write: () => Promise<unknown>): Promise<Gravacao> {
  try {
    await write();
    return 'criado';
  } catch (error) {
    if (isConditionalFailure(error)) return 'existente';
    throw error;
  }
}

/** A transaction that lost only on its conditions (the items exist) is a repeat; anything else is a failure. */
function settle(result: { canceled: boolean; data: { rejected: boolean; code: string; message?: string }[] }): Gravacao {
  if (!result.canceled) return 'criado';
  const rejected = result.data.filter((d) => d.rejected || d.code !== 'None');
  if (rejected.length > 0 && rejected.every((d) => d.code === 'ConditionalCheckFailed')) return 'existente';
  throw new Error(`transaction cancelled: ${rejected.map((d) => `${d.code} ${d.message ?? ''}`).join('; ')}`);
}

/** The instalment items of a Fat-e, keyed from the Fat-e's own fields. */
function itensDuplicata(record: FateRecord): FateDuplicataRecord[] {
  return record.duplicatas.map((d) => ({
    emitenteCnpj: record.emitenteCnpj,
    destinatarioDoc: record.destinatarioDoc,
    vencimento: d.vencimento,
    valor: d.valor,
    numero: d.numero,
    chave: record.chave,
    status: record.status,
    uf: record.uf,
    ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }));
}

/** A carrier's registry item, in its document's shard. */
function registroDe(documento: string, nome: string) {
  return { lista: 'transportadores', shard: shardDe(documento, REGISTRO_SHARDS), documento, nome, nomeFolded: foldText(nome).toUpperCase() };
}

/** Carriers this process has already registered: the registry item is written once per carrier, not per Fat-e. */
const transportadoresRegistrados = new Set<string>();

/** Fat-e and their raw XML are kept five years after emission (docs/data-model.md, "Retention"). */
export const RETENCAO_ANOS = 5;
const SEGUNDOS_RETENCAO = Math.round(RETENCAO_ANOS * 365.25 * 86_400);

/** The TTL (epoch seconds) of a Fat-e, its instalments, links and counters: five years after the instant. */
export function expiraEm(instante: string): number {
  return Math.floor(Date.parse(instante) / 1000) + SEGUNDOS_RETENCAO;
}

/**
 * The Fat-e and one item per instalment in one transaction; the same key a second time changes nothing.
 * Then, also on a repeat (a run that stopped between the writes completes them): its carrier is
 * registered (an idempotent put) and it is counted and linked (`contabilizar`, once per Fat-e).
 */
export async function gravarFate(record: FateRecord): Promise<Gravacao> {
  const item: FateRecord = { ...record, expiresAt: record.expiresAt ?? expiraEm(record.emissao) };
  const result = await db()
    .transaction.write(({ fate: f, fateDuplicata: d }) => [f.create(item).commit(), ...itensDuplicata(item).map((dup) => d.create(dup).commit())])
    .go();
  const gravacao = settle(result);
  if (item.transportadorDoc && !transportadoresRegistrados.has(item.transportadorDoc)) {
    const nome = item.transportadorNome ?? '';
    await db().entities.transportador.put(registroDe(item.transportadorDoc, nome)).go();
    transportadoresRegistrados.add(item.transportadorDoc);
  }
  await contabilizar(item.chave);
  return gravacao;
}

/**
 * Bulk load for benchmarks (bench/volume.ts): active Fat-e written as the loader and the counting
 * transaction together leave them (Fat-e marked counted, instalments, links, counters added up per
 * item), by BatchWriteItem without conditions. Never used by a request path: it is not idempotent.
 */
export async function carregarFatesEmMassa(records: readonly FateRecord[]): Promise<void> {
  const e = db().entities;
  const fates = records.map((r) => ({ ...r, status: 'ATIVA' as const, contagem: 'ATIVA' as const, expiresAt: r.expiresAt ?? expiraEm(r.emissao) }));
  const emitentes = new Map<
    string,
    { emitenteCnpj: string; modelo: string; shard: number; periodo: string; quantidade: number; valor: number; emitenteNome: string; uf: string; expiresAt: number }
  >();
  const transportadores = new Map<string, { transportadorDoc: string; shard: number; periodo: string; quantidade: number; expiresAt: number }>();
  const transporte = new Map<string, { mes: string; shard: number; quantidade: number }>();
  for (const f of fates) {
    const dia = toTransportDate(f.emissao);
    // The shards the counting transaction would choose for this Fat-e (its key's hash).
    const shard = shardDe(f.chave, EMITENTE_SHARDS);
    for (const periodo of [`D${dia}`, `M${dia.slice(0, 7)}`]) {
      const k = `${f.emitenteCnpj}|${f.modelo}|${shard}|${periodo}`;
      const c = emitentes.get(k) ?? { emitenteCnpj: f.emitenteCnpj, modelo: f.modelo, shard, periodo, quantidade: 0, valor: 0, emitenteNome: f.emitenteNome, uf: f.uf, expiresAt: f.expiresAt + 32 * 86_400 };
      emitentes.set(k, { ...c, quantidade: c.quantidade + 1, valor: c.valor + f.valorNota });
      if (f.transportadorDoc) {
        const shardT = shardDe(f.chave, TRANSPORTADOR_SHARDS);
        const kt = `${f.transportadorDoc}|${shardT}|${periodo}`;
        const t = transportadores.get(kt) ?? { transportadorDoc: f.transportadorDoc, shard: shardT, periodo, quantidade: 0, expiresAt: f.expiresAt + 32 * 86_400 };
        transportadores.set(kt, { ...t, quantidade: t.quantidade + 1 });
      }
    }
    if (f.transportadorDoc) {
      const mes = dia.slice(0, 7);
      const t = { mes, shard: shardDe(f.chave, TRANSPORTE_SHARDS) };
      const k = `${t.mes}|${t.shard}`;
      transporte.set(k, { ...t, quantidade: (transporte.get(k)?.quantidade ?? 0) + 1 });
    }
  }
  const lotes: { unprocessed: unknown[] }[] = await Promise.all([
    e.fate.put(fates).go({ concurrency: 4 }),
    e.fateDuplicata.put(fates.flatMap(itensDuplicata)).go({ concurrency: 4 }),
    e.fateDoEmitente.put(fates.map((f) => ({ emitenteCnpj: f.emitenteCnpj, emissao: f.emissao, chave: f.chave, modelo: f.modelo, expiresAt: f.expiresAt }))).go({ concurrency: 4 }),
    e.fateDoTransportador
      .put(fates.filter((f) => f.transportadorDoc).map((f) => ({ transportadorDoc: f.transportadorDoc!, shard: shardDe(f.chave, TRANSPORTADOR_SHARDS), emissao: f.emissao, chave: f.chave, expiresAt: f.expiresAt })))
      .go({ concurrency: 4 }),
  ]);
  const perdidos = lotes.reduce((s, l) => s + l.unprocessed.length, 0);
  if (perdidos > 0) throw new Error(`${perdidos} items were not written`);
  await Promise.all([
    ...[...emitentes.values()].map(({ quantidade, valor, ...k }) => e.contagemEmitente.upsert(k).add({ quantidade, valor }).go()),
    ...[...transportadores.values()].map(({ quantidade, ...k }) => e.contagemTransportador.upsert(k).add({ quantidade }).go()),
    ...[...transporte.values()].map(({ quantidade, ...k }) => e.contagemTransporte.upsert({ lista: 'transporte', ...k }).add({ quantidade }).go()),
    ...[...new Map(fates.filter((f) => f.transportadorDoc).map((f) => [f.transportadorDoc!, f.transportadorNome ?? ''])).entries()].map(([documento, nome]) =>
      e.transportador.put(registroDe(documento, nome)).go(),
    ),
  ]);
}

type MarcaContagem = NonNullable<FateRecord['contagem']>;

/**
 * Brings the counters and links of a Fat-e in line with its status, exactly once: one transaction
 * moves the Fat-e's `contagem` mark on the condition that it still holds what was read, together
 * with every counter and link it implies. First time (no mark): the issuer and carrier links are
 * written, the carrier's counters add one, and, when it is active, the issuer's add it (quantity and
 * value). Later, an active Fat-e that was cancelled: the issuer's counters take it out and the
 * carrier's count it as cancelled. A lost condition (another process moved the mark) reads again.
 */
export async function contabilizar(chave: string): Promise<void> {
  for (let tentativa = 1; tentativa <= 5; tentativa++) {
    const f = await fateAtual(chave);
    if (!f || f.contagem === f.status || f.contagem === 'CANCELADA') return;
    const result = await transactWithRetry(() => db().transaction.write((e) => itensDaContagem(e, f, f.status)).go(), 8);
    if (!result.canceled) return;
    const motivos = (result.data as { code?: string }[]).map((d) => d.code ?? 'None');
    if (!motivos.every((m) => m === 'None' || m === 'ConditionalCheckFailed')) throw new Error(`counting ${chave} was cancelled: ${motivos.join(', ')}`);
  }
  throw new Error(`counting ${chave}: its mark kept moving`);
}

type Entities = Parameters<Parameters<ReturnType<typeof db>['transaction']['write']>[0]>[0];

function itensDaContagem(e: Entities, f: FateRecord, alvo: MarcaContagem) {
  const dia = toTransportDate(f.emissao);
  const mes = dia.slice(0, 7);
  const primeira = f.contagem === undefined;
  const expiresAt = f.expiresAt ?? expiraEm(f.emissao);
  // Counters of a month outlive its last Fat-e by the month's length.
  const expiraContador = expiresAt + 32 * 86_400;
  const sinal = primeira ? 1 : -1;
  const itens = [
    e.fate
      .patch({ chave: f.chave })
      .set({ contagem: alvo })
      .where((attr, op) => `${primeira ? op.notExists(attr.contagem) : op.eq(attr.contagem, 'ATIVA')} AND ${op.eq(attr.status, alvo)}`)
      .commit(),
  ];
  if (primeira) itens.push(e.fateDoEmitente.put({ emitenteCnpj: f.emitenteCnpj, emissao: f.emissao, chave: f.chave, modelo: f.modelo, expiresAt }).commit());
  // The issuer's counters hold active Fat-e only: added when first counted active, taken out when cancelled.
  // Both in the shard of the Fat-e's key: its removal on cancellation takes it from the shard that counted it.
  if (primeira ? alvo === 'ATIVA' : true) {
    const shard = shardDe(f.chave, EMITENTE_SHARDS);
    for (const periodo of [`D${dia}`, `M${mes}`]) {
      itens.push(
        e.contagemEmitente
          .upsert({ emitenteCnpj: f.emitenteCnpj, modelo: f.modelo, shard, periodo, emitenteNome: f.emitenteNome, uf: f.uf, expiresAt: expiraContador })
          .add({ quantidade: sinal, valor: sinal * f.valorNota })
          .commit(),
      );
    }
  }
  if (f.transportadorDoc) {
    const doc = f.transportadorDoc;
    const shardT = shardDe(f.chave, TRANSPORTADOR_SHARDS);
    if (primeira) {
      itens.push(e.fateDoTransportador.put({ transportadorDoc: doc, shard: shardT, emissao: f.emissao, chave: f.chave, expiresAt }).commit());
      const shard = shardDe(f.chave, TRANSPORTE_SHARDS);
      itens.push(e.contagemTransporte.upsert({ lista: 'transporte', shard, mes, expiresAt: expiraContador }).add({ quantidade: 1 }).commit());
    }
    for (const periodo of [`D${dia}`, `M${mes}`]) {
      const soma = primeira ? { quantidade: 1, canceladas: alvo === 'CANCELADA' ? 1 : 0 } : { canceladas: 1 };
      itens.push(e.contagemTransportador.upsert({ transportadorDoc: doc, shard: shardT, periodo, expiresAt: expiraContador }).add(soma).commit());
    }
  }
  return itens;
}

export interface Transportador {
  documento: string;
  nome: string;
  nomeFolded: string;
}

const transportadorDe = (t: { documento: string; nome: string; nomeFolded?: string | undefined }): Transportador => ({
  documento: t.documento,
  nome: t.nome,
  nomeFolded: t.nomeFolded ?? foldText(t.nome).toUpperCase(),
});

/**
 * Carriers of the registry, one page: by folded name from a position (`desde`: the name and document
 * to start at, inclusive), or, with `documentoPrefixo`, by document from that prefix. Name filter by
 * substring (`nomeContem`, folded), applied to what was read: each call reads at most `limite` items of
 * each shard (and of the partition of before issue 36, until migrated).
 *
 * The shards are merged in the order DynamoDB keeps them (the sort key's bytes): every item up to the
 * smallest of the last keys read from the shards that have more is known, so the merged page stops
 * there; `fim` says that no shard has more.
 */
export async function transportadoresPagina(p: {
  limite: number;
  desde?: { nomeFolded: string; documento: string } | undefined;
  documentoPrefixo?: string | undefined;
  nomeContem?: string | undefined;
}): Promise<{ itens: Transportador[]; fim: boolean; ultimo: Transportador | null }> {
  type Lido = { documento: string; nome: string; nomeFolded?: string | undefined };
  const entity = db().entities.transportador;
  const antigo = fateLegado().entities.transportadorLegado;
  const porDocumento = p.documentoPrefixo !== undefined;
  const conv = createConversions(entity).byAccessPattern;
  // The sort key as DynamoDB orders it (ElectroDB's key text, compared byte by byte).
  const chave = (t: Lido): Buffer => {
    const k = { lista: 'transportadores', shard: 0, documento: t.documento, nomeFolded: t.nomeFolded ?? foldText(t.nome).toUpperCase() };
    return Buffer.from(String(porDocumento ? conv.all.fromComposite.toKeys(k).sk : conv.byNome.fromComposite.toKeys(k).gsi1sk), 'utf8');
  };
  const ler = async (shard: number | null): Promise<{ data: Lido[]; mais: boolean }> => {
    const opcoes = { limit: p.limite };
    if (porDocumento) {
      const prefixo = { documento: p.documentoPrefixo! };
      const { data, cursor } = await (shard === null
        ? antigo.query.all({}).begins(prefixo).go(opcoes)
        : entity.query.all({ lista: 'transportadores', shard }).begins(prefixo).go(opcoes));
      return { data, mais: cursor !== null };
    }
    const desde = p.desde && { nomeFolded: p.desde.nomeFolded, documento: p.desde.documento };
    const { data, cursor } = await (shard === null
      ? (desde ? antigo.query.byNome({}).gte(desde) : antigo.query.byNome({})).go(opcoes)
      : (desde ? entity.query.byNome({ lista: 'transportadores', shard }).gte(desde) : entity.query.byNome({ lista: 'transportadores', shard })).go(opcoes));
    return { data, mais: cursor !== null };
  };
  const lidas = await Promise.all([...shardsAte(REGISTRO_SHARDS).map((shard) => ler(shard)), ler(null)]);
  let corte: Buffer | null = null;
  for (const l of lidas) {
    const ultimo = l.data.at(-1);
    if (l.mais && ultimo && (corte === null || Buffer.compare(chave(ultimo), corte) < 0)) corte = chave(ultimo);
  }
  // A carrier of before that was registered again since (in its shard, perhaps under a new name, so
  // elsewhere in the order) is shown as the shard holds it: its old item is dropped (after the cut
  // above, which is where that partition's reading stopped).
  const antigos = lidas.at(-1)!.data;
  if (antigos.length > 0) {
    const { data: registrados } = await entity
      .get(antigos.map((t) => ({ lista: 'transportadores', shard: shardDe(t.documento, REGISTRO_SHARDS), documento: t.documento })))
      .go({ concurrency: 4 });
    const jaNaShard = new Set(registrados.map((t) => t.documento));
    lidas.at(-1)!.data = antigos.filter((t) => !jaNaShard.has(t.documento));
  }
  const vistos = new Map<string, { k: Buffer; t: Transportador }>();
  for (const t of lidas.flatMap((l) => l.data)) {
    const k = chave(t);
    if ((corte === null || Buffer.compare(k, corte) <= 0) && !vistos.has(k.toString('latin1'))) vistos.set(k.toString('latin1'), { k, t: transportadorDe(t) });
  }
  const ordenados = [...vistos.values()].sort((a, b) => Buffer.compare(a.k, b.k)).map((v) => v.t);
  const filtrados = p.nomeContem ? ordenados.filter((t) => t.nomeFolded.includes(p.nomeContem!)) : ordenados;
  const fim = corte === null && filtrados.length <= p.limite;
  // Where the reading stopped (the next read starts just past it): the last carrier answered when the
  // page is full, else the last one examined, matching the name or not. A name matched by none of the
  // carriers read still moves the reading on (an empty page that is not the end).
  const ultimo = fim ? null : filtrados.length > p.limite ? filtrados[p.limite - 1]! : (ordenados.at(-1) ?? null);
  return { itens: filtrados.slice(0, p.limite), fim, ultimo };
}

/** A carrier of the registry by document: its shard, else (not yet migrated) the partition of before issue 36. */
export async function transportadorPorDocumento(documento: string): Promise<Transportador | null> {
  const { data } = await db().entities.transportador.get({ lista: 'transportadores', shard: shardDe(documento, REGISTRO_SHARDS), documento }).go();
  const t = data ?? (await fateLegado().entities.transportadorLegado.get({ documento }).go()).data;
  return t ? transportadorDe(t) : null;
}

export async function fatePorChave(chave: string): Promise<FateRecord | null> {
  const { data } = await db().entities.fate.get({ chave }).go();
  return data;
}

/** The Fat-e as it is now (consistent read): what its domain event carries. */
export async function fateAtual(chave: string): Promise<FateRecord | null> {
  const { data } = await db().entities.fate.get({ chave }).go({ consistent: true });
  return data;
}

/** Records that the Fat-e's domain event was published (the outbox mark: a later repeat publishes nothing). */
export async function marcarFatePublicada(chave: string, em: string): Promise<void> {
  await db().entities.fate.patch({ chave }).set({ publicadoEm: em }).go();
}

/** Records that the event's domain event was published. */
export async function marcarEventoPublicado(chave: string, tpEvento: string, em: string): Promise<void> {
  await db().entities.evento.patch({ chave, tpEvento }).set({ publicadoEm: em }).go();
}

/**
 * Marks an active Fat-e and its instalment items cancelled, in one transaction. Answers `ausente` when
 * no Fat-e has that key, and `protocoloDivergente` (changing nothing) when the cancellation names
 * another authorisation protocol than the Fat-e's (`protocoloDocumento`; the protocol is written once,
 * at creation, so the read cannot be stale); a Fat-e already cancelled is left as it is.
 */
export async function cancelarFate(
  chave: string,
  cancelamento: { data: string; protocolo: string; protocoloDocumento?: string | undefined },
): Promise<'cancelada' | 'ausente' | 'protocoloDivergente'> {
  const atual = await fatePorChave(chave);
  if (!atual) return 'ausente';
  if (cancelamento.protocoloDocumento && atual.protocolo && atual.protocolo !== cancelamento.protocoloDocumento) return 'protocoloDivergente';
  // Already cancelled: only its counters may be behind (a run that stopped between the two writes).
  if (atual.status === 'CANCELADA') {
    await contabilizar(chave);
    return 'cancelada';
  }
  const now = new Date().toISOString();
  const result = await db()
    .transaction.write(({ fate: f, fateDuplicata: d }) => [
      f
        .patch({ chave })
        .set({ status: 'CANCELADA', canceladaEm: cancelamento.data, protocoloCancelamento: cancelamento.protocolo, updatedAt: now })
        .where((attr, op) => op.eq(attr.status, 'ATIVA'))
        .commit(),
      ...itensDuplicata(atual).map((item) =>
        d
          .patch({ emitenteCnpj: item.emitenteCnpj, destinatarioDoc: item.destinatarioDoc, vencimento: item.vencimento, valor: item.valor, numero: item.numero, chave })
          .set({ status: 'CANCELADA', updatedAt: now })
          .commit(),
      ),
    ])
    .go();
  // Lost only to a concurrent cancellation: the Fat-e is cancelled either way.
  settle(result);
  await contabilizar(chave);
  return 'cancelada';
}

/** The Fat-e of these keys, in that order (BatchGet, 100 a request; what was left unprocessed is asked again). */
export async function fatesPorChaves(chaves: readonly string[]): Promise<FateRecord[]> {
  if (chaves.length === 0) return [];
  let pendentes = chaves.map((chave) => ({ chave }));
  const lidas = new Map<string, FateRecord>();
  for (let tentativa = 0; pendentes.length > 0 && tentativa < 8; tentativa++) {
    const { data, unprocessed } = await db().entities.fate.get(pendentes).go({ concurrency: 4 });
    for (const f of data) lidas.set(f.chave, f);
    pendentes = unprocessed.map((u) => ({ chave: u.chave }));
  }
  if (pendentes.length > 0) throw new Error(`${pendentes.length} Fat-e were left unprocessed`);
  return chaves.map((c) => lidas.get(c)).filter((f): f is FateRecord => f !== undefined);
}

/** An issuer's newest Fat-e, at most `limite`, newest first: one Query of its links, descending, then the Fat-e (the trial keys). */
export async function fatesRecentesDoEmitente(emitenteCnpj: string, limite: number): Promise<FateRecord[]> {
  const { data } = await db().entities.fateDoEmitente.query.byEmitente({ emitenteCnpj }).go({ order: 'desc', limit: limite });
  return fatesPorChaves(data.map((l) => l.chave));
}

/**
 * One page of the Fat-e of a carrier (service 7) or of an issuer, issued from `de` (inclusive) to `ate`
 * (exclusive), ISO instants, oldest first, then one BatchGet. An issuer's: one Query of its links from
 * `posicao` (the previous page's). A carrier's: its TRANSPORTADOR_SHARDS link partitions and the one of
 * before the shards, merged by (emission, key) (`paginaIntercalada`); `posicao` is then the last link's
 * position. `posicao` is null on the last page.
 */
export async function fatesPorEmissaoPagina(
  dono: { transportadorDoc: string } | { emitenteCnpj: string },
  de: string,
  ate: string,
  limite: number,
  posicao: string | null,
): Promise<{ fates: FateRecord[]; posicao: string | null }> {
  const e = db().entities;
  if ('transportadorDoc' in dono) {
    const pagina = await linksDoTransportador(dono.transportadorDoc, de, ate, limite, posicao);
    return { fates: await fatesPorChaves(pagina.items.map((l) => l.chave)), posicao: pagina.posicao };
  }
  const { data, cursor } = await e.fateDoEmitente.query.byEmitente(dono).between({ emissao: de }, { emissao: ate }).go({ limit: limite, cursor: posicao });
  const chaves = data.filter((l) => l.emissao >= de && l.emissao < ate).map((l) => l.chave);
  return { fates: await fatesPorChaves(chaves), posicao: cursor };
}

type PosicaoDoLink = [emissao: string, chave: string];

async function linksDoTransportador(transportadorDoc: string, de: string, ate: string, limite: number, posicao: string | null): Promise<Pagina<{ emissao: string; chave: string }>> {
  const novo = db().entities.fateDoTransportador;
  const antigo = fateLegado().entities.fateDoTransportadorLegado;
  const fontes: Ler<{ emissao: string; chave: string }>[] = [
    ...shardsAte(TRANSPORTADOR_SHARDS).map(
      (shard): Ler<{ emissao: string; chave: string }> =>
        async (desde, lim) => {
          const { data, cursor } = await novo.query.byTransportador({ transportadorDoc, shard }).between({ emissao: de }, { emissao: ate }).go({ limit: lim, cursor: desde ?? null });
          return { data, cursor };
        },
    ),
    async (desde, lim) => {
      const { data, cursor } = await antigo.query.byTransportador({ transportadorDoc }).between({ emissao: de }, { emissao: ate }).go({ limit: lim, cursor: desde ?? null });
      return { data, cursor };
    },
  ];
  return paginaIntercalada<{ emissao: string; chave: string }, PosicaoDoLink>(fontes, {
    perPage: limite,
    posicao: posicao ?? undefined,
    // `between` is inclusive at both ends; the period ends before `ate`.
    aceita: (l) => l.emissao >= de && l.emissao < ate,
    chave: (l) => [l.emissao, l.chave],
    comparar: (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
    apos: (fonte, [emissao, chave]) =>
      fonte < TRANSPORTADOR_SHARDS
        ? createConversions(novo).byAccessPattern.byTransportador.fromComposite.toCursor({ transportadorDoc, shard: fonte, emissao, chave })!
        : createConversions(antigo).byAccessPattern.byTransportador.fromComposite.toCursor({ transportadorDoc, emissao, chave })!,
    validarChave: (k): k is PosicaoDoLink => Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string',
  });
}

export interface ContagemMes {
  mes: string;
  quantidade: number;
  valor: number;
}

/** The last day of a month 'YYYY-MM'. */
function ultimoDia(mes: string): string {
  const [a, m] = mes.split('-').map(Number) as [number, number];
  return `${mes}-${String(new Date(Date.UTC(a, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** The months from `de` to `ate` ('YYYY-MM', both inclusive). */
function mesesEntre(de: string, ate: string): string[] {
  const meses: string[] = [];
  for (let mes = de; mes <= ate; mes = nextMonth(mes)) meses.push(mes);
  return meses;
}

/**
 * An issuer's active Fat-e of one model per month, from day `de` to day `ate` (Bahia days, inclusive):
 * the whole months inside the period from their month counters (one Query), the months cut by its ends
 * from their day counters (one Query each): at most 12 + 62 small items per shard whatever the volume.
 * Each Query is made on every one of the EMITENTE_SHARDS partitions and on the partition of before
 * issue 36 (until migrated), all in parallel (at most 3 × 9 Queries), and the items of one period are
 * added up before anything else: a shard alone may hold a negative count (a migrated counter sits in
 * shard 0, the cancellation of a Fat-e it counted in that Fat-e's shard). Also the issuer's name and UF
 * as of the latest counter with Fat-e.
 */
export async function contagemDoEmitente(
  emitenteCnpj: string,
  modelo: string,
  de: string,
  ate: string,
): Promise<{ meses: ContagemMes[]; emitenteNome: string | null; uf: string | null }> {
  const meses = mesesEntre(de.slice(0, 7), ate.slice(0, 7));
  const inteiros = meses.filter((m) => de <= `${m}-01` && ate >= ultimoDia(m));
  const cortados = meses.filter((m) => !inteiros.includes(m));
  const faixas = [
    ...(inteiros.length ? [{ de: `M${inteiros[0]}`, ate: `M${inteiros[inteiros.length - 1]}` }] : []),
    ...cortados.map((m) => ({ de: `D${de > `${m}-01` ? de : `${m}-01`}`, ate: `D${ate < ultimoDia(m) ? ate : ultimoDia(m)}` })),
  ];
  type Contador = { periodo: string; quantidade?: number | undefined; valor?: number | undefined; emitenteNome?: string | undefined; uf?: string | undefined };
  const ler = async (shard: number | null, faixa: { de: string; ate: string }): Promise<Contador[]> => {
    const intervalo = [{ periodo: faixa.de }, { periodo: faixa.ate }] as const;
    // Bounded: one counter item per whole month of the period (≤ 12), or per day of a cut month (≤ 31).
    const { data } = await (shard === null
      ? // Bounded: as above, in the partition of before the shards.
        fateLegado().entities.contagemEmitenteLegado.query.byEmitente({ emitenteCnpj, modelo }).between(...intervalo).go({ pages: 'all' })
      : // Bounded: as above, one shard.
        db().entities.contagemEmitente.query.byEmitente({ emitenteCnpj, modelo, shard }).between(...intervalo).go({ pages: 'all' }));
    return data;
  };
  const fontes = [...shardsAte(EMITENTE_SHARDS), null];
  const leituras = await Promise.all(faixas.flatMap((faixa) => fontes.map((shard) => ler(shard, faixa))));
  const porPeriodo = new Map<string, { quantidade: number; valor: number; emitenteNome?: string | undefined; uf?: string | undefined }>();
  for (const item of leituras.flat()) {
    const p = porPeriodo.get(item.periodo) ?? { quantidade: 0, valor: 0 };
    porPeriodo.set(item.periodo, {
      quantidade: p.quantidade + (item.quantidade ?? 0),
      valor: p.valor + (item.valor ?? 0),
      emitenteNome: p.emitenteNome ?? item.emitenteNome,
      uf: p.uf ?? item.uf,
    });
  }
  const porMes = new Map<string, ContagemMes>();
  let ultimo: { periodo: string; emitenteNome?: string | undefined; uf?: string | undefined } | null = null;
  for (const [periodo, item] of porPeriodo) {
    if (item.quantidade <= 0) continue;
    const mes = periodo.slice(1, 8);
    const m = porMes.get(mes) ?? { mes, quantidade: 0, valor: 0 };
    porMes.set(mes, { mes, quantidade: m.quantidade + item.quantidade, valor: m.valor + item.valor });
    // The later period (a month compares as its first day) carries the newest name.
    const chave = periodo.length === 8 ? `${periodo.slice(1)}-01` : periodo.slice(1);
    if (!ultimo || chave >= ultimo.periodo) ultimo = { periodo: chave, emitenteNome: item.emitenteNome, uf: item.uf };
  }
  return {
    meses: [...porMes.values()].filter((m) => m.quantidade > 0).sort((a, b) => a.mes.localeCompare(b.mes)),
    emitenteNome: ultimo?.emitenteNome ?? null,
    uf: ultimo?.uf ?? null,
  };
}

/**
 * A carrier's counters of the periods from `de` to `ate` (sort key range), from its TRANSPORTADOR_SHARDS
 * partitions and the one of before the shards, in parallel, added up by period.
 */
async function contadoresDoTransportador(transportadorDoc: string, de: string, ate: string): Promise<Map<string, number>> {
  const pages = await Promise.all([
    // Bounded: one shard of one carrier's counters of at most a year (≤ 366 days or 13 months).
    ...shardsAte(TRANSPORTADOR_SHARDS).map((shard) => db().entities.contagemTransportador.query.byTransportador({ transportadorDoc, shard }).between({ periodo: de }, { periodo: ate }).go({ pages: 'all' })),
    // Bounded: the same, counted before the shards.
    fateLegado().entities.contagemTransportadorLegado.query.byTransportador({ transportadorDoc }).between({ periodo: de }, { periodo: ate }).go({ pages: 'all' }),
  ]);
  const porPeriodo = new Map<string, number>();
  for (const d of pages.flatMap((p) => p.data as { periodo: string; quantidade?: number }[])) porPeriodo.set(d.periodo, (porPeriodo.get(d.periodo) ?? 0) + (d.quantidade ?? 0));
  return porPeriodo;
}

/** A carrier's Fat-e per Bahia day in the months `deMes`..`ateMes` (its day counters, shards added up), days with Fat-e only. */
export async function contagemDiariaDoTransportador(transportadorDoc: string, deMes: string, ateMes: string): Promise<{ dia: string; quantidade: number }[]> {
  const porDia = await contadoresDoTransportador(transportadorDoc, `D${deMes}-01`, `D${ultimoDia(ateMes)}`);
  return [...porDia.entries()]
    .filter(([, quantidade]) => quantidade > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([periodo, quantidade]) => ({ dia: periodo.slice(1), quantidade }));
}

/** A carrier's Fat-e in the months `deMes`..`ateMes` (its month counters, shards added up). */
export async function totalDoTransportador(transportadorDoc: string, deMes: string, ateMes: string): Promise<number> {
  const porMes = await contadoresDoTransportador(transportadorDoc, `M${deMes}`, `M${ateMes}`);
  return [...porMes.values()].reduce((s, n) => s + n, 0);
}

/**
 * Many carriers' Fat-e in the months `deMes`..`ateMes` (their month counters, shards added up), by
 * document. One month: its items by key, a BatchGet of 100 keys (each carrier's 4 shards and its item
 * of before: 20 carriers a request; what was left unprocessed is asked again), as many read units as the
 * 5 Queries of `totalDoTransportador` (one small item each) in a twentieth of the requests. More months:
 * those Queries, 40 carriers at a time (a key per month would read more units than a Query of the range).
 */
export async function totaisDosTransportadores(documentos: readonly string[], deMes: string, ateMes: string): Promise<Map<string, number>> {
  const totais = new Map(documentos.map((d) => [d, 0]));
  if (deMes !== ateMes) {
    for (let i = 0; i < documentos.length; i += 40) {
      const lote = documentos.slice(i, i + 40);
      const lidos = await Promise.all(lote.map((d) => totalDoTransportador(d, deMes, ateMes)));
      for (const [j, d] of lote.entries()) totais.set(d, lidos[j]!);
    }
    return totais;
  }
  const periodo = `M${deMes}`;
  type Chave = { transportadorDoc: string; shard?: number; periodo: string };
  const ler = async (chaves: Chave[], get: (c: Chave[]) => Promise<{ data: { transportadorDoc: string; quantidade?: number | undefined }[]; unprocessed: Chave[] }>) => {
    let pendentes = chaves;
    for (let tentativa = 0; pendentes.length > 0 && tentativa < 8; tentativa++) {
      const { data, unprocessed } = await get(pendentes);
      for (const c of data) totais.set(c.transportadorDoc, (totais.get(c.transportadorDoc) ?? 0) + (c.quantidade ?? 0));
      pendentes = unprocessed;
    }
    if (pendentes.length > 0) throw new Error(`${pendentes.length} carrier counters were left unprocessed`);
  };
  const unicos = [...totais.keys()];
  await Promise.all([
    ler(
      unicos.flatMap((transportadorDoc) => shardsAte(TRANSPORTADOR_SHARDS).map((shard) => ({ transportadorDoc, shard, periodo }))),
      (c) => db().entities.contagemTransportador.get(c as Required<Chave>[]).go({ concurrency: 4 }),
    ),
    ler(
      unicos.map((transportadorDoc) => ({ transportadorDoc, periodo })),
      (c) => fateLegado().entities.contagemTransportadorLegado.get(c).go({ concurrency: 4 }),
    ),
  ]);
  return totais;
}

/**
 * Fat-e naming any carrier in the months `deMes`..`ateMes`: one Query of the months on each of the
 * TRANSPORTE_SHARDS partitions and one on the partition of before issue 36 (until migrated), in
 * parallel, added up (at most 12 items each).
 */
export async function totalTransporte(deMes: string, ateMes: string): Promise<number> {
  const [novos, antigos] = await Promise.all([
    Promise.all(
      shardsAte(TRANSPORTE_SHARDS).map((shard) =>
        db()
          .entities.contagemTransporte.query.byMes({ lista: 'transporte', shard })
          .between({ mes: deMes }, { mes: ateMes })
          // Bounded: one shard's months of at most a year (≤ 12 items).
          .go({ pages: 'all' }),
      ),
    ),
    fateLegado()
      .entities.contagemTransporteLegado.query.byMes({})
      // '~' sorts after the shard suffix, so the last month's shards are inside the range.
      .between({ mes: deMes }, { mes: `${ateMes}~` })
      // Bounded: the months of at most a year, 16 shard items each (≤ 192), and none once migrated.
      .go({ pages: 'all' }),
  ]);
  return [...novos.flatMap((n) => n.data), ...antigos.data].reduce((s, d) => s + (d.quantidade ?? 0), 0);
}

/** An instalment found by the look-up without the number: its Fat-e's key and its number. */
export interface ParcelaAchada {
  chave: string;
  numero: string;
}

/**
 * The instalments of an issuer and a recipient due on a day with a value, whatever their number (service
 * 2 without the instalment number), by key and number: one Query of one gsi3 partition (`bySemNumero`),
 * which holds only those instalments, so its cost does not grow with the recipient's other instalments,
 * and answers their keys only (the index projects nothing else; key and number are the sort key's).
 * Beside it, until infra/migrations/duplicatas-chave.ts has run, the two gsi2 forms of before (whole
 * items): the same partition in gsi2, and the recipient's due dates of that day filtered by issuer and
 * value, as the look-up read them first. An item is in one of the forms; one moved by the migration
 * between the reads could be read twice, so the merge keeps each (key, number) once.
 */
export async function duplicatasSemNumero(c: Omit<ChaveComposta, 'numero'>): Promise<ParcelaAchada[]> {
  const { emitenteCnpj, destinatarioDoc, vencimento, valor } = c;
  const [novos, gsi2, antigos] = await Promise.all([
    // Bounded: the instalments sharing issuer, recipient, due date and value (a handful), nothing else of the recipient's.
    chavesDoIndice(db().entities.fateDuplicata.query.bySemNumero({ emitenteCnpj, destinatarioDoc, vencimento, valor }).params()),
    // Legacy (until infra/migrations/duplicatas-chave.ts has run; then they find nothing and go in a later release).
    fateLegado()
      .entities.fateDuplicataGsi2.query.porGsi2({ emitenteCnpj, destinatarioDoc, vencimento, valor })
      // Bounded: as gsi3's partition, only the items not yet moved.
      .go({ pages: 'all' }),
    fateLegado()
      .entities.fateDuplicataLegado.query.porGsi2({ destinatarioDoc })
      // The old sort key continues after the day (…#chave_…), so the upper bound is the day's last character.
      .between({ vencimento }, { vencimento: `${vencimento}~` })
      .where((attr, op) => `${op.eq(attr.emitenteCnpj, emitenteCnpj)} AND ${op.eq(attr.valor, valor)}`)
      // Bounded: one recipient's instalments due that one day, only those still keyed as before issue 38 (none once migrated).
      .go({ pages: 'all' }),
  ]);
  const porItem = new Map<string, ParcelaAchada>();
  for (const p of novos) porItem.set(`${p.chave}#${p.numero}`, p);
  // ElectroDB lower-cased gsi2's keys (an alphanumeric CNPJ matched in either case there): the item's own
  // attributes must equal the ones asked, as the look-up always required. gsi3's keep their case.
  for (const d of [...gsi2.data, ...(antigos.data as FateDuplicataRecord[])]) {
    if (d.emitenteCnpj === emitenteCnpj && d.destinatarioDoc === destinatarioDoc && d.vencimento === vencimento && d.valor === valor) porItem.set(`${d.chave}#${d.numero}`, { chave: d.chave, numero: d.numero });
  }
  return [...porItem.values()].sort((a, b) => a.chave.localeCompare(b.chave) || a.numero.localeCompare(b.numero));
}

/**
 * The instalments a gsi3 Query finds, read from their sort keys (`…#numero_<n>#chave_<44 digits>`, the
 * values' own case): the index holds the keys only, so ElectroDB cannot make records of them.
 */
async function chavesDoIndice(params: Record<string, unknown>): Promise<ParcelaAchada[]> {
  const achadas: ParcelaAchada[] = [];
  let desde: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb().send(new QueryCommand({ ...(params as unknown as QueryCommandInput), ...(desde ? { ExclusiveStartKey: desde } : {}) }));
    for (const item of page.Items ?? []) {
      const sk = String(item.gsi3sk);
      const emChave = sk.lastIndexOf('#chave_');
      const emNumero = sk.indexOf('#numero_');
      if (emChave < 0 || emNumero < 0) continue;
      achadas.push({ chave: sk.slice(emChave + '#chave_'.length), numero: sk.slice(emNumero + '#numero_'.length, emChave) });
    }
    desde = page.LastEvaluatedKey;
  } while (desde);
  return achadas;
}

export interface ChaveComposta {
  emitenteCnpj: string;
  destinatarioDoc: string;
  /** YYYY-MM-DD */
  vencimento: string;
  /** Centavos. */
  valor: number;
  numero: string;
}

/** The instalments matching the composite key (one per Fat-e that has it). */
export async function duplicatasPorChaveComposta(key: ChaveComposta): Promise<FateDuplicataRecord[]> {
  // Bounded: the Fat-e sharing one composite key (issuer, recipient, due date, value, number): a handful.
  const { data } = await db().entities.fateDuplicata.query.byComposta(key).go({ pages: 'all' });
  return data;
}

export async function gravarEvento(record: EventoRecord): Promise<Gravacao> {
  return createOnce(() => db().entities.evento.create({ ...record, expiresAt: record.expiresAt ?? expiraEm(record.data) }).go());
}

export async function eventoDe(chave: string, tpEvento: string): Promise<EventoRecord | null> {
  // Consistent: read right after the event's (or its Fat-e's) write, it must see it.
  const { data } = await db().entities.evento.get({ chave, tpEvento }).go({ consistent: true });
  return data;
}

export async function gravarResumo(record: ResumoRecord): Promise<Gravacao> {
  return createOnce(() => db().entities.resumo.create({ ...record, expiresAt: record.expiresAt ?? expiraEm(record.emissao) }).go());
}

export async function resumoPorChave(chave: string): Promise<ResumoRecord | null> {
  const { data } = await db().entities.resumo.get({ chave }).go();
  return data;
}

/**
 * An error document is kept a year (issue 38 item 5): it evidences nothing billed, only that a document
 * could not be processed, and a year leaves the operators time to find the cause and load it again (the
 * batch import re-reads a range; the XML itself stays in the documents bucket for five years and a
 * month). One that fails again after its record is gone is recorded again, for another year.
 */
export const DIAS_DOCUMENTO_ERRO = 365;
/** The end date of an error document recorded at `createdAt`. */
export const expiraDocumentoErro = (createdAt: string) => expiraAposDias(createdAt, DIAS_DOCUMENTO_ERRO);

/** An error document as the loader records it: its gsi2 shard (the id's hash) and its end date are added here. */
export type NovoDocumentoErro = Omit<DocumentoErroRecord, 'lista' | 'shard'>;

export async function gravarDocumentoErro(record: NovoDocumentoErro): Promise<Gravacao> {
  const expiresAt = record.expiresAt ?? expiraDocumentoErro(record.createdAt);
  return createOnce(() => db().entities.documentoErro.create({ ...record, lista: 'erros', shard: shardDe(record.id, ERRO_SHARDS), expiresAt }).go());
}

export async function documentoErroPorId(id: string): Promise<DocumentoErroRecord | null> {
  const { data } = await db().entities.documentoErro.get({ id }).go();
  return data;
}

/**
 * One page of the error documents created from `de` to `ate` (ISO instants, inclusive), newest first.
 * Of one UF: one key-range Query of gsi1 (`perPage + 1` items) from the position (`posicao`, the page
 * cursor's content). Of all: the ERRO_SHARDS partitions of gsi2, and its partition of before issue 36
 * (until migrated), merged by creation instant and id (platform/paginas.ts `paginaIntercalada`): the
 * position is the last item's instant and id, from which every partition resumes.
 */
export async function documentosErroNoPeriodo(
  uf: string | null,
  de: string,
  ate: string,
  pagina: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<DocumentoErroRecord>> {
  const entity = db().entities.documentoErro;
  const antigo = fateLegado().entities.documentoErroLegado;
  // `ate` + '~' closes the range after every id of the last instant ('~' sorts after the ids' characters).
  const ate_ = `${ate}~`;
  if (uf) {
    return paginaEmSequencia<DocumentoErroRecord>(
      [
        async (desde, limite) => {
          const { data, cursor } = await entity.query.byUf({ uf }).between({ createdAt: de }, { createdAt: ate_ }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
          return { data, cursor };
        },
      ],
      (_, item) => createConversions(entity).byAccessPattern.byUf.fromComposite.toCursor(item)!,
      pagina,
    );
  }
  const shards = shardsAte(ERRO_SHARDS);
  const daShard =
    (shard: number): Ler<DocumentoErroRecord> =>
    async (desde, limite) => {
      const { data, cursor } = await entity.query.all({ lista: 'erros', shard }).between({ createdAt: de }, { createdAt: ate_ }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
      return { data, cursor };
    };
  const doLegado: Ler<DocumentoErroRecord> = async (desde, limite) => {
    const { data, cursor } = await antigo.query.all({}).between({ createdAt: de }, { createdAt: ate_ }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
    return { data: data as DocumentoErroRecord[], cursor };
  };
  type Chave = [string, string];
  return paginaIntercalada<DocumentoErroRecord, Chave>([...shards.map(daShard), doLegado], {
    ...pagina,
    chave: (d) => [d.createdAt, d.id],
    // Newest first: the greater key comes first.
    comparar: (a, b) => b[0].localeCompare(a[0]) || b[1].localeCompare(a[1]),
    apos: (i, [createdAt, id]) =>
      i < shards.length
        ? createConversions(entity).byAccessPattern.all.fromComposite.toCursor({ lista: 'erros', shard: shards[i]!, createdAt, id })!
        : createConversions(antigo).byAccessPattern.all.fromComposite.toCursor({ createdAt, id })!,
    validarChave: (k): k is Chave => Array.isArray(k) && k.length === 2 && k.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 200),
  });
}

/** Removes an error document; false when it was not there. */
export async function removerDocumentoErro(id: string): Promise<boolean> {
  try {
    await db().entities.documentoErro.delete({ id }).where((attr, op) => op.exists(attr.id)).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** The stream's last committed NSU, or null before its first document. */
export async function lerCursor(uf: string, fluxo: Fluxo = 'nfe'): Promise<number | null> {
  const { data } = await db().entities.cursor.get({ uf, fluxo }).go();
  return data?.ultNSU ?? null;
}

/**
 * Moves the stream's cursor to `nsu`; refused (false) when it already stands past it: it only moves
 * forward. `contar`: the NSUs up to `nsu` of the documents read and not stored, added to the history of
 * `contar.dia` in the same transaction as the move, those past the cursor only, on the condition that
 * the cursor still stands where it was read: each is counted once, when the cursor first passes it.
 */
export async function avancarCursor(uf: string, nsu: number, fluxo: Fluxo = 'nfe', contar?: { dia: string; ignorados: readonly number[] }): Promise<boolean> {
  const agora = () => new Date().toISOString();
  for (let tentativa = 1; ; tentativa++) {
    const atual = await lerCursor(uf, fluxo);
    if (atual !== null && atual > nsu) return false;
    const ignorados = (contar?.ignorados ?? []).filter((n) => n <= nsu && (atual === null || n > atual)).length;
    if (ignorados === 0) {
      return escritaCondicional(() =>
        db()
          .entities.cursor.update({ uf, fluxo })
          .set({ ultNSU: nsu, updatedAt: agora() })
          .where((attr, op) => `${op.notExists(attr.ultNSU)} OR ${op.lte(attr.ultNSU, nsu)}`)
          .go(),
      );
    }
    const mover = db()
      .entities.cursor.update({ uf, fluxo })
      .set({ ultNSU: nsu, updatedAt: agora() })
      .where((attr, op) => (atual === null ? op.notExists(attr.ultNSU) : op.eq(attr.ultNSU, atual)))
      .params();
    const somar = historicoParams(uf, fluxo, contar!.dia, { ...CONTAGEM_ZERO, ignorados });
    try {
      await dynamoDb().send(new TransactWriteCommand({ TransactItems: [{ Update: mover as never }, { Update: somar as never }] }));
      return true;
    } catch (error) {
      // The cursor moved since it was read (or another transaction held it): read it again.
      const motivo = motivosDoCancelamento(error)?.[0];
      if ((motivo !== 'ConditionalCheckFailed' && motivo !== 'TransactionConflict') || tentativa === 5) throw error;
    }
  }
}

/**
 * Records a distribution answer on the stream's summary. `ultNSU`/`nsuMax` are kept when the answer has
 * none (a refusal repeats the request's), and `updatedAt` only ever moves forward: a batch import of
 * old documents or a late retry never makes a Sefaz look staler or fresher than it is.
 */
export async function registrarResumoProcessamento(
  chave: { uf: string; cuf: number; fluxo: Fluxo },
  resposta: { cStat: string; xMotivo: string; consultadoEm: string; aguardarAte: string | null; ultNSU?: string; nsuMax?: string },
  publicadoEm: string | null,
): Promise<void> {
  const entity = db().entities.resumoProcessamento;
  const key = { uf: chave.uf, fluxo: chave.fluxo };
  const atual = (await entity.get(key).go()).data;
  await entity
    .put({
      ...key,
      cuf: chave.cuf,
      sigla: chave.uf,
      cStat: resposta.cStat,
      xMotivo: resposta.xMotivo,
      ultNSU: resposta.ultNSU ?? atual?.ultNSU ?? nsu15(0),
      nsuMax: resposta.nsuMax ?? atual?.nsuMax ?? nsu15(0),
      consultadoEm: resposta.consultadoEm,
      ...(resposta.aguardarAte ? { aguardarAte: resposta.aguardarAte } : {}),
      ...(atual?.updatedAt ? { updatedAt: atual.updatedAt } : {}),
    })
    .go();
  if (!publicadoEm) return;
  try {
    await entity
      .patch(key)
      .set({ updatedAt: publicadoEm })
      .where((attr, op) => `${op.notExists(attr.updatedAt)} OR ${op.lt(attr.updatedAt, publicadoEm)}`)
      .go();
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}

/**
 * Takes the stream's load lease until `ate`, when it is free, its lease is over, or `dono` already holds
 * it (a Step Functions Retry of the same execution after its attempt died: the Task's timeout, past the
 * function's own, means that attempt has ended); false when another run holds it.
 */
export async function tomarTravaCarga(uf: string, fluxo: Fluxo, dono: string, ate: Date, agora: Date): Promise<boolean> {
  return escritaCondicional(() =>
    db()
      .entities.travaCarga.put({ uf, fluxo, dono, ate: ate.toISOString(), expiresAt: Math.floor(ate.getTime() / 1000) + 86_400 })
      .where((attr, op) => `${op.notExists(attr.dono)} OR ${op.lt(attr.ate, agora.toISOString())} OR ${op.eq(attr.dono, dono)}`)
      .go(),
  );
}

/** Releases the lease if `dono` still holds it (a lease taken over after it ended is not the old holder's to release). */
export async function soltarTravaCarga(uf: string, fluxo: Fluxo, dono: string): Promise<void> {
  await escritaCondicional(() =>
    db()
      .entities.travaCarga.delete({ uf, fluxo })
      .where((attr, op) => op.eq(attr.dono, dono))
      .go(),
  );
}

export async function resumoProcessamentoDa(uf: string, fluxo: Fluxo = 'nfe'): Promise<ResumoProcessamentoRecord | null> {
  return (await db().entities.resumoProcessamento.get({ uf, fluxo }).go()).data;
}

/** Every UF's summary of one stream (one Query). */
export async function resumosProcessamento(fluxo: Fluxo = 'nfe'): Promise<ResumoProcessamentoRecord[]> {
  // Bounded: one summary per UF of a stream (27 items).
  const { data } = await db().entities.resumoProcessamento.query.all({ fluxo }).go({ pages: 'all' });
  return data;
}

export interface Contagem {
  fate: number;
  eventos: number;
  resumos: number;
  erros: number;
  ignorados: number;
}

const CONTAGEM_ZERO: Contagem = { fate: 0, eventos: 0, resumos: 0, erros: 0, ignorados: 0 };

/** The update (DocumentClient parameters) adding counts to a stream's day: an atomic ADD, for a transaction. */
function historicoParams(uf: string, fluxo: Fluxo, dia: string, contagem: Contagem): Record<string, unknown> {
  return db().entities.historicoProcessamento.update({ uf, fluxo, dia }).add(contagem).set({ updatedAt: new Date().toISOString() }).params();
}

/**
 * Documents written before the history counted each stored document by its own mark were counted by
 * the run that wrote them, after its batch: taken as counted, never counted again when met again.
 */
export const CONTADOS_POR_MARCA_DESDE = '2026-12-01T00:00:00.000Z';

/**
 * A stored document's place in the load history: the column that counts it and the conditional update
 * (DocumentClient parameters, made by the document's own store) that sets its mark `contadoEm` if it has
 * none. `condicaoDaMarca` is that condition.
 */
export interface MarcaNoHistorico {
  campo: Exclude<keyof Contagem, 'ignorados'>;
  marcar: (dia: string) => Record<string, unknown>;
}

export const condicaoDaMarca = <A extends { contadoEm: unknown; createdAt: unknown }>(
  attr: A,
  op: { notExists: (a: A['contadoEm']) => string; gte: (a: A['createdAt'], v: string) => string },
) => `${op.notExists(attr.contadoEm)} AND ${op.gte(attr.createdAt, CONTADOS_POR_MARCA_DESDE)}`;

/** The marks of this store's documents (the evidence items' are in evidencia-store.ts). */
export const marcaDa = {
  fate: (chave: string): MarcaNoHistorico => ({
    campo: 'fate',
    marcar: (dia) => db().entities.fate.patch({ chave }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
  evento: (chave: string, tpEvento: string): MarcaNoHistorico => ({
    campo: 'eventos',
    marcar: (dia) => db().entities.evento.patch({ chave, tpEvento }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
  resumo: (chave: string): MarcaNoHistorico => ({
    campo: 'resumos',
    marcar: (dia) => db().entities.resumo.patch({ chave }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
  documentoErro: (id: string): MarcaNoHistorico => ({
    campo: 'erros',
    marcar: (dia) => db().entities.documentoErro.patch({ id }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
};

/** Marks in one transaction: the history's update and 99 marks (DynamoDB takes 100 items). */
const MARCAS_POR_TRANSACAO = 99;

/**
 * Counts stored documents in the stream's day of the load history, each exactly once whoever meets it
 * (issue 42): the history's ADD and each document's mark in one transaction, so a run that stopped
 * after writing documents and before counting them leaves them unmarked, and the next run that meets
 * them (a repeat to it) counts them then. A document already marked (counted by an earlier run, or a
 * document delivered again) fails its condition: the transaction is made again without it. Answers
 * what was counted now.
 */
export async function contarNoHistorico(uf: string, fluxo: Fluxo, dia: string, marcas: readonly MarcaNoHistorico[]): Promise<Contagem> {
  const contados = { ...CONTAGEM_ZERO };
  for (let i = 0; i < marcas.length; i += MARCAS_POR_TRANSACAO) {
    let lote = marcas.slice(i, i + MARCAS_POR_TRANSACAO);
    for (let tentativa = 1; lote.length > 0; tentativa++) {
      const soma = { ...CONTAGEM_ZERO };
      for (const m of lote) soma[m.campo] += 1;
      try {
        await dynamoDb().send(
          new TransactWriteCommand({ TransactItems: [{ Update: historicoParams(uf, fluxo, dia, soma) as never }, ...lote.map((m) => ({ Update: m.marcar(dia) as never }))] }),
        );
        for (const campo of Object.keys(soma) as (keyof Contagem)[]) contados[campo] += soma[campo];
        break;
      } catch (error) {
        const motivos = motivosDoCancelamento(error);
        if (!motivos || tentativa === 8) throw error;
        // Another transaction on the same items at that moment (a concurrent import): try again a little later.
        if (motivos.includes('TransactionConflict')) {
          await esperarConflito(tentativa);
          continue;
        }
        if (motivos.some((m) => m !== 'None' && m !== 'ConditionalCheckFailed') || motivos[0] !== 'None') throw error;
        const jaContados = new Set(motivos.slice(1).flatMap((m, j) => (m === 'ConditionalCheckFailed' ? [j] : [])));
        lote = lote.filter((_, j) => !jaContados.has(j));
      }
    }
  }
  return contados;
}

/** A stream's days from `de` to `ate` (inclusive). */
export async function historicoDaUf(uf: string, de: string, ate: string, fluxo: Fluxo = 'nfe'): Promise<HistoricoProcessamentoRecord[]> {
  const { data } = await db()
    .entities.historicoProcessamento.query.byUf({ uf, fluxo })
    .between({ dia: de }, { dia: ate })
    // Bounded: one UF stream's day counters of the period asked (at most a year).
    .go({ pages: 'all' });
  return data;
}
