import { Entity, type EntityItem } from 'electrodb';
import { escritaCondicional } from '../platform/table';
import { condicaoDaMarca, type MarcaNoHistorico } from './historico-store';
import type { Gravacao } from './store-comum';
import { expiraEm } from './store-entities';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The receivable's evidence as stored (docs/data-model.md, "Fat-e: evidence"), in the partition of the
 * key it is about, beside the Fat-e, its cancellation and its summary: so an event, a return or a
 * CT-e that arrives before its NF-e is kept, and the evidence answer reads it whenever the NF-e comes
 * (one Query per kind, never a Scan). Every write is a conditional create keyed by the document's own
 * identity, so a redelivered document changes nothing.
 */

/** Where an evidence item came from and its outbox marks: the same on both kinds. */
const origem = {
  /** The UF whose distribution delivered it, the NSU there, and its XML in the documents bucket. */
  uf: { type: 'string', required: true },
  nsu: { type: 'string', required: true },
  xmlKey: { type: 'string', required: true },
  /** When its domain event went to the documents queue (absent: not yet). */
  publicadoEm: { type: 'string' },
  /** Published while the key had no Fat-e: published again when the Fat-e arrives (publicacao.ts). */
  publicadoSemFate: { type: 'boolean' },
    /** The day (Bahia) of the load history that counts this document (`contarNoHistorico`): set once, with the count. */
    contadoEm: { type: 'string' },
  expiresAt: { type: 'number' },
  createdAt: { type: 'string', required: true },
} as const;

/** An evidence event of the key (docs/recebivel.md): sort key type + sequence, so every manifestation and correction stays. */
const eventoRecebivel = entidadeSobDemanda(() => new Entity({
  model: { entity: 'eventoRecebivel', version: '1', service: 'fate' },
  attributes: {
    chave: { type: 'string', required: true },
    tpEvento: { type: 'string', required: true },
    /** nSeqEvento, zero-padded in the key so the sequence sorts. */
    seq: { type: 'number', required: true, padding: { length: 2, char: '0' } },
    orgao: { type: 'string', required: true },
    autor: { type: 'string', required: true },
    dataEvento: { type: 'string', required: true },
    registradoEm: { type: 'string', required: true },
    protocolo: { type: 'string', required: true },
    justificativa: { type: 'string' },
    correcao: { type: 'string' },
    entrega: {
      type: 'map',
      properties: {
        data: { type: 'string', required: true },
        documento: { type: 'string', required: true },
        nome: { type: 'string', required: true },
        latitude: { type: 'string' },
        longitude: { type: 'string' },
      },
    },
    protocoloEventoCancelado: { type: 'string' },
    ...origem,
  },
  indexes: { byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: ['tpEvento', 'seq'] } } },
}));

/** A document naming the key: an NF-e of return (DEVOLUCAO) or a CT-e carrying it (TRANSPORTE). */
const vinculoNfe = entidadeSobDemanda(() => new Entity({
  model: { entity: 'vinculoNfe', version: '1', service: 'fate' },
  attributes: {
    chave: { type: 'string', required: true },
    tipo: { type: ['DEVOLUCAO', 'TRANSPORTE'] as const, required: true },
    /** The naming document's own key. */
    chaveDocumento: { type: 'string', required: true },
    emitenteDoc: { type: 'string', required: true },
    emitenteNome: { type: 'string', required: true },
    emissao: { type: 'string', required: true },
    /** Centavos: a return's vNF, a CT-e's service value. */
    valor: { type: 'number', required: true },
    ...origem,
  },
  indexes: { byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: ['tipo', 'chaveDocumento'] } } },
}));

const entities = { eventoRecebivel, vinculoNfe };
const servico = servicoSobDemanda(entities);
const db = () => servico().entities;

export type EventoRecebivelRecord = EntityItem<typeof eventoRecebivel>;
export type VinculoNfeRecord = EntityItem<typeof vinculoNfe>;

const criar = async (write: () => Promise<unknown>): Promise<Gravacao> => ((await escritaCondicional(write)) ? 'criado' : 'existente');

export function gravarEventoRecebivel(record: EventoRecebivelRecord): Promise<Gravacao> {
  return criar(() => db().eventoRecebivel.create({ ...record, expiresAt: record.expiresAt ?? expiraEm(record.registradoEm) }).go());
}

/** The marks of the evidence items in the load history (historico-store.ts `contarNoHistorico`): both kinds count as events. */
export const marcaDa = {
  eventoRecebivel: (chave: string, tpEvento: string, seq: number): MarcaNoHistorico => ({
    campo: 'eventos',
    marcar: (dia) => db().eventoRecebivel.patch({ chave, tpEvento, seq }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
  vinculo: (chave: string, tipo: VinculoNfeRecord['tipo'], chaveDocumento: string): MarcaNoHistorico => ({
    campo: 'eventos',
    marcar: (dia) => db().vinculoNfe.patch({ chave, tipo, chaveDocumento }).set({ contadoEm: dia }).where(condicaoDaMarca).params(),
  }),
};

export function gravarVinculo(record: VinculoNfeRecord): Promise<Gravacao> {
  return criar(() => db().vinculoNfe.create({ ...record, expiresAt: record.expiresAt ?? expiraEm(record.emissao) }).go());
}

/**
 * Every evidence event of a key, consistent (read right after a write). Bounded: a key has at most
 * four manifestations, a few delivery proofs and 20 correction letters (nSeqEvento ≤ 20).
 */
export async function eventosDaChave(chave: string): Promise<EventoRecebivelRecord[]> {
  // Bounded: an NF-e's evidence events are a few dozen at most (see above).
  const { data } = await db().eventoRecebivel.query.byChave({ chave }).go({ pages: 'all', consistent: true });
  return data;
}

/** Every return and CT-e naming a key. Bounded: the documents naming one NF-e are few (a return or two, its CT-e). */
export async function vinculosDaChave(chave: string): Promise<VinculoNfeRecord[]> {
  // Bounded: few documents name one NF-e (see above).
  const { data } = await db().vinculoNfe.query.byChave({ chave }).go({ pages: 'all', consistent: true });
  return data;
}

export async function eventoRecebivelDe(chave: string, tpEvento: string, seq: number): Promise<EventoRecebivelRecord | null> {
  const { data } = await db().eventoRecebivel.get({ chave, tpEvento, seq }).go({ consistent: true });
  return data;
}

export async function vinculoDe(chave: string, tipo: VinculoNfeRecord['tipo'], chaveDocumento: string): Promise<VinculoNfeRecord | null> {
  const { data } = await db().vinculoNfe.get({ chave, tipo, chaveDocumento }).go({ consistent: true });
  return data;
}

/** The outbox mark of an event's domain event; `semFate`: published while the key had no Fat-e. */
export async function marcarEventoRecebivelPublicado(chave: string, tpEvento: string, seq: number, em: string, semFate: boolean): Promise<void> {
  await db().eventoRecebivel.patch({ chave, tpEvento, seq }).set({ publicadoEm: em, publicadoSemFate: semFate }).go();
}

export async function marcarVinculoPublicado(chave: string, tipo: VinculoNfeRecord['tipo'], chaveDocumento: string, em: string, semFate: boolean): Promise<void> {
  await db().vinculoNfe.patch({ chave, tipo, chaveDocumento }).set({ publicadoEm: em, publicadoSemFate: semFate }).go();
}
