import { Entity, createConversions, type EntityItem } from 'electrodb';
import { AUTORIZACAO_STATUS, INSTITUICAO_SITUACOES, INSTITUICAO_TIPOS } from '@plac/shared/domain';
import { paginaEmSequencia, paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { conflict, HttpError } from '../platform/errors';
import { isConditionalFailure } from '../platform/table';
import { chavesDoIndice, chaveTexto, type ChaveDoIndice } from './indice';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Financial institutions and ESF authorisations. Access patterns:
 * - an institution by id (key); the registry in name order (gsi1, partition `lista` 'registro'; a
 *   removed one moves to 'removida');
 * - the keys it is found by (`instituicaoIndice`, ./indice.ts): words of its name per who may see it,
 *   its base CNPJ, its UF, its status; written in the transaction that writes the institution, so the
 *   autocomplete, the top 5 and the registry filter each read one key range of one page (issuers create
 *   institutions: the registry grows with them);
 * - the base CNPJ is unique: a claim item written in the same transaction as the institution;
 * - a client's authorisations (key: client id, sort key the institution's base CNPJ), so a client
 *   reaches its own with one Query and one per institution by key.
 */
/** What an institution is shown and filtered by: on the institution and on each of its keys. */
const resumoDaInstituicao = {
  instituicaoId: { type: 'string', required: true },
  razaoSocial: { type: 'string', required: true },
  razaoFolded: { type: 'string', required: true },
  cnpj: { type: 'string', required: true },
  uf: { type: 'string', required: true },
  tipo: { type: INSTITUICAO_TIPOS },
  situacao: { type: INSTITUICAO_SITUACOES, required: true },
  /** The CNPJ of the issuer that created it (such an institution starts as situacao NOVO). */
  emissorCnpj: { type: 'string' },
} as const;

// Kept: the registry of institutions is reference data; a removal is soft (the record stays for the audit trail).
const instituicao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'instituicao', version: '1', service: 'instituicoes' },
  attributes: {
    ...resumoDaInstituicao,
    regulada: { type: 'boolean', required: true },
    /** The partition of gsi1: 'registro', or 'removida' once removed (absent: stored before issue 38). */
    lista: { type: ['registro', 'removida'] as const },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
    deletedAt: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['instituicaoId'] }, sk: { field: 'sk', composite: [] } },
    porLista: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['lista'] }, sk: { field: 'gsi1sk', composite: ['razaoFolded', 'instituicaoId'] } },
  },
}));

/**
 * Read-only view of the institutions as keyed before issue 38 (never written): all in one gsi1
 * partition, with no index keys. One leaves it when it is written again (an edit, or
 * infra/migrations/instituicoes-indice.ts); until then the reads take it in beside the keys, so nothing
 * is missing meanwhile. The same entity and version: the same items, another view.
 * Kept: read-only view of items of before issue 38.
 */
const instituicaoAntiga = entidadeSobDemanda(() => new Entity({
  model: { entity: 'instituicao', version: '1', service: 'instituicoes' },
  attributes: { ...instituicao.schema.attributes },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['instituicaoId'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['razaoFolded', 'instituicaoId'] } },
  },
}));

/**
 * A key an institution is found by, with its summary (./indice.ts). Kept: written and deleted with its
 * institution (an edit deletes the keys it no longer has): about ten per institution.
 */
const instituicaoIndice = entidadeSobDemanda(() => new Entity({
  model: { entity: 'instituicaoIndice', version: '1', service: 'instituicoes' },
  attributes: {
    grupo: { type: 'string', required: true },
    termo: { type: 'string', required: true },
    ...resumoDaInstituicao,
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    porGrupo: { pk: { field: 'pk', composite: ['grupo'] }, sk: { field: 'sk', composite: ['termo', 'instituicaoId'] } },
  },
}));

/** Kept: the base CNPJ's uniqueness claim, freed when its institution is removed. */
const instituicaoCnpj = entidadeSobDemanda(() => new Entity({
  model: { entity: 'instituicaoCnpj', version: '1', service: 'instituicoes' },
  attributes: { cnpj: { type: 'string', required: true }, instituicaoId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['cnpj'] }, sk: { field: 'sk', composite: [] } } },
}));

