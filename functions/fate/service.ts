import { isEventoRecebivel, isUf, nsu15, todayInBahia, UFS, type DocumentoVinculado, type EventoDaChave, type Fluxo, type Uf } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import * as evidencias from './evidencia-store';
import { guardarXml, xmlKey } from './xml-store';
import { DocumentoInvalido, parseDocumento, type Documento, type DocumentoDeVinculo, type EventoRecebivel, type NfeFatura } from './parse';
import { publicarEvento, publicarEventoRecebivel, publicarFate, publicarVinculo, republicarSemFate } from './publicacao';
import { avancarCursor, lerCursor, registrarResumoProcessamento } from './carga-store';
import { gravarDocumentoErro } from './documentos-erro-store';
import { eventoDe, gravarEvento, gravarResumo } from './eventos-store';
import { cancelarFate, duplicatasPorChaveComposta, duplicatasSemNumero, fatePorChave, fatesPorEmissaoPagina, fatesRecentesDoEmitente, gravarFate, type ChaveComposta } from './fate-store';
import { contarNoHistorico, marcaDa, type Contagem, type MarcaNoHistorico } from './historico-store';
import type { Gravacao } from './store-comum';
import type { EventoRecord, FateRecord, FateStatus } from './store-entities';

/**
 * Ingestion of a UF's distributed documents. Each document, in NSU order, is parsed and written
 * (Fat-e with its instalment items, cancellation event, summary, or error document), and only then
 * does the UF's cursor move to its NSU. Writes are conditional creates, so a run that stopped between
 * a document's writes and its cursor advance resumes from the cursor and writes nothing twice.
 * A stored Fat-e or event is published as a domain event on the documents queue (publicacao.ts),
 * also before the cursor moves past it.
 */

/** One document of the distribution: its NSU, schema attribute and (already unzipped) XML. */
export interface DocumentoDistribuido {
  nsu: string;
  schema: string;
  xml: string;
  /** The document's bytes as delivered, when they may differ from the UTF-8 of `xml` (kept byte-identical in S3). */
  bytes?: Buffer;
}

/** What the load did with one document (the batch import shows these). */
export interface DocumentoProcessado {
  nsu: string;
  schema: string;
  resultado: keyof ResultadoIngestao;
  chave?: string;
  erro?: string;
}

export interface ResultadoIngestao extends Contagem {
  /** Documents whose writes were already there (a repeated run or the same key from another NSU). */
  repetidos: number;
}

export interface Ingestao extends ResultadoIngestao {
  documentos: DocumentoProcessado[];
  /** The newest authorisation (or event) instant among the documents, ISO UTC; null when none carries one. */
  publicadoEm: string | null;
}

export interface IngestaoHooks {
  /** Called after a document's writes and before the cursor moves past it (tests inject crashes here). */
  aposGravar?: (documento: DocumentoDistribuido) => void | Promise<void>;
  /**
   * false: the cursor stays where it is. The batch import re-reads a range that may lie beyond the
   * cursor, and moving the cursor there would skip the NSUs in between.
   */
  moverCursor?: boolean;
  /** The stream the documents come from (its cursor, history and XML keys); goods unless said. */
  fluxo?: Fluxo;
}

const CANCELAMENTO = '110111';
/** Documents of one answer written at the same time (each is a few conditional writes and one S3 put). */
const CONCORRENCIA = 8;


/** When the Sefaz published the document: its authorisation, or the event's instant. */
function publicadoEm(doc: Documento): string | null {
  if (doc.kind === 'nfe') return doc.recebimento ?? doc.emissao;
  if (doc.kind === 'resumo') return doc.recebimento ?? doc.emissao;
  if (doc.kind === 'cancelamento') return doc.data;
  if (doc.kind === 'evento') return doc.registradoEm;
  if (doc.kind === 'vinculo') return doc.emissao;
  return null;
}

