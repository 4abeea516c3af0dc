import * as auth from './auth';
import * as clientes from './clientes';
import type { AnyContract } from './define';
import * as dominio from './dominio';
import * as instituicoes from './instituicoes';
import * as platform from './platform';
import * as servicos from './servicos';
import * as users from './users';

export * from './define';
export { auth, clientes, dominio, instituicoes, platform, servicos, users };

/** Every endpoint of the API, grouped by bounded context. Add a context's module here. */
export const contracts: readonly AnyContract[] = [platform, dominio, auth, users, clientes, instituicoes, servicos].flatMap(
  (module) => Object.values(module).filter(isContract),
);

export function isContract(value: unknown): value is AnyContract {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;
}

/** The bounded contexts that serve HTTP routes: one Lambda each. */
export const httpContexts: readonly string[] = [...new Set(contracts.map((c) => c.context))];

export function contractById(id: string): AnyContract | undefined {
  return contracts.find((c) => c.id === id);
}
