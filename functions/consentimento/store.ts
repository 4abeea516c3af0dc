import { createConversions, Entity, type EntityItem } from 'electrodb';
import { paginaEmSequencia, paginaIntercalada, type Pagina } from '../platform/paginas';
import { transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * The issuers' consents (docs/data-model.md, "Consent"). Entities:
 * - consentimento: an issuer's current consent, by its base CNPJ (GetItem: the look-ups' check and the
 *   wizard); every consent in one gsi1 partition by folded name (the authority's list);
 * - versao: every version ever saved, under the issuer's partition, never overwritten (conditional
 *   create): when, who (certificate CNPJ and user), what (the whole consent as saved);
 * - vinculo: one item per (institution base CNPJ, issuer) the consent names or named, under the
 *   institution's partition; while the consent names it, the link carries the consent's list row and
 *   sits in a sparse gsi1 partition per institution by folded name, so a client's list is one Query
 *   per institution it is authorised for, a page at a time;
 * - transporte: a carrier's or drawer's consent given to an institution, under the institution's
 *   partition by signature instant (the client's list) and in one gsi1 partition (the authority's list).
 * A save is one transaction: the current item put on the condition that its version is the one read
 * (or created), the new version created, and the links rewritten with the new row.
 */

const filial = {
  type: 'map',
  properties: {
    cnpj: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    email: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    termoFatMensal: { type: 'boolean', required: true },
    termoCompartNfe: { type: 'boolean', required: true },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
} as const;

const instituicao = {
  type: 'map',
  properties: {
    instituicaoId: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    cnpj: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    situacao: { type: 'string', required: true },
    /** The registry's type (ESF, IMF) when it was added; absent when it had none. */
    tipo: { type: 'string' },
    termoFatMensal: { type: 'boolean', required: true },
    termoCompartNfe: { type: 'boolean', required: true },
    termoFatMensalDt: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string', required: true },
  },
} as const;

/** Kept: the issuer's current consent, one per company, rewritten in place (a removal ends it with `dataVigenciaFinal`). */
const consentimento = entidadeSobDemanda(() => new Entity({
  model: { entity: 'consentimento', version: '1', service: 'consentimento' },
  attributes: {
    /** The issuer's base CNPJ. */
    emissor: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    razaoFolded: { type: 'string', required: true },
    /** The CNPJ of the certificate that first consented. */
    cnpj: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    termoFatMensal: { type: 'boolean', required: true },
    termoCompartNfe: { type: 'boolean', required: true },
    termoFatMensalDt: { type: 'string' },
    filiais: { type: 'list', required: true, items: filial },
    instituicoes: { type: 'list', required: true, items: instituicao },
    versao: { type: 'number', required: true },
    /** When the current consent began (the signature date); a new acceptance after a removal moves it. */
    dataAssinatura: { type: 'string', required: true },
    /** The final validity date: set by a removal, cleared by a new acceptance. */
    dataVigenciaFinal: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string', required: true },
    updatedByCnpj: { type: 'string', required: true },
  },
  indexes: {
    byEmissor: { pk: { field: 'pk', composite: ['emissor'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['razaoFolded', 'emissor'] } },
  },
}));

/** Kept: each version is the evidence of what the issuer agreed to and when; never rewritten (a few per company). */
const versao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'versao', version: '1', service: 'consentimento' },
  attributes: {
    emissor: { type: 'string', required: true },
    /** Zero-padded, so the versions sort. */
    versao: { type: 'string', required: true },
    acao: { type: ['ACEITE', 'ALTERACAO', 'REMOCAO'] as const, required: true },
    em: { type: 'string', required: true },
    cnpjCertificado: { type: 'string', required: true },
    usuario: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    termoFatMensal: { type: 'boolean', required: true },
    termoCompartNfe: { type: 'boolean', required: true },
    filiais: { type: 'list', required: true, items: filial },
    instituicoes: { type: 'list', required: true, items: instituicao },
  },
  indexes: {
    byEmissor: { pk: { field: 'pk', composite: ['emissor'] }, sk: { field: 'sk', composite: ['versao'] } },
  },
}));

/** What a consent's list row needs, copied onto its links while it names the institution (the client lists' index). */
const instituicaoDaLinha = {
  type: 'map',
  properties: { cnpj: { type: 'string', required: true }, tipo: { type: 'string' } },
} as const;

