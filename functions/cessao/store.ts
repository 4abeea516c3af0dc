import { Entity } from 'electrodb';
import { DIAS_FISCAIS, expiraAposDias } from '../platform/retencao';
import { isConditionalFailure } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';
import { MODELO_CESSAO, type CessaoRecord } from './modelos';
export { cessoesDaFate } from './leituras';

const cessao = entidadeSobDemanda(() => new Entity(MODELO_CESSAO));

const entities = { cessao };
const db = servicoSobDemanda(entities);

export type { CessaoRecord } from './modelos';

/** The end date of an assignment registered at `registradaEm` (see `expiresAt`). */
export const expiraCessao = (registradaEm: string) => expiraAposDias(registradaEm, DIAS_FISCAIS);

/** Creates the item, with its end date; false when the instalment already has one (nothing changed). */
export async function criar(record: CessaoRecord): Promise<boolean> {
  try {
    await db().entities.cessao.create({ ...record, expiresAt: record.expiresAt ?? expiraCessao(record.registradaEm) }).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/** The instalment's assignment (a consistent read: the one that won the create). */
export async function cessaoDa(chave: string, nDup: string): Promise<CessaoRecord | null> {
  const { data } = await db().entities.cessao.get({ chave, nDup }).go({ consistent: true });
  return data;
}

