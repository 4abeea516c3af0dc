import { Service, Entity, type EntityItem } from 'electrodb';
import { AUTORIZACAO_STATUS, INSTITUICAO_SITUACOES, INSTITUICAO_TIPOS } from '@plac/shared/domain';
import { conflict } from '../platform/errors';
import { isConditionalFailure, tableConfig } from '../platform/table';

/**
 * Financial institutions and ESF authorisations. Access patterns:
 * - an institution by id (key); all institutions ordered by folded name (gsi1, one partition: the
 *   registry holds hundreds, not millions, so filters and the autocomplete read that one Query);
 * - the base CNPJ is unique: a claim item written in the same transaction as the institution;
 * - a client's authorisations (key: client id, sort key the institution's base CNPJ), so a client
 *   reaches its own with one Query and one per institution by key.
 */
const instituicao = new Entity({
  model: { entity: 'instituicao', version: '1', service: 'instituicoes' },
  attributes: {
    instituicaoId: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    razaoFolded: { type: 'string', required: true },
    cnpj: { type: 'string', required: true },
    uf: { type: 'string', required: true },
    tipo: { type: INSTITUICAO_TIPOS },
    situacao: { type: INSTITUICAO_SITUACOES, required: true },
    regulada: { type: 'boolean', required: true },
    /** The CNPJ of the issuer that created it (such an institution starts as situacao NOVO). */
    emissorCnpj: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
    deletedAt: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['instituicaoId'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['razaoFolded', 'instituicaoId'] } },
  },
});

const instituicaoCnpj = new Entity({
  model: { entity: 'instituicaoCnpj', version: '1', service: 'instituicoes' },
  attributes: { cnpj: { type: 'string', required: true }, instituicaoId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['cnpj'] }, sk: { field: 'sk', composite: [] } } },
});

const autorizacao = new Entity({
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
});

let service: Service<{ instituicao: typeof instituicao; instituicaoCnpj: typeof instituicaoCnpj; autorizacao: typeof autorizacao }> | undefined;
const db = () => (service ??= new Service({ instituicao, instituicaoCnpj, autorizacao }, tableConfig()));

export type InstituicaoRecord = EntityItem<typeof instituicao>;
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

/** Every institution, ordered by folded name. */
export async function listInstituicoes(): Promise<InstituicaoRecord[]> {
  // Bounded: the financial institutions clients name, registered one by one (hundreds at most).
  const { data } = await db().entities.instituicao.query.all({}).go({ pages: 'all' });
  return data.filter((i) => !i.deletedAt);
}

/** A new institution with its base CNPJ claimed atomically: a second one with the same CNPJ loses (409). */
export async function createInstituicao(record: InstituicaoRecord): Promise<void> {
  const result = await db()
    .transaction.write(({ instituicao, instituicaoCnpj }) => [
      instituicao.create(record).commit(),
      instituicaoCnpj.create({ cnpj: record.cnpj, instituicaoId: record.instituicaoId }).commit(),
    ])
    .go();
  settle(result);
}

/** Changes an institution if nobody changed it since it was read (optimistic lock on updatedAt). */
export async function updateInstituicao(before: InstituicaoRecord, changes: Partial<InstituicaoRecord>): Promise<void> {
  const { instituicaoId: _id, cnpj: _cnpj, createdAt: _c, ...rest } = changes;
  const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  try {
    await db()
      .entities.instituicao.patch({ instituicaoId: before.instituicaoId })
      .set(set as never)
      .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
      .go();
  } catch (error) {
    if (isConditionalFailure(error)) throw conflict('recursoDuplicado');
    throw error;
  }
}

/** Soft delete: the record stays for the audit trail; its base CNPJ is free again. */
export async function deleteInstituicao(before: InstituicaoRecord, by: string): Promise<void> {
  const now = new Date().toISOString();
  const result = await db()
    .transaction.write(({ instituicao, instituicaoCnpj }) => [
      instituicao
        .patch({ instituicaoId: before.instituicaoId })
        .set({ deletedAt: now, updatedAt: now, updatedBy: by })
        .where((attr, op) => op.eq(attr.updatedAt, before.updatedAt))
        .commit(),
      instituicaoCnpj
        .delete({ cnpj: before.cnpj })
        .where((attr, op) => op.eq(attr.instituicaoId, before.instituicaoId))
        .commit(),
    ])
    .go();
  settle(result);
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
