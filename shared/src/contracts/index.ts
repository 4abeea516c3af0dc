import * as auth from './auth';
import * as cadastro from './cadastro';
import * as cessao from './cessao';
import * as clientes from './clientes';
import * as consentimento from './consentimento';
import * as consulta from './consulta';
import * as consumo from './consumo';
import { contractsOf, type AnyContract } from './define';
import * as degustacao from './degustacao';
import * as dominio from './dominio';
import * as faturamento from './faturamento';
import * as fate from './fate';
import * as instituicoes from './instituicoes';
import * as monitoramento from './monitoramento';
import * as platform from './platform';
import * as prepago from './prepago';
import * as rateio from './rateio';
import * as servicos from './servicos';
import * as tarifas from './tarifas';
import * as users from './users';
import * as webhooks from './webhooks';

/**
 * The whole contract table, for those who need every route: the CDK app, the local gateway, the
 * OpenAPI document, the web client and the tests. A Lambda imports only its own context's module
 * (`@plac/shared/contracts/<context>`) and the kernel (`@plac/shared/contracts/define`), so that its
 * bundle carries no other context's schemas.
 */
export * from './define';
export { auth, cadastro, cessao, clientes, consentimento, consulta, consumo, degustacao, dominio, fate, faturamento, instituicoes, monitoramento, platform, prepago, rateio, servicos, tarifas, users, webhooks };

/** Every context module of the API. Add a context's module here (and its own package export follows). */
export const contractModules = /* @__PURE__ */ Object.freeze({ platform, dominio, auth, users, cadastro, clientes, instituicoes, servicos, fate, consulta, consumo, degustacao, tarifas, consentimento, faturamento, webhooks, monitoramento, rateio, prepago, cessao });

/** Every endpoint of the API, grouped by bounded context. */
export const contracts: readonly AnyContract[] = /* @__PURE__ */ tableOf(contractModules);

/** The bounded contexts that serve HTTP routes: one Lambda each. */
export const httpContexts: readonly string[] = /* @__PURE__ */ contextsOf(contracts);

// Pure helpers: a bundle that imports only the kernel through this module drops the table whole.
function tableOf(modules: Record<string, Record<string, unknown>>): AnyContract[] {
  return Object.values(modules).flatMap(contractsOf);
}

function contextsOf(table: readonly AnyContract[]): string[] {
  return [...new Set(table.map((c) => c.context))];
}

export function contractById(id: string): AnyContract | undefined {
  return contracts.find((c) => c.id === id);
}
