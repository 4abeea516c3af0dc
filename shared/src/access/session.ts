import type { Role, UserType } from './roles';

/**
 * Who is calling: what the Lambda authorizer puts in the request context after verifying the bearer
 * token, and what every handler receives as `auth`. Handlers use clienteId for object-level checks.
 */
export interface Principal {
  userId: string;
  name: string;
  tipo: UserType;
  roles: Role[];
  /** The client company a client user belongs to (absent for Sefaz staff). */
  clienteId?: string;
  /** The state of a Sefaz manager: wherever a screen filters by UF, a manager's UF is fixed to it. */
  uf?: string;
  /**
   * A Sefaz user's password session before the second factor is enrolled (issue 42): it reaches only
   * the routes that enrol it (contracts marked `paraCadastroSegundoFator`) until the enrolment rewrites it.
   */
  cadastroSegundoFator?: boolean;
}

/** Response header that carries a refreshed bearer token when the current one is past half its life. */
export const REFRESHED_TOKEN_HEADER = 'x-plac-token';
