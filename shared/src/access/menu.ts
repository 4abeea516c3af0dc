import type { Role } from './roles';

/**
 * Route-level access of the portal, as data: the path list of the authenticated area (under /app)
 * and the roles each route admits. The web app builds its guards from ROUTE_ACCESS, and the side
 * menu (side-menu.ts) takes each item's roles from here, so a menu item never offers a page whose
 * route would answer "Acesso Negado". The menu is a module of its own so that the portal's entry
 * chunk, which needs only the guards, does not carry it.
 */

/** Who may open a page: any signed-in user, or one holding at least one of the roles. */
export type RouteRoles = 'authenticated' | readonly Role[];

export interface RouteAccess {
  /** Path under /app in react-router syntax (`user/:id`); '' is the dashboard. */
  readonly path: string;
  readonly roles: RouteRoles;
}

const ADMIN = ['sefaz_admin'] as const satisfies readonly Role[];
const ADMIN_GESTOR = ['sefaz_admin', 'sefaz_gestor'] as const satisfies readonly Role[];
const PAGAMENTO_SERVICO = ['sefaz_admin', 'sefaz_gestor', 'cliente'] as const satisfies readonly Role[];
const ADMIN_CLIENTE = ['sefaz_admin', 'cliente'] as const satisfies readonly Role[];
const CONSENT_READERS = ['sefaz_admin', 'avaliacao', 'cliente_web', 'cliente'] as const satisfies readonly Role[];
const LOOKUP_SERVICES = ['sefaz_admin', 'avaliacao', 'cliente_web'] as const satisfies readonly Role[];
const MONITORING = ['sefaz_admin', 'cliente_monitoramento'] as const satisfies readonly Role[];
const PREPAID = ['sefaz_admin', 'cliente_imf'] as const satisfies readonly Role[];

/**
 * Every authenticated route of the product's path list, by route name (the product's screen names
 * where it has one). Paths the product leaves open (detail pages that take an object, the ESF
 * authorisation form) are ours; a page that receives an object gets it through router state, not the
 * path.
 */
export const ROUTE_ACCESS = {
  dashboard: { path: '', roles: 'authenticated' },
  'not-authorized': { path: 'not-authorized', roles: 'authenticated' },
  profile: { path: 'profile', roles: 'authenticated' },

  // Users and clients
  'user-list': { path: 'user', roles: ADMIN },
  'user-form': { path: 'user/:id', roles: ADMIN },
  'cliente-list': { path: 'cliente', roles: ADMIN_GESTOR },
  'dados-cliente-form': { path: 'cliente/:id', roles: ADMIN },
  /** The client's own data, reached from 'Meus Dados' with the user's clienteId. */
  'dados-cliente-edit': { path: 'cliente/edit/:id', roles: ['cliente'] },

  // Consumption, payments, invoices, institutions, services
  'consumo-cliente': { path: 'consulta/consumoCliente', roles: ADMIN_CLIENTE },
  'consumo-uf': { path: 'consulta/consumoUF', roles: ADMIN_GESTOR },
  'consumo-erro-uf': { path: 'consulta/consumoErroUF', roles: ADMIN_GESTOR },
  // Issue 15 opens the payment query to the client (fixed to its own company), beyond spec 2 §6.
  'consulta-pagamento-servico': { path: 'consulta/pagamentoServico', roles: PAGAMENTO_SERVICO },
  'consulta-pagamento-servico-detalhe': {
    path: 'consulta/pagamentoServico/detalhe/:idConsumo/:ufConsumo',
    roles: PAGAMENTO_SERVICO,
  },
  'consulta-servicos': { path: 'consulta/servicos', roles: ADMIN },
  'instituicao-financeira': { path: 'consulta/instituicaoFinanceira', roles: ADMIN },
  'instituicao-financeira-form': { path: 'instituicaoFinanceira', roles: ADMIN },
  'consultar-fatura': { path: 'fatura/consultarFatura', roles: ADMIN_CLIENTE },
  'detalhe-fatura': { path: 'fatura/detalheFatura', roles: ADMIN_CLIENTE },
  /** ours: the billing run of a month (issue 14). */
  'faturamento-mensal': { path: 'fatura/faturamentoMensal', roles: ADMIN },
  /** ours: the bank's return file (issue 14). */
  'retorno-bancario': { path: 'fatura/retornoBancario', roles: ADMIN },
  'autorizacao-inf-cliente-list': { path: 'autorizacao-inf-cliente-list', roles: ADMIN_CLIENTE },
  'autorizacao-inf-cliente-form': { path: 'autorizacao-inf-cliente-form', roles: ADMIN_CLIENTE },

  // Consents: issuers, carriers/drawers, issuer detail
  'emissor-consentimento': { path: 'consulta/emissorConsentimento', roles: CONSENT_READERS },
  'emissor-consentimento-detalhamento': { path: 'consulta/emissorConsentimento/detalhamento', roles: CONSENT_READERS },
  'emissor-consentimento-transporte': { path: 'consulta/emissorConsentimentoTransporte', roles: CONSENT_READERS },

  // Bands, tariffs and revenue sharing
  'faixa-cobranca': { path: 'consulta/faixaCobranca', roles: ADMIN },
  'faixa-cobranca-form': { path: 'cadastro/faixaCobranca', roles: ADMIN },
  'faixa-cobranca-edit': { path: 'edicao/faixaCobranca', roles: ADMIN },
  'faixa-cobranca-view': { path: 'detalhe/faixaCobranca', roles: ADMIN },
  'beneficiado-rateio': { path: 'consulta/beneficiadoRateio', roles: ADMIN },
  'beneficiado-rateio-edit': { path: 'edicao/beneficiadoRateio', roles: ADMIN },
  'beneficiado-rateio-bancos': { path: 'bancos/beneficiadoRateio', roles: ADMIN },
  'beneficiado-rateio-form': { path: 'cadastro/beneficiadoRateio', roles: ADMIN },

  // Loads and monitoring
  'consultar-processamento': { path: 'processamento/consultarProcessamento', roles: MONITORING },
  'consultar-processamento-evento': { path: 'processamento/consultarProcEventoFinanceiro', roles: ADMIN },
  'lote-processamento': { path: 'processamento/loteProcessamento', roles: ADMIN_GESTOR },
  'documentos-erro': { path: 'documentos-erro', roles: ADMIN_GESTOR },
  'monitoramento-webhook': { path: 'monitoramento-webhook', roles: MONITORING },
  'monitoramento-consumo-cliente': { path: 'monitoramento-consumo-cliente', roles: MONITORING },
  /** ours: the access keys a client monitors (webhook operation EVENTO, 'Monitoramento de Documentos', issue 16). */
  'monitoramento-documentos': { path: 'monitoramento-documentos', roles: MONITORING },

  // Free lookups and reports
  'consulta-fate': { path: 'consulta/fate', roles: ADMIN },
  'consulta-qtd-fate-transportadora': { path: 'consulta/qtd-fate-transportadora', roles: ADMIN },
  'cliente-degustacao-list': { path: 'cliente-degustacao', roles: ADMIN },

  // CSV batch look-ups
  'servico-consulta-fate': { path: 'servico/consulta-fate', roles: LOOKUP_SERVICES },
  'servico-consulta-fate-chave-composta': { path: 'servico/consulta-fate-chave-composta', roles: LOOKUP_SERVICES },
  'servico-recebivel-avaliacao': { path: 'servico/recebivel-avaliacao', roles: ['avaliacao', 'cliente_web'] },
  'servico-consulta-faturamento-nfce': { path: 'servico/consulta-faturamento-nfce', roles: LOOKUP_SERVICES },
  'servico-consulta-faturamento-nfe': { path: 'servico/consulta-faturamento-nfe', roles: LOOKUP_SERVICES },

  // Prepaid payment: registration, DAE print, request-account statement
  'cadastro-pagamento-antecipado': { path: 'pagamentoAntecipado/cadastro-pagamento-antecipado', roles: PREPAID },
  'imprimir-dae': { path: 'pagamentoAntecipado/imprimir-dae', roles: PREPAID },
  'conta-corrente-requisicoes': { path: 'pagamentoAntecipado/conta-corrente-requisicoes', roles: PREPAID },

  // Issuer consent wizard
  'emissor-termo': { path: 'emissor/termo-aceitacao', roles: ['emissor'] },
} as const satisfies Record<string, RouteAccess>;

