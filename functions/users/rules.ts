import { ROLE_LABELS, type Role, type UserType } from '@plac/shared/access';

/** Which roles each kind of user may hold (S: Sefaz staff, C: client users); issuers come from their certificate. */
export const ROLES_BY_TYPE: Record<UserType, readonly Role[]> = {
  S: ['sefaz_admin', 'sefaz_gestor'],
  C: ['cliente', 'cliente_web', 'cliente_monitoramento', 'cliente_imf', 'avaliacao'],
};

export function rolesList() {
  return (['S', 'C'] as const).flatMap((tipo) =>
    ROLES_BY_TYPE[tipo].map((slug) => ({ slug, label: ROLE_LABELS[slug], tipo_usuario: tipo })),
  );
}

/** The first role the type may not hold, or null. */
export function foreignRole(tipo: UserType, roles: readonly Role[]): Role | null {
  return roles.find((r) => !ROLES_BY_TYPE[tipo].includes(r)) ?? null;
}

/** A user of a client in Em Avaliação gets the avaliacao role on save, and only that one. */
export function rolesForClient(roles: readonly Role[], clienteSituacao: string): Role[] {
  return clienteSituacao === 'E' ? ['avaliacao'] : [...new Set(roles)];
}