/** Kept: one per institution a consent names or named, never removed: evidence of the consent given. */
const vinculo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'vinculo', version: '1', service: 'consentimento' },
  attributes: {
    cnpjInst: { type: 'string', required: true },
    emissor: { type: 'string', required: true },
    /**
     * Present only while the current consent names the institution: the institution again, the name and
     * the issuer (the keys of gsi1, a sparse index: a link the consent no longer names drops out of it)
     * and the row the lists show and filter on, rewritten by every save of the consent.
     */
    nomeada: { type: 'string' },
    nomeFolded: { type: 'string' },
    emissorNome: { type: 'string' },
    razaoSocial: { type: 'string' },
    cnpj: { type: 'string' },
    uf: { type: 'string' },
    versao: { type: 'number' },
    dataAssinatura: { type: 'string' },
    dataVigenciaFinal: { type: 'string' },
    termoFatMensal: { type: 'boolean' },
    updatedAt: { type: 'string' },
    /** The company's CNPJ and its branches' (the CNPJ/CPF filter). */
    documentos: { type: 'list', items: { type: 'string' } },
    instituicoes: { type: 'list', items: instituicaoDaLinha },
  },
  indexes: {
    byInstituicao: { pk: { field: 'pk', composite: ['cnpjInst'] }, sk: { field: 'sk', composite: ['emissor'] } },
    // The consents naming an institution now, by folded name (a client's list: one Query per institution).
    porNome: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['nomeada'] }, sk: { field: 'gsi1sk', composite: ['nomeFolded', 'emissorNome'] } },
  },
}));

/** Kept: a carrier's or drawer's consent to an institution (replaced when given again): evidence of the consent. */
const transporte = entidadeSobDemanda(() => new Entity({
  model: { entity: 'transporte', version: '1', service: 'consentimento' },
  attributes: {
    cnpjInst: { type: 'string', required: true },
    id: { type: 'string', required: true },
    sacadorRazaoSocial: { type: 'string', required: true },
    /** CNPJ or CPF. */
    sacadorDocumento: { type: 'string', required: true },
    sacadorUf: { type: 'string', required: true },
    numeroContrato: { type: 'string', required: true },
    dataAssinatura: { type: 'string', required: true },
    dataVigenciaFinal: { type: 'string' },
    /** 0 MERCADORIA, 1 ETC, 2 MEI, 3 TAC; absent: blank. */
    tipoTransportador: { type: 'number' },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // An institution's consents by signature instant (a client's list: one Query per institution).
    byInstituicao: { pk: { field: 'pk', composite: ['cnpjInst'] }, sk: { field: 'sk', composite: ['dataAssinatura', 'id'] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['dataAssinatura', 'id'] } },
    // The consents a carrier or drawer gave (the TRANSPORTE_* webhook producers).
    bySacador: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['sacadorDocumento'] }, sk: { field: 'gsi2sk', composite: ['cnpjInst', 'id'] } },
  },
}));

const db = servicoSobDemanda({ consentimento, versao, vinculo, transporte });

export type ConsentimentoRecord = EntityItem<typeof consentimento>;
export type VersaoRecord = EntityItem<typeof versao>;
export type TransporteRecord = EntityItem<typeof transporte>;
export type VinculoRecord = EntityItem<typeof vinculo>;
export type FilialRecord = ConsentimentoRecord['filiais'][number];
export type InstituicaoConsentida = ConsentimentoRecord['instituicoes'][number];

export const padVersao = (n: number): string => String(n).padStart(8, '0');

/** The issuer's current consent, read consistently (a removal takes effect on the next look-up). */
export async function findConsentimento(emissor: string): Promise<ConsentimentoRecord | null> {
  const { data } = await db().entities.consentimento.get({ emissor }).go({ consistent: true });
  return data;
}

export async function findConsentimentos(emissores: readonly string[]): Promise<ConsentimentoRecord[]> {
  const unique = [...new Set(emissores)];
  if (unique.length === 0) return [];
  const { data } = await db().entities.consentimento.get(unique.map((emissor) => ({ emissor }))).go();
  return data;
}

/** A consent's row as the lists read and filter it: from the consent itself (the authority's list) or from a link (a client's). */
export interface LinhaConsentimento {
  emissor: string;
  razaoSocial: string;
  razaoFolded: string;
  cnpj: string;
  uf: string;
  versao: number;
  dataAssinatura: string;
  dataVigenciaFinal?: string | undefined;
  termoFatMensal: boolean;
  updatedAt: string;
  /** The company's CNPJ and its branches'. */
  documentos: string[];
  instituicoes: { cnpj: string; tipo?: string | undefined }[];
}