export type RouteName = keyof typeof ROUTE_ACCESS;

/** The authenticated area's prefix; every ROUTE_ACCESS path lives below it. */
export const APP_BASE = '/app';

export const ROUTE_NAMES = Object.keys(ROUTE_ACCESS) as RouteName[];

/** Whether signed-in roles may open a route; `null`/`undefined` roles mean nobody is signed in. */
export function routeAllows(name: RouteName, roles: readonly Role[] | null | undefined): boolean {
  if (!roles) return false;
  const allowed: RouteRoles = ROUTE_ACCESS[name].roles;
  if (allowed === 'authenticated') return true;
  return allowed.some((role) => roles.includes(role));
}

/**
 * The concrete URL of a route: `/app/user/:id` with `{ id: '7' }` → `/app/user/7`. Throws when a
 * parameter is missing, so a broken link fails where it is built.
 */
export function routePath(name: RouteName, params: Record<string, string | number> = {}): string {
  const filled = ROUTE_ACCESS[name].path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === '') throw new Error(`missing route parameter ${key} for ${name}`);
    return encodeURIComponent(String(value));
  });
  return filled === '' ? APP_BASE : `${APP_BASE}/${filled}`;
}

function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** The route a concrete path belongs to (`/app/user/7` or `user/7`), or undefined. */
export function routeForPath(path: string): RouteName | undefined {
  const clean = path.split(/[?#]/)[0] ?? '';
  let got = segments(clean);
  if (clean.startsWith('/')) {
    // Absolute paths must be under /app.
    if (got[0] !== APP_BASE.slice(1)) return undefined;
    got = got.slice(1);
  }
  return ROUTE_NAMES.find((name) => {
    const want = segments(ROUTE_ACCESS[name].path);
    return want.length === got.length && want.every((w, i) => w.startsWith(':') || w === got[i]);
  });
}

/** Whether the roles may open a concrete path; unknown paths are refused. */
export function canAccess(path: string, roles: readonly Role[] | null | undefined): boolean {
  const name = routeForPath(path);
  return name !== undefined && routeAllows(name, roles);
}
