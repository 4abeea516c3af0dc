/** The role slugs of the product (their labels: role-labels.ts). */
export const ROLES = [
  'sefaz_admin',
  'sefaz_gestor',
  'cliente',
  'cliente_web',
  'cliente_monitoramento',
  'cliente_imf',
  'avaliacao',
  'emissor',
] as const;

export type Role = (typeof ROLES)[number];

/** tipo_usuario: S for the tax authority's staff, C for client companies' users. */
export type UserType = 'S' | 'C';

export const SEFAZ_ROLES: readonly Role[] = ['sefaz_admin', 'sefaz_gestor'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** An administrator of the platform (sefaz_admin): sees every client and UF where a screen has a scope. */
export function isAdmin(p: { readonly roles: readonly Role[] }): boolean {
  return p.roles.includes('sefaz_admin');
}
