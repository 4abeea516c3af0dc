/**
 * The HTTP routes of each API, derived from the contract table (no route exists that is not in it).
 * Plain data so that the stacks, the tests and the twin agree on which contract is served where and
 * which routes sit behind the Lambda authorizer.
 */
import { contracts, type AnyContract, type HttpMethod } from '@plac/shared/contracts';
import { httpFunctions, type FunctionSpec } from './topology';

/** `web`: the API behind CloudFront. `mtls`: the mutual-TLS domain (certificate logins, integrators). */
export type ApiChannel = 'web' | 'mtls';

export interface RouteSpec {
  readonly contractId: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** FunctionSpec id of the context's Lambda. */
  readonly functionId: string;
  /** Every non-public contract goes through the Lambda request authorizer; roles are checked in the handler. */
  readonly authorized: boolean;
}

export function servedOn(contract: AnyContract, channel: ApiChannel): boolean {
  const on = contract.channel ?? 'web';
  return on === 'both' || on === channel;
}

export function functionForContext(context: string): FunctionSpec {
  const spec = httpFunctions.find((f) => f.entry === `${context}/handler.ts`);
  if (!spec) throw new Error(`no HTTP function for context ${context}`);
  return spec;
}

export function routesFor(channel: ApiChannel, table: readonly AnyContract[] = contracts): RouteSpec[] {
  const seen = new Set<string>();
  return table
    .filter((c) => servedOn(c, channel))
    .map((c) => {
      const key = `${c.method} ${c.path}`;
      if (seen.has(key)) throw new Error(`two contracts share the route ${key}`);
      seen.add(key);
      return {
        contractId: c.id,
        method: c.method,
        path: c.path,
        functionId: functionForContext(c.context).id,
        authorized: c.access !== 'public',
      };
    });
}
