import type { instituicoes, ResponseOf } from '@plac/shared/contracts';
import {
  INSTITUICAO_SITUACAO_LABELS,
  INSTITUICAO_SITUACOES,
  INSTITUICAO_TIPOS,
  UFS,
  type InstituicaoSituacao,
  type InstituicaoTipo,
} from '@plac/shared/domain';

/** What the institution screens share: the list and the form. */

export type Instituicao = ResponseOf<typeof instituicoes.getInstituicao>;
export type InstituicaoResumo = ResponseOf<typeof instituicoes.top5Instituicoes>[number];

export { PAGE_SIZES } from '../../components/listing';
import { PAGE_SIZES } from '../../components/listing';
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 25;

export function isPageSize(value: unknown): value is PageSize {
  return (PAGE_SIZES as readonly unknown[]).includes(value);
}

export const UF_OPTIONS = UFS.map((u) => ({ value: u.uf, label: `${u.uf} - ${u.nome}` }));

export const TIPO_OPTIONS: readonly { value: InstituicaoTipo; label: string }[] = INSTITUICAO_TIPOS.map((t) => ({ value: t, label: t }));

export const SITUACAO_OPTIONS: readonly { value: InstituicaoSituacao; label: string }[] = INSTITUICAO_SITUACOES.map((s) => ({
  value: s,
  label: INSTITUICAO_SITUACAO_LABELS[s],
}));

export function situacaoLabel(situacao: InstituicaoSituacao): string {
  return INSTITUICAO_SITUACAO_LABELS[situacao];
}

/** Router state of instituicao-financeira-form: the institution to edit (param instFin); none creates. */
export interface InstituicaoFormState {
  instFin?: string;
}
