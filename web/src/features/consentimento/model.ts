import type { consentimento, ResponseOf } from '@plac/shared/contracts';
import { cnpjBase, isValidCnpj, normalizeCnpj } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';

export type Termo = ResponseOf<typeof consentimento.getTermo>;
export type EmissorLinha = ResponseOf<typeof consentimento.filtrarEmissores>['items'][number];
export type TransporteLinha = ResponseOf<typeof consentimento.filtrarTransporte>['items'][number];
export type Detalhe = ResponseOf<typeof consentimento.detalharEmissor>;

/** A branch as the wizard edits it: `persistida` when the stored consent has it (createdAt). */
export interface FilialEdit {
  cnpj: string;
  razaoSocial: string;
  email: string;
  uf: string;
  termoFatMensal: boolean;
  persistida: boolean;
}

/** An institution as the wizard edits it. `situacao` NOVO: created by this issuer (editable, deletable). */
export interface InstituicaoEdit {
  id: string;
  razaoSocial: string;
  cnpj: string;
  uf: string;
  situacao: string;
  termoFatMensal: boolean;
}

/**
 * A branch can be removed and have its CNPJ and UF edited unless it is the certificate's own branch or
 * one already persisted (spec 1, 4).
 */
export const filialFixa = (f: FilialEdit, cnpjProprio: string) => f.persistida || f.cnpj === cnpjProprio;

/**
 * The new branch's CNPJ (spec 1, 5): valid ('O Cnpj informado é inválido.'), of the user's base ('O
 * Cnpj informado deve pertencer ao Cnpj Base.'), not yet listed ('Já foi informada a Filial com esse
 * Cnpj.'). Null when it may be added.
 */
export function erroNovaFilial(cnpj: string, base: string, filiais: readonly FilialEdit[]): string | null {
  const v = normalizeCnpj(cnpj);
  if (!isValidCnpj(v)) return MESSAGES.cnpjInvalido;
  if (cnpjBase(v) !== base) return MESSAGES.cnpjFilialForaDoBase;
  if (filiais.some((f) => f.cnpj === v)) return MESSAGES.filialDuplicada;
  return null;
}

/** The consent search's page sizes; 25 by default (spec 3, 9). */
export const PER_PAGE_DEFAULT = 25;

/** Where the detail page gets its issuer: router state (spec 3: the detail takes an issuer object). */
export interface DetalheState {
  emissor: Pick<EmissorLinha, 'id' | 'razaoSocial' | 'cnpj'>;
}