/** Kept: a client's authorisation of an institution (its signed PDF in the bucket), one per pair: the client's reference data. */
const autorizacao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'autorizacao', version: '1', service: 'instituicoes' },
  attributes: {
    clienteId: { type: 'string', required: true },
    /** The institution's base CNPJ. */
    cnpjInst: { type: 'string', required: true },
    instituicaoId: { type: 'string', required: true },
    /** The institution's name when the authorisation was made (shown if the institution is removed). */
    razaoSocialInst: { type: 'string', required: true },
    cnpjCliente: { type: 'string', required: true },
    razaoSocialCliente: { type: 'string', required: true },
    status: { type: AUTORIZACAO_STATUS, required: true },
    dataAutorizacao: { type: 'string', required: true },
    justificativa: { type: 'string' },
    arquivoKey: { type: 'string', required: true },
    nomeArquivo: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['cnpjInst'] } },
  },
}));

const db = servicoSobDemanda({ instituicao, instituicaoCnpj, autorizacao, instituicaoIndice });
const dbLegado = servicoSobDemanda({ instituicaoAntiga });

export type InstituicaoRecord = EntityItem<typeof instituicao>;
export type IndiceRecord = EntityItem<typeof instituicaoIndice>;
export type AutorizacaoRecord = EntityItem<typeof autorizacao>;

/** A conditional write that lost (ElectroDB wraps the SDK's error in `cause`). */
function settle(result: { canceled: boolean }) {
  if (result.canceled) throw conflict('recursoDuplicado');
}

export async function findInstituicao(instituicaoId: string): Promise<InstituicaoRecord | null> {
  const { data } = await db().entities.instituicao.get({ instituicaoId }).go();
  return data && !data.deletedAt ? data : null;
}

export async function findInstituicaoByCnpj(cnpj: string): Promise<InstituicaoRecord | null> {
  const { data } = await db().entities.instituicaoCnpj.get({ cnpj }).go();
  return data ? findInstituicao(data.instituicaoId) : null;
}

/** The index items of an institution: its keys (./indice.ts) with its summary. */
function indiceDe(r: InstituicaoRecord): IndiceRecord[] {
  if (r.deletedAt) return [];
  const resumo = {
    razaoSocial: r.razaoSocial,
    razaoFolded: r.razaoFolded,
    cnpj: r.cnpj,
    uf: r.uf,
    situacao: r.situacao,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.tipo ? { tipo: r.tipo } : {}),
    ...(r.emissorCnpj ? { emissorCnpj: r.emissorCnpj } : {}),
  };
  return chavesDoIndice(r).map((c) => ({ ...c, ...resumo }));
}

/** A new institution with its base CNPJ claimed and its keys, atomically: a second one with the same CNPJ loses (409). */
export async function createInstituicao(record: InstituicaoRecord): Promise<void> {
  const r: InstituicaoRecord = { ...record, lista: 'registro' };
  const result = await db()
    .transaction.write(({ instituicao, instituicaoCnpj, instituicaoIndice }) => [
      instituicao.create(r).commit(),
      instituicaoCnpj.create({ cnpj: r.cnpj, instituicaoId: r.instituicaoId }).commit(),
      ...indiceDe(r).map((i) => instituicaoIndice.put(i).commit()),
    ])
    .go();
  settle(result);
}

/**
 * The writes that take an institution from `before` to `after` in one transaction: the institution
 * (if nobody changed it since it was read: optimistic lock on updatedAt), the keys it no longer has
 * removed and its keys written again (they carry its summary). An institution of before issue 38
 * gains its keys and leaves the old partition here.
 */
async function reescrever(before: InstituicaoRecord, after: InstituicaoRecord, set: Partial<InstituicaoRecord>, extra: 'liberarCnpj' | null) {
  const novas = indiceDe(after);
  const ficam = new Set(novas.map(chaveTexto));
  const saem = indiceDe({ ...before, deletedAt: undefined } as InstituicaoRecord).filter((c) => !ficam.has(chaveTexto(c)));
  const result = await db()
    .transaction.write(({ instituicao, instituicaoCnpj, instituicaoIndice }) => [
      instituicao
        .patch({ instituicaoId: before.instituicaoId })
        .set(set as never)
        .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
        .commit(),
      ...(extra === 'liberarCnpj'
        ? [instituicaoCnpj.delete({ cnpj: before.cnpj }).where((attr, op) => op.eq(attr.instituicaoId, before.instituicaoId)).commit()]
        : []),
      ...saem.map((c: ChaveDoIndice) => instituicaoIndice.delete(c).commit()),
      ...novas.map((i) => instituicaoIndice.put(i).commit()),
    ])
    .go();
  settle(result);
}

