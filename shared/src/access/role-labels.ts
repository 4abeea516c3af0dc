import type { Role } from './roles';

/** The roles' pt-BR labels: a module apart from roles.ts so the portal's entry chunk does not carry them. */
export const ROLE_LABELS: Record<Role, string> = {
  sefaz_admin: 'Administrador Plac',
  sefaz_gestor: 'Gestor',
  cliente: 'Cliente',
  cliente_web: 'Cliente Web',
  cliente_monitoramento: 'Cliente Monitoramento',
  cliente_imf: 'Cliente IMF',
  avaliacao: 'Em Avaliação',
  emissor: 'Emissor Consentimento',
};
