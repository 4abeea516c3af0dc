import { Entity, Service, type EntityItem } from 'electrodb';
import { FLUXOS, nsu15, type Fluxo } from '@plac/shared/domain';
import { isConditionalFailure, tableConfig } from '../platform/table';
import { createConversions } from 'electrodb';
import { paginaEmSequencia, type Pagina } from '../platform/paginas';

/**
 * The Fat-e context's data (docs/data-model.md, "Fat-e"). Access patterns:
 * - a Fat-e by access key (table key); its cancellation event and its summary share that partition;
 * - an issuer's Fat-e by emission instant (gsi1: issuer CNPJ, sort emission + key);
 * - a recipient's instalments by due date (gsi2 of the instalment items: recipient CNPJ/CPF, sort due
 *   date + key + number), one small item per instalment written in the Fat-e's transaction;
 * - the composite-key look-up (issuer, recipient, due date, value, instalment number): the instalment
 *   item's table key, so one Query answers it (several Fat-e may share a composite: sort by key);
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
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: [] } },
    byEmitente: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['emitenteCnpj'] }, sk: { field: 'gsi1sk', composite: ['emissao', 'chave'] } },
    // Sparse: only a Fat-e that names a carrier is in it.
    byTransportador: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['transportadorDoc'] },
      sk: { field: 'gsi2sk', composite: ['emissao', 'chave'] },
    },
  },
});

/**
 * The carriers named by the Fat-e (transp/transporta of an NF-e, the emitter of a CT-e), in one
 * partition: the carrier report lists them, then counts each one's Fat-e through gsi2.
 */
const transportador = new Entity({
  model: { entity: 'transportador', version: '1', service: 'fate' },
  attributes: {
    documento: { type: 'string', required: true },
    nome: { type: 'string', required: true },
  },
  indexes: { all: { pk: { field: 'pk', composite: [] }, sk: { field: 'sk', composite: ['documento'] } } },
});

/** One per instalment: the composite-key look-up (table key) and the recipient's due dates (gsi2). */
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
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byComposta: {
      pk: { field: 'pk', composite: ['emitenteCnpj', 'destinatarioDoc', 'vencimento', 'valor', 'numero'] },
      sk: { field: 'sk', composite: ['chave'] },
    },
    byDestinatario: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['destinatarioDoc'] },
      sk: { field: 'gsi2sk', composite: ['vencimento', 'chave', 'numero'] },
    },
  },
});

/** An event of an NF-e by key and type (only the cancellation, 110111, is stored). */
const evento = new Entity({
  model: { entity: 'evento', version: '1', service: 'fate' },
  attributes: {
    chave: { type: 'string', required: true },
    tpEvento: { type: 'string', required: true },
    protocolo: { type: 'string', required: true },
    justificativa: { type: 'string', required: true },
    data: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    nsu: { type: 'string', required: true },
    xmlKey: { type: 'string', required: true },
    /** When its domain event went to the documents queue (absent: not yet; a repeated load publishes it). */
    publicadoEm: { type: 'string' },
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
    trace: { type: 'string' },
    xmlKey: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } },
    byUf: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['uf'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'id'] } },
    all: { index: 'gsi2', pk: { field: 'gsi2pk', composite: [] }, sk: { field: 'gsi2sk', composite: ['createdAt', 'id'] } },
  },
});

/** The last NSU of a UF whose document is fully written: loading resumes after it. */
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

/** The last answer of a UF's distribution (status, its ultNSU and maxNSU), for the loads screen. */
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

/** What a UF's loads stored per day (Bahia calendar), added up atomically. */
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

const entities = { fate, fateDuplicata, transportador, evento, resumo, documentoErro, cursor, resumoProcessamento, historicoProcessamento };
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

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
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }));
}

/** Carriers this process has already registered: the registry item is written once per carrier, not per Fat-e. */
const transportadoresRegistrados = new Set<string>();

/**
 * The Fat-e and one item per instalment in one transaction; the same key a second time changes nothing.
 * Its carrier is then registered (an idempotent put, also on a repeat: a run that stopped between the
 * two writes completes it).
 */
export async function gravarFate(record: FateRecord): Promise<Gravacao> {
  const result = await db()
    .transaction.write(({ fate: f, fateDuplicata: d }) => [f.create(record).commit(), ...itensDuplicata(record).map((item) => d.create(item).commit())])
    .go();
  const gravacao = settle(result);
  if (record.transportadorDoc && !transportadoresRegistrados.has(record.transportadorDoc)) {
    await db().entities.transportador.put({ documento: record.transportadorDoc, nome: record.transportadorNome ?? '' }).go();
    transportadoresRegistrados.add(record.transportadorDoc);
  }
  return gravacao;
}