export function linhaDoConsentimento(c: ConsentimentoRecord): LinhaConsentimento {
  return {
    emissor: c.emissor,
    razaoSocial: c.razaoSocial,
    razaoFolded: c.razaoFolded,
    cnpj: c.cnpj,
    uf: c.uf,
    versao: c.versao,
    dataAssinatura: c.dataAssinatura,
    dataVigenciaFinal: c.dataVigenciaFinal,
    termoFatMensal: c.termoFatMensal,
    updatedAt: c.updatedAt,
    documentos: [c.cnpj, ...c.filiais.map((f) => f.cnpj)],
    instituicoes: c.instituicoes.map((i) => ({ cnpj: i.cnpj, ...(i.tipo ? { tipo: i.tipo } : {}) })),
  };
}

/** The link of an institution the consent names: indexed (gsi1) with the consent's row. */
function vinculoNomeado(c: ConsentimentoRecord, cnpjInst: string): VinculoRecord {
  const l = linhaDoConsentimento(c);
  return {
    cnpjInst,
    emissor: c.emissor,
    nomeada: cnpjInst,
    nomeFolded: l.razaoFolded,
    emissorNome: l.emissor,
    razaoSocial: l.razaoSocial,
    cnpj: l.cnpj,
    uf: l.uf,
    versao: l.versao,
    dataAssinatura: l.dataAssinatura,
    ...(l.dataVigenciaFinal ? { dataVigenciaFinal: l.dataVigenciaFinal } : {}),
    termoFatMensal: l.termoFatMensal,
    updatedAt: l.updatedAt,
    documentos: l.documentos,
    instituicoes: l.instituicoes,
  };
}

function linhaDoVinculo(v: VinculoRecord): LinhaConsentimento {
  return {
    emissor: v.emissor,
    razaoSocial: v.razaoSocial ?? '',
    razaoFolded: v.nomeFolded ?? '',
    cnpj: v.cnpj ?? '',
    uf: v.uf ?? '',
    versao: v.versao ?? 0,
    dataAssinatura: v.dataAssinatura ?? '',
    dataVigenciaFinal: v.dataVigenciaFinal,
    termoFatMensal: v.termoFatMensal ?? false,
    updatedAt: v.updatedAt ?? '',
    documentos: v.documentos ?? [],
    instituicoes: v.instituicoes ?? [],
  };
}

interface PaginaPedida<T> {
  perPage: number;
  posicao?: string | undefined;
  aceita?: ((item: T) => boolean) | undefined;
  /** A folded name's beginning: a key range (begins_with) of the name-sorted index. */
  prefixo?: string | undefined;
}

/**
 * A page of every consent by folded name (the authority's list): one key-range Query on gsi1 from the
 * page cursor's position, with `begins_with` on the name when a prefix is given.
 */
export async function paginaDeConsentimentos(o: PaginaPedida<LinhaConsentimento>): Promise<Pagina<LinhaConsentimento>> {
  const entity = db().entities.consentimento;
  return paginaEmSequencia<LinhaConsentimento>(
    [
      async (desde, limite) => {
        const query = o.prefixo ? entity.query.all({}).begins({ razaoFolded: o.prefixo }) : entity.query.all({});
        const { data, cursor } = await query.go({ limit: limite, cursor: desde ?? null });
        return { data: data.map(linhaDoConsentimento), cursor };
      },
    ],
    (_, l) => createConversions(entity).byAccessPattern.all.fromComposite.toCursor({ emissor: l.emissor, razaoFolded: l.razaoFolded })!,
    o,
  );
}

/** The sort key of the name-sorted link index, as DynamoDB orders it (ElectroDB's lower-cased key text, byte order). */
export type ChaveNome = { n: string; e: string };
const textoDaChave = (k: ChaveNome) => Buffer.from(`${k.n}#emissornome_${k.e}`.toLowerCase(), 'utf8');
const ehChaveNome = (k: unknown): k is ChaveNome => typeof k === 'object' && k !== null && typeof (k as ChaveNome).n === 'string' && typeof (k as ChaveNome).e === 'string';

/**
 * A page of the consents naming any of the institutions (a client's list), by folded name: one Query
 * per institution on the sparse gsi1 of the links (only links the current consent names are there),
 * merged by name; a consent naming two of them is listed once.
 */