function fateRecord(uf: Uf, nsu: string, key: string, doc: NfeFatura, status: FateStatus, now: string): FateRecord {
  const dest = doc.destinatario;
  return {
    chave: doc.chave,
    status,
    uf,
    nsu,
    modelo: doc.modelo,
    serie: doc.serie,
    numero: doc.numero,
    emissao: doc.emissao,
    protocolo: doc.protocolo || undefined,
    ...(doc.recebimento ? { autorizadaEm: doc.recebimento } : {}),
    emitenteCnpj: doc.emitente.cnpj,
    emitenteNome: doc.emitente.nome,
    emitenteUf: doc.emitente.uf,
    destinatarioDoc: dest.cnpj ?? dest.cpf ?? '',
    destinatarioTipo: dest.cnpj ? 'CNPJ' : 'CPF',
    destinatarioNome: dest.nome,
    destinatarioUf: dest.uf,
    valorNota: doc.valorNota,
    ...(doc.transportador ? { transportadorDoc: doc.transportador.cnpj ?? doc.transportador.cpf, transportadorNome: doc.transportador.nome } : {}),
    faturaNumero: doc.fatura.numero,
    valorOriginal: doc.fatura.valorOriginal,
    desconto: doc.fatura.desconto,
    valorLiquido: doc.fatura.valorLiquido,
    duplicatas: doc.duplicatas.map((d) => ({ numero: d.numero, vencimento: d.vencimento, valor: d.valor })),
    xmlKey: key,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * An NF-e is stored active, and cancelled at once when its cancellation is already recorded: the event
 * is looked up after the Fat-e is written, so a cancellation recorded before or while it was written
 * is never missed (the event's own write cancels a Fat-e that is already there).
 */
async function gravarNfe(uf: Uf, nsu: string, key: string, xml: string | Buffer, doc: NfeFatura, now: string): Promise<Gravacao> {
  await guardarXml(key, xml);
  const record = fateRecord(uf, nsu, key, doc, 'ATIVA', now);
  const gravacao = await gravarFate(record);
  const registrado = await eventoDe(doc.chave, CANCELAMENTO);
  // A cancellation that came first cancels it only if it names this document's authorisation.
  const cancelamento = registrado && cancelaEsteDocumento(registrado, doc.protocolo) ? registrado : null;
  if (cancelamento) await cancelarFate(doc.chave, { data: cancelamento.data, protocolo: cancelamento.protocolo });
  else if (registrado) await gravarCancelamentoDivergente(registrado, doc.protocolo, now);
  // Its domain event, new or not yet published (a repeat after a stop), before the cursor moves on:
  // read back unless this load created it and nothing changed it since.
  await publicarFate(doc.chave, gravacao === 'criado' && !cancelamento ? record : undefined);
  // Evidence that came before it was published without a Fat-e: published again now that there is one.
  await republicarSemFate(doc.chave);
  if (doc.vinculos) await gravarVinculos(uf, nsu, key, { ...doc, vinculos: doc.vinculos, valor: doc.valorNota }, now);
  return gravacao;
}

/**
 * A return or a CT-e names other keys: one link item in each named key's partition (kept even when
 * that NF-e is not stored yet), each published as that key's evidence.
 */
async function gravarVinculos(
  uf: Uf,
  nsu: string,
  key: string,
  doc: Pick<DocumentoDeVinculo, 'chave' | 'emissao' | 'emitente' | 'valor'> & { vinculos: NonNullable<NfeFatura['vinculos']> },
  now: string,
): Promise<Gravacao> {
  let gravacao: Gravacao = 'existente';
  for (const chave of doc.vinculos.chaves) {
    const g = await evidencias.gravarVinculo({
      chave,
      tipo: doc.vinculos.tipo,
      chaveDocumento: doc.chave,
      emitenteDoc: doc.emitente.cnpj,
      emitenteNome: doc.emitente.nome,
      emissao: doc.emissao,
      valor: doc.valor,
      uf,
      nsu,
      xmlKey: key,
      createdAt: now,
    });
    if (g === 'criado') gravacao = 'criado';
    // Also on a repeat: a run may have stopped between the write and the publication.
    await publicarVinculo(chave, doc.vinculos.tipo, doc.chave);
  }
  return gravacao;
}

async function gravarEventoRecebivel(uf: Uf, nsu: string, key: string, doc: EventoRecebivel, now: string): Promise<Gravacao> {
  const { kind: _kind, ...evento } = doc;
  const gravacao = await evidencias.gravarEventoRecebivel({ ...evento, uf, nsu, xmlKey: key, createdAt: now });
  // Also on a repeat: a run may have stopped between the write and the publication.
  await publicarEventoRecebivel(doc.chave, doc.tpEvento, doc.seq);
  return gravacao;
}

function protocoloDivergente(chave: string, protocoloEvento: string, protocoloDocumento: string): DocumentoInvalido {
  return new DocumentoInvalido('ProtocoloDivergente', message('cancelamentoProtocoloDivergente', { chave, protocoloEvento, protocoloDocumento }));
}

/** An event stored before its protocol was kept is trusted as before; a stored Fat-e without a protocol cannot be checked. */
function cancelaEsteDocumento(evento: EventoRecord, protocolo: string): boolean {
  return !evento.protocoloDocumento || !protocolo || evento.protocoloDocumento === protocolo;
}

/**
 * The cancellation arrived before its NF-e and names another authorisation: the Fat-e stays active
 * and the event's own NSU becomes an error document naming both protocols (as if it had come after).
 */
async function gravarCancelamentoDivergente(evento: EventoRecord, protocolo: string, now: string): Promise<void> {
  const erro = protocoloDivergente(evento.chave, evento.protocoloDocumento ?? '', protocolo);
  const cte = evento.xmlKey.includes('/cte/');
  await gravarDocumentoErro({
    id: `${evento.uf}-${cte ? 'CTE-' : ''}${evento.nsu}`,
    fluxo: cte ? 'cte' : 'nfe',
    tipo: cte ? 'procEventoCTe_v4.00.xsd' : 'procEventoNFe_v1.00.xsd',
    uf: evento.uf,
    nsu: evento.nsu,
    excecao: erro.excecao,
    erro: erro.erro,
    xmlKey: evento.xmlKey,
    createdAt: now,
  });
}

/**
 * What a document's writes did: created its record or found it there (`repetidos`), and the record that
 * counts it in the load history (`contarNoHistorico`): none for a document that is not stored.
 */
interface Gravado {
  resultado: keyof Contagem | 'repetidos';
  marca?: MarcaNoHistorico;
}

const gravado = (gravacao: Gravacao, campo: keyof Contagem, marca: MarcaNoHistorico): Gravado => ({
  resultado: gravacao === 'criado' ? campo : 'repetidos',
  marca,
});

async function gravar(uf: Uf, documento: DocumentoDistribuido, nsu: string, key: string, doc: Documento, now: string): Promise<Gravado> {
  switch (doc.kind) {
    case 'nfe':
      return gravado(await gravarNfe(uf, nsu, key, documento.bytes ?? documento.xml, doc, now), 'fate', marcaDa.fate(doc.chave));
    case 'cancelamento': {
      // The Sefaz refuses a cancellation that does not name the document's authorisation protocol:
      // such an event is an error document, and the Fat-e stays as it is.
      const fate = await fatePorChave(doc.chave);
      if (fate?.protocolo && fate.protocolo !== doc.protocoloDocumento) throw protocoloDivergente(doc.chave, doc.protocoloDocumento, fate.protocolo);
      await guardarXml(key, documento.bytes ?? documento.xml);
      const gravacao = await gravarEvento({
        chave: doc.chave,
        tpEvento: doc.tpEvento,
        protocolo: doc.protocolo,
        protocoloDocumento: doc.protocoloDocumento,
        justificativa: doc.justificativa,
        data: doc.data,
        uf,
        nsu,
        xmlKey: key,
        createdAt: now,
      });
      // Also on a repeat: a run may have stopped between the event and the cancellation. Checked again
      // there: the NF-e may have been written (by a concurrent document) since the read above.
      const cancelada = await cancelarFate(doc.chave, { data: doc.data, protocolo: doc.protocolo, protocoloDocumento: doc.protocoloDocumento });
      if (cancelada === 'protocoloDivergente') throw protocoloDivergente(doc.chave, doc.protocoloDocumento, (await fatePorChave(doc.chave))?.protocolo ?? '');
      // Its domain event, new or not yet published (a repeat after a stop), before the cursor moves on.
      await publicarEvento(doc.chave, doc.tpEvento);
      return gravado(gravacao, 'eventos', marcaDa.evento(doc.chave, doc.tpEvento));
    }
    case 'resumo': {
      const gravacao = await gravarResumo({
        chave: doc.chave,
        uf,
        nsu,
        emitenteDoc: doc.emitente.cnpj ?? doc.emitente.cpf ?? '',
        emitenteNome: doc.emitente.nome,
        emissao: doc.emissao,
        tipoOperacao: doc.tipoOperacao,
        valorNota: doc.valorNota,
        protocolo: doc.protocolo,
        situacao: doc.situacao,
        recebimento: doc.recebimento,
        createdAt: now,
      });
      return gravado(gravacao, 'resumos', marcaDa.resumo(doc.chave));
    }
    case 'evento': {
      await guardarXml(key, documento.bytes ?? documento.xml);
      return gravado(await gravarEventoRecebivel(uf, nsu, key, doc, now), 'eventos', evidencias.marcaDa.eventoRecebivel(doc.chave, doc.tpEvento, doc.seq));
    }
    case 'vinculo': {
      await guardarXml(key, documento.bytes ?? documento.xml);
      const gravacao = await gravarVinculos(uf, nsu, key, doc, now);
      // One document, one count: the link in the first key it names carries the mark.
      const primeira = doc.vinculos.chaves[0];
      return primeira ? gravado(gravacao, 'eventos', evidencias.marcaDa.vinculo(primeira, doc.vinculos.tipo, doc.chave)) : { resultado: 'repetidos' };
    }
    case 'ignorado':
      return { resultado: 'ignorados' };
  }
}

async function gravarErro(
  uf: Uf,
  fluxo: Fluxo,
  documento: DocumentoDistribuido,
  nsu: string,
  key: string,
  error: DocumentoInvalido,
  now: string,
): Promise<Gravado> {
  await guardarXml(key, documento.bytes ?? documento.xml);
  const id = `${uf}-${fluxo === 'cte' ? 'CTE-' : ''}${nsu}`;
  const gravacao = await gravarDocumentoErro({
    id,
    fluxo,
    tipo: documento.schema,
    uf,
    nsu,
    excecao: error.excecao,
    erro: error.erro,
    // The parser's message and position only: the stack stays out of the item and of every answer (issue 27 item 2).
    detalhe: (error.detalhe ?? '').slice(0, 4000),
    xmlKey: key,
    createdAt: now,
  });
  return gravado(gravacao, 'erros', marcaDa.documentoErro(id));
}

/**
 * Ingests a UF's documents and moves its cursor past them once their writes are done.
 * A failure other than an invalid document (the table or the bucket unavailable) stops the run; the
 * next run starts again from `cursorDe(uf)`.
 */
export async function ingerir(uf: Uf, documentos: readonly DocumentoDistribuido[], hooks: IngestaoHooks = {}): Promise<Ingestao> {
  if (!isUf(uf)) throw new RangeError(`unknown UF ${String(uf)}`);
  const ordenados = [...documentos].sort((a, b) => (nsu15(a.nsu) < nsu15(b.nsu) ? -1 : nsu15(a.nsu) > nsu15(b.nsu) ? 1 : 0));
  const fluxo = hooks.fluxo ?? 'nfe';
  const resultado: Ingestao = { fate: 0, eventos: 0, resumos: 0, erros: 0, ignorados: 0, repetidos: 0, documentos: [], publicadoEm: null };
  // The record that counts each stored document in the load history (by position in `ordenados`).
  const marcas: (MarcaNoHistorico | undefined)[] = new Array(ordenados.length);
  const processar = async (documento: DocumentoDistribuido, i: number): Promise<DocumentoProcessado> => {
    const nsu = nsu15(documento.nsu);
    const now = new Date().toISOString();
    const processado: DocumentoProcessado = { nsu, schema: documento.schema, resultado: 'ignorados' };
    try {
      const doc = parseDocumento(documento);
      if (doc.kind !== 'ignorado') processado.chave = doc.chave;
      const g = await gravar(uf, documento, nsu, xmlKey(uf, nsu, fluxo), doc, now);
      processado.resultado = g.resultado;
      marcas[i] = g.marca;
      const instante = publicadoEm(doc);
      if (instante && (!resultado.publicadoEm || instante > resultado.publicadoEm)) resultado.publicadoEm = instante;
    } catch (error) {
      if (!(error instanceof DocumentoInvalido)) throw error;
      const g = await gravarErro(uf, fluxo, documento, nsu, xmlKey(uf, nsu, fluxo), error, now);
      processado.resultado = g.resultado;
      marcas[i] = g.marca;
      processado.erro = error.erro;
    }
    resultado[processado.resultado] += 1;
    await hooks.aposGravar?.(documento);
    return processado;
  };

  // Documents are written CONCORRENCIA at a time; the cursor then moves to the end of the longest run
  // of finished documents from the start (never past one that is not written). A failure stops new
  // work, lets what is in flight finish, moves the cursor that far and is rethrown.
  const feitos: (DocumentoProcessado | undefined)[] = new Array(ordenados.length);
  let proximo = 0;
  let falha: { error: unknown } | null = null;
  const trabalhador = async () => {
    while (!falha && proximo < ordenados.length) {
      const i = proximo++;
      try {
        feitos[i] = await processar(ordenados[i]!, i);
      } catch (error) {
        falha ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCORRENCIA, ordenados.length) }, trabalhador));
  let prefixo = 0;
  while (prefixo < feitos.length && feitos[prefixo]) prefixo++;
  resultado.documentos = feitos.filter((d): d is DocumentoProcessado => d !== undefined);
  // The load history counts each stored document once, by its own mark (historico-store.ts `contarNoHistorico`):
  // what this run stored, and what a run that stopped stored without counting (a repeat here). Before
  // the cursor moves: a run that stops in between meets the same documents again and counts them then.
  // The documents read and not stored are counted with the cursor that passes them, so the batch import
  // (which moves no cursor) counts none: the scheduled load counts them when its cursor gets there.
  const dia = todayInBahia();
  try {
    await contarNoHistorico(uf, fluxo, dia, marcas.filter((m): m is MarcaNoHistorico => m !== undefined));
    if (prefixo > 0 && hooks.moverCursor !== false) {
      const ignorados = feitos.slice(0, prefixo).flatMap((d) => (d!.resultado === 'ignorados' ? [Number(d!.nsu)] : []));
      await avancarCursor(uf, Number(nsu15(ordenados[prefixo - 1]!.nsu)), fluxo, { dia, ignorados });
    }
  } catch (error) {
    falha ??= { error };
  }
  if (falha) throw falha.error;
  return resultado;
}

/** The UF's last committed NSU (15 digits; all zeros before the first document): ask the distribution for what follows. */
export async function cursorDe(uf: Uf, fluxo: Fluxo = 'nfe'): Promise<string> {
  const ultNSU = await lerCursor(uf, fluxo);
  return nsu15(ultNSU ?? 0);
}

/**
 * The Fat-e whose instalment matches the composite key: issuer, recipient, due date, value and, when
 * given, the instalment number (its digits padded to 3, as nDup is usually written). Without the number,
 * the instalments of that issuer, recipient, day and value (one key Query of their own gsi2 partition,
 * not the recipient's whole day: fate-store.ts `duplicatasSemNumero`).
 */
export async function fatesPorChaveComposta(c: Omit<ChaveComposta, 'numero'> & { numero?: string | undefined }): Promise<FateRecord[]> {
  const { numero, ...semNumero } = c;
  const duplicatas = numero
    ? await duplicatasPorChaveComposta({ ...semNumero, numero: /^\d{1,3}$/.test(numero) ? numero.padStart(3, '0') : numero })
    : await duplicatasSemNumero(semNumero);
  const chaves = [...new Set(duplicatas.map((d) => d.chave))].sort();
  const fates = await Promise.all(chaves.map((chave) => fatePorChave(chave)));
  return fates.filter((f): f is FateRecord => f !== null);
}

/**
 * The trial area's keys (functions/degustacao): an issuer's newest Fat-e, at most `limite`, newest first.
 * Read only; one key Query, never a Scan.
 */
export async function chavesDegustacao(emitenteCnpj: string, limite: number): Promise<FateRecord[]> {
  return fatesRecentesDoEmitente(emitenteCnpj, limite);
}

/** One page of the Fat-e that name a carrier (transp/transporta), issued in [de, ate), oldest first (service 7). */
export const fatesDoTransportadorPagina = (doc: string, de: string, ate: string, limite: number, posicao: string | null) =>
  fatesPorEmissaoPagina({ transportadorDoc: doc }, de, ate, limite, posicao);

export function codigoDaUf(uf: Uf): number {
  const codigo = UFS.find((u) => u.uf === uf)?.codigo;
  if (codigo === undefined) throw new RangeError(`unknown UF ${uf}`);
  return codigo;
}

/**
 * Records a UF's latest distribution answer on its processing summary: the status, its ultNSU/maxNSU
 * (kept from before when a refusal carries none), when it was asked, until when to wait after a 656,
 * and the publication instant of the newest document it brought.
 */
export async function registrarConsulta(
  uf: Uf,
  resposta: { cStat: string; xMotivo?: string; ultNSU?: string; maxNSU?: string },
  extra: { publicadoEm?: string | null; aguardarAte?: string | null; agora?: Date; fluxo?: Fluxo } = {},
): Promise<void> {
  await registrarResumoProcessamento(
    { uf, cuf: codigoDaUf(uf), fluxo: extra.fluxo ?? 'nfe' },
    {
      cStat: resposta.cStat,
      xMotivo: resposta.xMotivo ?? '',
      consultadoEm: (extra.agora ?? new Date()).toISOString(),
      aguardarAte: extra.aguardarAte ?? null,
      ...(resposta.ultNSU !== undefined ? { ultNSU: nsu15(resposta.ultNSU) } : {}),
      ...(resposta.maxNSU !== undefined ? { nsuMax: nsu15(resposta.maxNSU) } : {}),
    },
    extra.publicadoEm ?? null,
  );
}

/**
 * The facts of a key's receivable evidence (docs/recebivel.md): its evidence events, and the returns
 * and CT-e naming it, each with whether its own cancellation is registered. Events and links that came
 * before the NF-e are there as well: they live in the key's partition. A few key reads, never a Scan.
 */
export async function evidenciaDaChave(chave: string): Promise<{ eventos: EventoDaChave[]; devolucoes: DocumentoVinculado[]; ctes: DocumentoVinculado[] }> {
  const [eventos, vinculos] = await Promise.all([evidencias.eventosDaChave(chave), evidencias.vinculosDaChave(chave)]);
  const cancelados = await Promise.all(vinculos.map(async (v) => (await eventoDe(v.chaveDocumento, CANCELAMENTO)) !== null));
  const documento = (v: evidencias.VinculoNfeRecord, i: number): DocumentoVinculado => ({
    chave: v.chaveDocumento,
    emitente: { documento: v.emitenteDoc, nome: v.emitenteNome },
    emissao: v.emissao,
    valor: v.valor,
    cancelado: cancelados[i]!,
  });
  return {
    eventos: eventos.flatMap((e): EventoDaChave[] =>
      isEventoRecebivel(e.tpEvento)
        ? [
            {
              tpEvento: e.tpEvento,
              seq: e.seq,
              dataEvento: e.dataEvento,
              registradoEm: e.registradoEm,
              protocolo: e.protocolo,
              autor: e.autor,
              justificativa: e.justificativa,
              correcao: e.correcao,
              entrega: e.entrega,
              protocoloEventoCancelado: e.protocoloEventoCancelado,
            },
          ]
        : [],
    ),
    devolucoes: vinculos.flatMap((v, i) => (v.tipo === 'DEVOLUCAO' ? [documento(v, i)] : [])),
    ctes: vinculos.flatMap((v, i) => (v.tipo === 'TRANSPORTE' ? [documento(v, i)] : [])),
  };
}
