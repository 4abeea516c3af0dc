import type { Role, UserType } from '@plac/shared/access';
import type { ResponseOf, users } from '@plac/shared/contracts';

/** What the user screens share: the user record, its type and status labels. */

export type User = ResponseOf<typeof users.getUser>;
export type RoleOption = ResponseOf<typeof users.listRoles>[number];
export type Situacao = User['situacao'];

export const TIPO_OPTIONS: readonly { value: UserType; label: string }[] = [
  { value: 'C', label: 'Cliente' },
  { value: 'S', label: 'Sefaz' },
];

export const SITUACAO_OPTIONS: readonly { value: Situacao; label: string }[] = [
  { value: 'A', label: 'Ativo' },
  { value: 'I', label: 'Inativo' },
];

export function tipoLabel(tipo: UserType): string {
  return TIPO_OPTIONS.find((o) => o.value === tipo)?.label ?? tipo;
}

/**
 * Roles the server gives by itself (avaliacao while the client is Em Avaliação) or
 * that come with the issuer's own login (emissor): not offered for picking, but kept and shown when
 * the user already holds them.
 */
export const AUTOMATIC_ROLES: readonly Role[] = ['avaliacao', 'emissor'];

/** Page sizes of the user list; 25 is the default (contract pageQuery). */
export { DEFAULT_PAGE_SIZE, isPageSize, PAGE_SIZES, type PageSize } from '../../components/listing';