/** Every carrier named by a stored Fat-e, by document. */
export async function transportadores(): Promise<{ documento: string; nome: string }[]> {
  const { data } = await db().entities.transportador.query.all({}).go({ pages: 'all' });
  return data.map((t) => ({ documento: t.documento, nome: t.nome }));
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
 * Marks an active Fat-e and its instalment items cancelled, in one transaction. Answers false when no
 * Fat-e has that key; a Fat-e already cancelled is left as it is.
 */
export async function cancelarFate(chave: string, cancelamento: { data: string; protocolo: string }): Promise<boolean> {
  const atual = await fatePorChave(chave);
  if (!atual) return false;
  if (atual.status === 'CANCELADA') return true;
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
  return true;
}

/** An issuer's Fat-e emitted from `de` (inclusive) to `ate` (exclusive), ISO instants, by emission. */
export async function fatesDoEmitente(emitenteCnpj: string, de: string, ate: string): Promise<FateRecord[]> {
  const { data } = await db()
    .entities.fate.query.byEmitente({ emitenteCnpj })
    .between({ emissao: de }, { emissao: ate })
    .go({ pages: 'all' });
  return data.filter((f) => f.emissao >= de && f.emissao < ate);
}

/** An issuer's newest Fat-e, at most `limite`, newest first: one Query on gsi1, descending (the trial keys). */
export async function fatesRecentesDoEmitente(emitenteCnpj: string, limite: number): Promise<FateRecord[]> {
  const { data } = await db().entities.fate.query.byEmitente({ emitenteCnpj }).go({ order: 'desc', limit: limite });
  return data;
}

/** The Fat-e naming a carrier, issued from `de` (inclusive) to `ate` (exclusive), ISO instants, oldest first. */
export async function fatesDoTransportador(transportadorDoc: string, de: string, ate: string): Promise<FateRecord[]> {
  const { data } = await db()
    .entities.fate.query.byTransportador({ transportadorDoc })
    .between({ emissao: de }, { emissao: ate })
    .go({ pages: 'all' });
  return data.filter((f) => f.emissao >= de && f.emissao < ate);
}

/** A recipient's instalments due from `de` to `ate` (days, both inclusive), by due date. */
export async function duplicatasDoDestinatario(destinatarioDoc: string, de: string, ate: string): Promise<FateDuplicataRecord[]> {
  const { data } = await db()
    .entities.fateDuplicata.query.byDestinatario({ destinatarioDoc })
    // The sort key continues after the day (…#chave_…), so the upper bound is the day's last character.
    .between({ vencimento: de }, { vencimento: `${ate}~` })
    .go({ pages: 'all' });
  return data.filter((d) => d.vencimento >= de && d.vencimento <= ate);
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
  const { data } = await db().entities.fateDuplicata.query.byComposta(key).go({ pages: 'all' });
  return data;
}

export async function gravarEvento(record: EventoRecord): Promise<Gravacao> {
  return createOnce(() => db().entities.evento.create(record).go());
}

export async function eventoDe(chave: string, tpEvento: string): Promise<EventoRecord | null> {
  // Consistent: read right after the event's (or its Fat-e's) write, it must see it.
  const { data } = await db().entities.evento.get({ chave, tpEvento }).go({ consistent: true });
  return data;
}

export async function gravarResumo(record: ResumoRecord): Promise<Gravacao> {
  return createOnce(() => db().entities.resumo.create(record).go());
}

export async function resumoPorChave(chave: string): Promise<ResumoRecord | null> {
  const { data } = await db().entities.resumo.get({ chave }).go();
  return data;
}

export async function gravarDocumentoErro(record: DocumentoErroRecord): Promise<Gravacao> {
  return createOnce(() => db().entities.documentoErro.create(record).go());
}

export async function documentoErroPorId(id: string): Promise<DocumentoErroRecord | null> {
  const { data } = await db().entities.documentoErro.get({ id }).go();
  return data;
}

/**
 * One page of the error documents created from `de` to `ate` (ISO instants, inclusive), newest first,
 * of one UF (gsi1) or of all (gsi2): one key-range Query of `perPage + 1` items from the position
 * (`posicao`, the page cursor's content), so the next page's position is there only when more follow.
 */
export async function documentosErroNoPeriodo(
  uf: string | null,
  de: string,
  ate: string,
  pagina: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<DocumentoErroRecord>> {
  const entity = db().entities.documentoErro;
  const indice = uf ? 'byUf' : 'all';
  return paginaEmSequencia<DocumentoErroRecord>(
    [
      async (desde, limite) => {
        // `ate` + '~' closes the range after every id of the last instant ('~' sorts after the ids' characters).
        const query = uf ? entity.query.byUf({ uf }) : entity.query.all({});
        const { data, cursor } = await query.between({ createdAt: de }, { createdAt: `${ate}~` }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, item) => createConversions(entity).byAccessPattern[indice].fromComposite.toCursor(item)!,
    pagina,
  );
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

/** Moves the stream's cursor to `nsu`; refused (false) when it already stands past it: it only moves forward. */
export async function avancarCursor(uf: string, nsu: number, fluxo: Fluxo = 'nfe'): Promise<boolean> {
  try {
    await db()
      .entities.cursor.update({ uf, fluxo })
      .set({ ultNSU: nsu, updatedAt: new Date().toISOString() })
      .where((attr, op) => `${op.notExists(attr.ultNSU)} OR ${op.lte(attr.ultNSU, nsu)}`)
      .go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
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

export async function resumoProcessamentoDa(uf: string, fluxo: Fluxo = 'nfe'): Promise<ResumoProcessamentoRecord | null> {
  return (await db().entities.resumoProcessamento.get({ uf, fluxo }).go()).data;
}

/** Every UF's summary of one stream (one Query). */
export async function resumosProcessamento(fluxo: Fluxo = 'nfe'): Promise<ResumoProcessamentoRecord[]> {
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

/** Adds a load's counts to the stream's day (atomic ADD). */
export async function somarHistorico(uf: string, dia: string, contagem: Contagem, fluxo: Fluxo = 'nfe'): Promise<void> {
  await db().entities.historicoProcessamento.update({ uf, fluxo, dia }).add(contagem).set({ updatedAt: new Date().toISOString() }).go();
}

/** A stream's days from `de` to `ate` (inclusive). */
export async function historicoDaUf(uf: string, de: string, ate: string, fluxo: Fluxo = 'nfe'): Promise<HistoricoProcessamentoRecord[]> {
  const { data } = await db()
    .entities.historicoProcessamento.query.byUf({ uf, fluxo })
    .between({ dia: de }, { dia: ate })
    .go({ pages: 'all' });
  return data;
}