/** Changes an institution if nobody changed it since it was read (optimistic lock on updatedAt), and its keys with it. */
export async function updateInstituicao(before: InstituicaoRecord, changes: Partial<InstituicaoRecord>): Promise<void> {
  const { instituicaoId: _id, cnpj: _cnpj, createdAt: _c, lista: _l, ...rest } = changes;
  const set = {
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    // gsi1's key is written whole: its partition and its sort key's parts.
    lista: 'registro',
    razaoFolded: rest.razaoFolded ?? before.razaoFolded,
  } as Partial<InstituicaoRecord>;
  await reescrever(before, { ...before, ...set }, set, null);
}

/** Soft delete: the record stays for the audit trail (out of the registry's partition); its base CNPJ is free again and its keys go. */
export async function deleteInstituicao(before: InstituicaoRecord, by: string): Promise<void> {
  const now = new Date().toISOString();
  const set: Partial<InstituicaoRecord> = { deletedAt: now, updatedAt: now, updatedBy: by, lista: 'removida', razaoFolded: before.razaoFolded };
  await reescrever(before, { ...before, ...set }, set, 'liberarCnpj');
}

/** Institutions by id (a page's names), one BatchGet; removed ones left out. */
export async function instituicoesPorId(ids: readonly string[]): Promise<InstituicaoRecord[]> {
  const unicos = [...new Set(ids)];
  if (unicos.length === 0) return [];
  const { data } = await db().entities.instituicao.get(unicos.map((instituicaoId) => ({ instituicaoId }))).go();
  return data.filter((r) => !r.deletedAt);
}

// ---- reads by key (a page at a time) ----------------------------------------------------------------

/** One key range of the index: the keys of `grupo` whose termo starts with `prefixo` (all of them without one). */
export function lerGrupo(grupo: string, prefixo?: string): Ler<IndiceRecord> {
  return async (desde, limite) => {
    const q = db().entities.instituicaoIndice.query.porGrupo({ grupo });
    const { data, cursor } = await (prefixo ? q.begins({ termo: prefixo }) : q).go({ limit: limite, cursor: desde ?? null });
    return { data, cursor };
  };
}

/** The registry in name order. */
export const lerRegistro: Ler<InstituicaoRecord> = async (desde, limite) => {
  const { data, cursor } = await db().entities.instituicao.query.porLista({ lista: 'registro' }).go({ limit: limite, cursor: desde ?? null });
  return { data, cursor };
};

/** The institutions of before issue 38 not yet written again, in name order (none once migrated). */
export const lerAntigas: Ler<InstituicaoRecord> = async (desde, limite) => {
  const { data, cursor } = await dbLegado().entities.instituicaoAntiga.query.all({}).go({ limit: limite, cursor: desde ?? null });
  return { data: data as InstituicaoRecord[], cursor };
};

const aposNoGrupo = (i: IndiceRecord) =>
  createConversions(db().entities.instituicaoIndice).byAccessPattern.porGrupo.fromComposite.toCursor({ grupo: i.grupo, termo: i.termo, instituicaoId: i.instituicaoId })!;
const aposNoRegistro = (r: { razaoFolded: string; instituicaoId: string }) =>
  createConversions(db().entities.instituicao).byAccessPattern.porLista.fromComposite.toCursor({ lista: 'registro', razaoFolded: r.razaoFolded, instituicaoId: r.instituicaoId })!;
const aposNasAntigas = (r: { razaoFolded: string; instituicaoId: string }) =>
  createConversions(dbLegado().entities.instituicaoAntiga).byAccessPattern.all.fromComposite.toCursor({ razaoFolded: r.razaoFolded, instituicaoId: r.instituicaoId })!;

export type Encontrada = IndiceRecord | InstituicaoRecord;

/**
 * A page of a key range (or of the registry), then the institutions of before issue 38 that pass
 * `aceita` (the same filter), from the caller's position: bounded rounds (platform/paginas).
 */
