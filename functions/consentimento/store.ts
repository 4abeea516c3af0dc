import { Entity, Service, type EntityItem } from 'electrodb';
import { tableConfig, transactWithRetry } from '../platform/table';

/**
 * The issuers' consents (docs/data-model.md, "Consent"). Entities:
 * - consentimento: an issuer's current consent, by its base CNPJ (GetItem: the look-ups' check and the
 *   wizard); every consent in one gsi1 partition by folded name (the authority's list);
 * - versao: every version ever saved, under the issuer's partition, never overwritten (conditional
 *   create): when, who (certificate CNPJ and user), what (the whole consent as saved);
 * - vinculo: one item per (institution base CNPJ, issuer) the consent names or named, under the
 *   institution's partition, so a client's list is one Query per institution it is authorised for;
 * - transporte: a carrier's or drawer's consent given to an institution, under the institution's
 *   partition (the client's list) and in one gsi1 partition (the authority's list).
 * A save is one transaction: the current item put on the condition that its version is the one read
 * (or created), the new version created, and the links written or removed.
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

const consentimento = new Entity({
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
});

const versao = new Entity({
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
});

const vinculo = new Entity({
  model: { entity: 'vinculo', version: '1', service: 'consentimento' },
  attributes: {
    cnpjInst: { type: 'string', required: true },
    emissor: { type: 'string', required: true },
  },
  indexes: {
    byInstituicao: { pk: { field: 'pk', composite: ['cnpjInst'] }, sk: { field: 'sk', composite: ['emissor'] } },
  },
});

const transporte = new Entity({
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
    byInstituicao: { pk: { field: 'pk', composite: ['cnpjInst'] }, sk: { field: 'sk', composite: ['id'] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['dataAssinatura', 'id'] } },
    // The consents a carrier or drawer gave (the TRANSPORTE_* webhook producers).
    bySacador: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['sacadorDocumento'] }, sk: { field: 'gsi2sk', composite: ['cnpjInst', 'id'] } },
  },
});

type Entities = { consentimento: typeof consentimento; versao: typeof versao; vinculo: typeof vinculo; transporte: typeof transporte };
let service: Service<Entities> | undefined;
const db = () => (service ??= new Service({ consentimento, versao, vinculo, transporte }, tableConfig()));

export type ConsentimentoRecord = EntityItem<typeof consentimento>;
export type VersaoRecord = EntityItem<typeof versao>;
export type TransporteRecord = EntityItem<typeof transporte>;
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

/** Every consent, ordered by folded name (one Query on gsi1). */
export async function listConsentimentos(): Promise<ConsentimentoRecord[]> {
  const { data } = await db().entities.consentimento.query.all({}).go({ pages: 'all' });
  return data;
}

/** The issuers whose consent names (or named) the institution: one Query on its partition. */
export async function emissoresDaInstituicao(cnpjInst: string): Promise<string[]> {
  const { data } = await db().entities.vinculo.query.byInstituicao({ cnpjInst }).go({ pages: 'all' });
  return data.map((v) => v.emissor);
}

/** Every version of an issuer's consent, newest first. */
export async function versoes(emissor: string): Promise<VersaoRecord[]> {
  const { data } = await db().entities.versao.query.byEmissor({ emissor }).go({ pages: 'all', order: 'desc' });
  return data;
}

export interface Gravacao {
  /** The version read; 0 when there was no consent. */
  versaoLida: number;
  atual: ConsentimentoRecord;
  versao: VersaoRecord;
  /** Institution base CNPJs to link (those named now and not before). */
  vincular: string[];
}

/**
 * One transaction: the current consent (created, or put on the condition that it is still at the version
 * read), its new version (created: a version is never overwritten) and the new institution links. Links
 * are never removed: a consent that named an institution stays visible to it, as evidence.
 * Answers false when another save won (nothing was written).
 */
export async function gravar(g: Gravacao): Promise<boolean> {
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
        ...g.vincular.map((cnpjInst) => l.put({ cnpjInst, emissor: g.atual.emissor }).commit()),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data.some((d) => d.code === 'ConditionalCheckFailed' || d.code === 'TransactionConflict')) return false;
  throw new Error(`consent change cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

export async function transportesDaInstituicao(cnpjInst: string): Promise<TransporteRecord[]> {
  const { data } = await db().entities.transporte.query.byInstituicao({ cnpjInst }).go({ pages: 'all' });
  return data;
}

export async function listTransportes(): Promise<TransporteRecord[]> {
  const { data } = await db().entities.transporte.query.all({}).go({ pages: 'all' });
  return data;
}

/** The consents a carrier or drawer (CNPJ or CPF) gave, to any institution: one Query on gsi2. */
export async function transportesDoSacador(sacadorDocumento: string): Promise<TransporteRecord[]> {
  const { data } = await db().entities.transporte.query.bySacador({ sacadorDocumento }).go({ pages: 'all' });
  return data;
}

/** A carrier's or drawer's consent (they come from outside the portal: the twin seeds a few). */
export async function putTransporte(record: TransporteRecord): Promise<void> {
  await db().entities.transporte.put(record).go();
}
