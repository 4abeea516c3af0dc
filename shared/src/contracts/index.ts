import type { AnyContract } from './define';
import * as dominio from './dominio';
import * as platform from './platform';

export * from './define';
export { dominio, platform };

/** Every endpoint of the API, grouped by bounded context. Add a context's module here. */
export const contracts: readonly AnyContract[] = [...Object.values(platform), ...Object.values(dominio)];

/** The bounded contexts that serve HTTP routes: one Lambda each. */
export const httpContexts: readonly string[] = [...new Set(contracts.map((c) => c.context))];

export function contractById(id: string): AnyContract | undefined {
  return contracts.find((c) => c.id === id);
}