export function paginaDoIndice(
  fonte: { grupo: string; prefixo?: string | undefined } | 'registro',
  o: { perPage: number; posicao?: string | undefined; aceita?: (r: Encontrada) => boolean },
): Promise<Pagina<Encontrada>> {
  const primeira: Ler<Encontrada> = fonte === 'registro' ? lerRegistro : lerGrupo(fonte.grupo, fonte.prefixo);
  const aceita = o.aceita;
  return paginaEmSequencia<Encontrada>([primeira, lerAntigas], (i, item) => (i === 1 ? aposNasAntigas(item) : fonte === 'registro' ? aposNoRegistro(item) : aposNoGrupo(item as IndiceRecord)), {
    perPage: o.perPage,
    posicao: o.posicao,
    aceita: (r) => !('deletedAt' in r && r.deletedAt) && (!aceita || aceita(r)),
  });
}

/** The first `n` of the registry in name order that pass `aceita` (the merged partitions of now and of before issue 38). */
export async function primeirasDoRegistro(n: number, aceita?: (r: InstituicaoRecord) => boolean): Promise<InstituicaoRecord[]> {
  const { items } = await paginaIntercalada<InstituicaoRecord, [string, string]>([lerRegistro, lerAntigas], {
    perPage: n,
    aceita: (r) => !r.deletedAt && (!aceita || aceita(r)),
    chave: (r) => [r.razaoFolded, r.instituicaoId],
    comparar: (a, b) => (a[0] + '\u0000' + a[1] < b[0] + '\u0000' + b[1] ? -1 : a[0] === b[0] && a[1] === b[1] ? 0 : 1),
    apos: (i, [razaoFolded, instituicaoId]) => (i === 0 ? aposNoRegistro({ razaoFolded, instituicaoId }) : aposNasAntigas({ razaoFolded, instituicaoId })),
    validarChave: (k): k is [string, string] => Array.isArray(k) && k.length === 2 && k.every((p) => typeof p === 'string'),
  });
  return items;
}

/** A page of the institutions of before issue 38 (infra/migrations/instituicoes-indice.ts walks it). */
export async function instituicoesAntigas(desde: string | undefined, limite: number) {
  return lerAntigas(desde, limite);
}

/** Writes an institution of before issue 38 again, unchanged, with its keys: it leaves the old partition. False if it changed meanwhile five times or is gone. */
export async function indexarInstituicaoAntiga(instituicaoId: string): Promise<boolean> {
  for (let tentativa = 0; tentativa < 5; tentativa++) {
    const { data: r } = await db().entities.instituicao.get({ instituicaoId }).go({ consistent: true });
    if (!r) return false;
    if (r.lista) return false;
    try {
      if (r.deletedAt) await reescrever(r, { ...r, lista: 'removida' }, { lista: 'removida', razaoFolded: r.razaoFolded }, null);
      else await updateInstituicao(r, {});
      return true;
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 409)) throw error;
    }
  }
  return false;
}

/** An institution as stored before issue 38 (old gsi1 partition, no keys): for the migration's test. */
export async function gravarInstituicaoAntiga(record: InstituicaoRecord): Promise<void> {
  await dbLegado().entities.instituicaoAntiga.create({ ...record, lista: undefined } as never).go();
  await db().entities.instituicaoCnpj.create({ cnpj: record.cnpj, instituicaoId: record.instituicaoId }).go();
}

export async function findAutorizacao(clienteId: string, cnpjInst: string): Promise<AutorizacaoRecord | null> {
  const { data } = await db().entities.autorizacao.get({ clienteId, cnpjInst }).go();
  return data;
}

export async function autorizacoesDoCliente(clienteId: string): Promise<AutorizacaoRecord[]> {
  // Bounded: one client's authorisations, one per institution it authorised.
  const { data } = await db().entities.autorizacao.query.byCliente({ clienteId }).go({ pages: 'all' });
  return data;
}

/** One authorisation per client and institution: `create` fails when it exists. */
export async function createAutorizacao(record: AutorizacaoRecord): Promise<boolean> {
  try {
    await db().entities.autorizacao.create(record).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** Changes an authorisation if nobody changed it since it was read (optimistic lock on updatedAt). */
export async function updateAutorizacao(
  before: AutorizacaoRecord,
  changes: Partial<AutorizacaoRecord>,
  remove: readonly ('justificativa')[] = [],
): Promise<void> {
  const { clienteId: _c, cnpjInst: _i, ...rest } = changes;
  const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  try {
    await db()
      .entities.autorizacao.patch({ clienteId: before.clienteId, cnpjInst: before.cnpjInst })
      .set(set as never)
      .remove([...remove] as never)
      .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
      .go();
  } catch (error) {
    if (isConditionalFailure(error)) throw conflict('recursoDuplicado');
    throw error;
  }
}