export async function paginaDeConsentimentosDasInstituicoes(bases: readonly string[], o: PaginaPedida<LinhaConsentimento>): Promise<Pagina<LinhaConsentimento>> {
  const entity = db().entities.vinculo;
  const ordenadas = [...new Set(bases)].sort();
  return paginaIntercalada<LinhaConsentimento, ChaveNome>(
    ordenadas.map((nomeada) => async (desde, limite) => {
      const query = o.prefixo ? entity.query.porNome({ nomeada }).begins({ nomeFolded: o.prefixo }) : entity.query.porNome({ nomeada });
      const { data, cursor } = await query.go({ limit: limite, cursor: desde ?? null });
      return { data: data.map(linhaDoVinculo), cursor };
    }),
    {
      ...o,
      chave: (l) => ({ n: l.razaoFolded, e: l.emissor }),
      comparar: (a, b) => Buffer.compare(textoDaChave(a), textoDaChave(b)),
      apos: (i, k) =>
        createConversions(entity).byAccessPattern.porNome.fromComposite.toCursor({ cnpjInst: ordenadas[i]!, emissor: k.e, nomeada: ordenadas[i]!, nomeFolded: k.n, emissorNome: k.e })!,
      validarChave: ehChaveNome,
    },
  );
}

/** Every version of an issuer's consent, newest first. Bounded: one per save or removal of that one issuer's consent. */
export async function versoes(emissor: string): Promise<VersaoRecord[]> {
  // Bounded: one version per save or removal of this one issuer's consent.
  const { data } = await db().entities.versao.query.byEmissor({ emissor }).go({ pages: 'all', order: 'desc' });
  return data;
}

export interface Gravacao {
  /** The version read; 0 when there was no consent. */
  versaoLida: number;
  atual: ConsentimentoRecord;
  versao: VersaoRecord;
  /** Institution base CNPJs the consent named before and names no more (their links leave the lists' index). */
  desnomeadas?: readonly string[];
}

/**
 * One transaction: the current consent (created, or put on the condition that it is still at the version
 * read), its new version (created: a version is never overwritten) and the links: one per institution it
 * names, with the row the client lists read (gsi1), and one without it per institution it named before.
 * Links are never removed: a consent that named an institution stays recorded as linked to it, as
 * evidence. At most 2 + 2 × MAX_INSTITUICOES items (82 of DynamoDB's 100).
 * Answers false when another save won (nothing was written).
 */
