import type { instituicoes, ResponseOf } from '@plac/shared/contracts';
import {
  INSTITUICAO_SITUACAO_LABELS,
  INSTITUICAO_SITUACOES,
  INSTITUICAO_TIPOS,
  type InstituicaoSituacao,
  type InstituicaoTipo,
} from '@plac/shared/domain';

/** What the institution screens share: the list and the form. */

export type Instituicao = ResponseOf<typeof instituicoes.getInstituicao>;
export type { InstituicaoResumo } from '../../components/InstituicaoAutoComplete';

export { DEFAULT_PAGE_SIZE, isPageSize, PAGE_SIZES, type PageSize } from '../../components/listing';

export { UF_OPTIONS } from '../../lib/opcoes';

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