export async function gravar(g: Gravacao): Promise<boolean> {
  const nomeadas = new Set(g.atual.instituicoes.map((i) => i.cnpj));
  const desnomeadas = [...new Set(g.desnomeadas ?? [])].filter((c) => !nomeadas.has(c));
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ consentimento: c, versao: v, vinculo: l }) => [
        g.versaoLida === 0
          ? c.create(g.atual).commit()
          : c
              .put(g.atual)
              .where((attr, op) => op.eq(attr.versao, g.versaoLida))
              .commit(),
        v.create(g.versao).commit(),
        ...[...nomeadas].map((cnpjInst) => l.put(vinculoNomeado(g.atual, cnpjInst)).commit()),
        ...desnomeadas.map((cnpjInst) => l.put({ cnpjInst, emissor: g.atual.emissor }).commit()),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data.some((d) => d.code === 'ConditionalCheckFailed' || d.code === 'TransactionConflict')) return false;
  throw new Error(`consent change cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/**
 * Rewrites the links of the institutions a consent names with its list row (idempotent puts): the
 * one-off backfill of consents saved before the links carried it (scripts/backfill-consent-links.ts).
 */
export async function reescreverVinculos(c: ConsentimentoRecord): Promise<void> {
  const cnpjs = [...new Set(c.instituicoes.map((i) => i.cnpj))];
  for (let i = 0; i < cnpjs.length; i += 25) {
    await db().entities.vinculo.put(cnpjs.slice(i, i + 25).map((cnpjInst) => vinculoNomeado(c, cnpjInst))).go();
  }
}

/** Every consent, a page at a time (the backfill's walk): one Query of gsi1 per page. */
export async function consentimentosAPartirDe(cursor: string | null): Promise<{ data: ConsentimentoRecord[]; cursor: string | null }> {
  const { data, cursor: proximo } = await db().entities.consentimento.query.all({}).go({ limit: 100, cursor });
  return { data, cursor: proximo };
}

/** The sort key of the transport consents (newest first), as DynamoDB orders it. */
export type ChaveTransporte = { d: string; i: string };
const textoDaChaveTransporte = (k: ChaveTransporte) => Buffer.from(`${k.d}#id_${k.i}`.toLowerCase(), 'utf8');
const ehChaveTransporte = (k: unknown): k is ChaveTransporte =>
  typeof k === 'object' && k !== null && typeof (k as ChaveTransporte).d === 'string' && typeof (k as ChaveTransporte).i === 'string';

interface PaginaDeTransportes {
  perPage: number;
  posicao?: string | undefined;
  aceita?: ((t: TransporteRecord) => boolean) | undefined;
  /** Signature instants (ISO, both included): a key range. */
  de?: string | undefined;
  ate?: string | undefined;
}

/** The signature range of a transport query: the dates' instants, or every instant. '~' sorts after every id, so a consent signed at exactly `ate` is in. */
const faixa = (o: PaginaDeTransportes) => [{ dataAssinatura: o.de ?? '0000' }, { dataAssinatura: `${o.ate ?? '9999'}~` }] as const;

/** A page of every carrier's and drawer's consent, newest first (the authority's list): one key-range Query on gsi1. */
export async function paginaDeTransportes(o: PaginaDeTransportes): Promise<Pagina<TransporteRecord>> {
  const entity = db().entities.transporte;
  return paginaEmSequencia<TransporteRecord>(
    [
      async (desde, limite) => {
        const { data, cursor } = await entity.query.all({}).between(...faixa(o)).go({ order: 'desc', limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, t) => createConversions(entity).byAccessPattern.all.fromComposite.toCursor(t)!,
    o,
  );
}

/**
 * A page of the consents given to any of the institutions (a client's list), newest first: one
 * key-range Query per institution on its partition (sorted by signature instant), merged.
 */
export async function paginaDeTransportesDasInstituicoes(bases: readonly string[], o: PaginaDeTransportes): Promise<Pagina<TransporteRecord>> {
  const entity = db().entities.transporte;
  const ordenadas = [...new Set(bases)].sort();
  return paginaIntercalada<TransporteRecord, ChaveTransporte>(
    ordenadas.map((cnpjInst) => async (desde, limite) => {
      const { data, cursor } = await entity.query.byInstituicao({ cnpjInst }).between(...faixa(o)).go({ order: 'desc', limit: limite, cursor: desde ?? null });
      return { data, cursor };
    }),
    {
      ...o,
      chave: (t) => ({ d: t.dataAssinatura, i: t.id }),
      // Newest first: the larger key comes first.
      comparar: (a, b) => Buffer.compare(textoDaChaveTransporte(b), textoDaChaveTransporte(a)),
      apos: (i, k) => createConversions(entity).byAccessPattern.byInstituicao.fromComposite.toCursor({ cnpjInst: ordenadas[i]!, dataAssinatura: k.d, id: k.i })!,
      validarChave: ehChaveTransporte,
    },
  );
}

/** A page of the consents a carrier or drawer (a whole CNPJ or CPF) gave: one Query on gsi2. */
export async function paginaDeTransportesDoSacador(sacadorDocumento: string, o: PaginaDeTransportes): Promise<Pagina<TransporteRecord>> {
  const entity = db().entities.transporte;
  return paginaEmSequencia<TransporteRecord>(
    [
      async (desde, limite) => {
        const { data, cursor } = await entity.query.bySacador({ sacadorDocumento }).go({ limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, t) => createConversions(entity).byAccessPattern.bySacador.fromComposite.toCursor(t)!,
    o,
  );
}

/** The consents a carrier or drawer (CNPJ or CPF) gave, to any institution: one Query on gsi2. Bounded: one per institution it named (and its re-signatures). */
export async function transportesDoSacador(sacadorDocumento: string): Promise<TransporteRecord[]> {
  // Bounded: one consent per institution this carrier or drawer named, with its re-signatures.
  const { data } = await db().entities.transporte.query.bySacador({ sacadorDocumento }).go({ pages: 'all' });
  return data;
}

/**
 * A carrier's or drawer's consent (they come from outside the portal: the twin seeds a few). The id is
 * its identity, but the signature instant is part of the key (an institution's consents sort by it): a
 * consent written again with another signature instant replaces the one before, in one transaction
 * (found by its document, institution and id on gsi2).
 */
export async function putTransporte(record: TransporteRecord): Promise<void> {
  // Bounded: the key prefix names one carrier, one institution and one id (its signatures of that consent).
  const { data } = await db()
    .entities.transporte.query.bySacador({ sacadorDocumento: record.sacadorDocumento, cnpjInst: record.cnpjInst, id: record.id })
    // Bounded: one carrier, one institution, one consent id: that consent's signatures.
    .go({ pages: 'all' });
  const antigos = data.filter((t) => t.id === record.id && t.cnpjInst === record.cnpjInst && t.dataAssinatura !== record.dataAssinatura);
  if (antigos.length === 0) {
    await db().entities.transporte.put(record).go();
    return;
  }
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ transporte: t }) => [
        t.put(record).commit(),
        ...antigos.map((a) => t.delete({ cnpjInst: a.cnpjInst, dataAssinatura: a.dataAssinatura, id: a.id }).commit()),
      ])
      .go(),
  );
  if (result.canceled) throw new Error(`transport consent not replaced: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}
