import { lazy, type ComponentType } from 'react';
import { redirect, type RouteObject } from 'react-router-dom';
import { ROUTE_ACCESS, type RouteName } from '@plac/shared/access';
import { BootScreen } from './BootScreen';
import { redirectSignedIn, requireRoute, requireSignIn } from './guards';
import { RouteError } from './RouteError';
import type { LOTES_CSV } from '../features/consulta/lotes';

/**
 * The route table. Every page is lazy (its own chunk); the guards are static loaders so they run
 * without waiting for the page's code.
 */

type PageModule = { default: ComponentType };
type LoteCsvNome = keyof typeof LOTES_CSV;

export interface AppPage {
  name: RouteName;
  load: () => Promise<PageModule>;
}

/** A page of the authenticated area, at its ROUTE_ACCESS path and guarded by its ROUTE_ACCESS roles. */
export function page(name: RouteName, load: () => Promise<PageModule>): AppPage {
  return { name, load };
}

/**
 * The pages under /app. A new page is added with one line here; path and roles come from
 * ROUTE_ACCESS in @plac/shared/access, e.g.
 *   page('user-list', () => import('../features/users/UserListPage')),
 */
export const APP_PAGES: AppPage[] = [
  page('dashboard', () => import('./painel/DashboardPage')),
  page('not-authorized', () => import('../features/access/NotAuthorizedPage')),
  page('profile', () => import('../features/access/ProfilePage')),
  page('user-list', () => import('../features/users/UserListPage')),
  page('user-form', () => import('../features/users/UserFormPage')),
  page('cliente-list', () => import('../features/clientes/ClienteListPage')),
  page('dados-cliente-form', () => import('../features/clientes/ClienteFormPage')),
  page('dados-cliente-edit', () => import('../features/clientes/DadosClienteEditPage')),
  page('instituicao-financeira', () => import('../features/instituicoes/InstituicaoListPage')),
  page('instituicao-financeira-form', () => import('../features/instituicoes/InstituicaoFormPage')),
  page('autorizacao-inf-cliente-list', () => import('../features/autorizacoes/AutorizacaoListPage')),
  page('autorizacao-inf-cliente-form', () => import('../features/autorizacoes/AutorizacaoFormPage')),
  page('consulta-servicos', () => import('../features/servicos/ServicosPage')),
  page('consultar-processamento', () => import('../features/cargas/ConsultarProcessamentoPage')),
  page('consultar-processamento-evento', () => import('../features/cargas/ConsultarProcessamentoEventoPage')),
  page('lote-processamento', () => import('../features/cargas/LoteProcessamentoPage')),
  page('documentos-erro', () => import('../features/cargas/DocumentosErroPage')),
  page('consumo-cliente', () => import('../features/consumo/ConsumoClientePage')),
  page('consumo-uf', () => import('../features/consumo/ConsumoUfPage')),
  page('consumo-erro-uf', () => import('../features/consumo/ConsumoErroUfPage')),
  page('monitoramento-consumo-cliente', () => import('../features/consumo/MonitoramentoConsumoClientePage')),
  page('monitoramento-webhook', () => import('../features/webhooks/MonitoramentoWebhookPage')),
  page('monitoramento-documentos', () => import('../features/monitoramento/MonitoramentoDocumentosPage')),
  page('cadastro-pagamento-antecipado', () => import('../features/prepago/CadastroPagamentoAntecipadoPage')),
  page('imprimir-dae', () => import('../features/prepago/ImprimirDaePage')),
  page('conta-corrente-requisicoes', () => import('../features/prepago/ContaCorrenteRequisicoesPage')),
  page('consulta-fate', () => import('../features/consulta/ConsultaFatePage')),
  page('consulta-qtd-fate-transportadora', () => import('../features/consulta/QtdFateTransportadoraPage')),
  page('servico-consulta-fate', () => loteCsv('fate')),
  page('servico-consulta-fate-chave-composta', () => loteCsv('chaveComposta')),
  page('servico-recebivel-avaliacao', () => loteCsv('recebivel')),
  page('servico-consulta-faturamento-nfce', () => loteCsv('faturamentoNfce')),
  page('servico-consulta-faturamento-nfe', () => loteCsv('faturamentoNfe')),
  page('cliente-degustacao-list', () => import('../features/degustacao/ClienteDegustacaoListPage')),
  page('faixa-cobranca', () => import('../features/tarifas/FaixaCobrancaPage')),
  page('faixa-cobranca-view', () => import('../features/tarifas/FaixaCobrancaViewPage')),
  page('faixa-cobranca-form', () => import('../features/tarifas/FaixaCobrancaFormPage')),
  page('faixa-cobranca-edit', () => import('../features/tarifas/FaixaCobrancaFormPage')),
  page('consulta-pagamento-servico', () => import('../features/rateio/PagamentoServicoPage')),
  page('consulta-pagamento-servico-detalhe', () => import('../features/rateio/PagamentoServicoDetalhePage')),
  page('beneficiado-rateio', () => import('../features/rateio/BeneficiadoRateioPage')),
  page('beneficiado-rateio-edit', () => import('../features/rateio/BeneficiadoRateioEditPage')),
  page('beneficiado-rateio-form', () => import('../features/rateio/BeneficiadoRateioFormPage')),
  page('beneficiado-rateio-bancos', () => import('../features/rateio/BancosPage')),
  page('consultar-fatura', () => import('../features/faturas/ConsultarFaturaPage')),
  page('detalhe-fatura', () => import('../features/faturas/DetalheFaturaPage')),
  page('faturamento-mensal', () => import('../features/faturas/FaturamentoMensalPage')),
  page('retorno-bancario', () => import('../features/faturas/RetornoBancarioPage')),
  page('emissor-termo', () => import('../features/consentimento/TermoAceitacaoPage')),
  page('emissor-consentimento', () => import('../features/consentimento/EmissorConsentimentoPage')),
  page('emissor-consentimento-transporte', () => import('../features/consentimento/EmissorConsentimentoTransportePage')),
  page('emissor-consentimento-detalhamento', () => import('../features/consentimento/EmissorConsentimentoDetalhePage')),
];

/** The five CSV batch screens are one page with five configurations (features/consulta/lotes.ts). */
async function loteCsv(nome: LoteCsvNome): Promise<PageModule> {
  return { default: (await import('../features/consulta/LoteCsvPage')).lotePage(nome) };
}

const lazyPage = (load: () => Promise<PageModule>) => async () => ({ Component: (await load()).default });

/**
 * A page of /app is a React.lazy component rather than a lazy route: the router then waits only for
 * the frame (shell, top bar, side menu) before it first renders, and the page's own code (tables,
 * calendars, dialogs) arrives inside AppLayout's Suspense. The frame paints half a page's scripts
 * sooner on a phone; between pages, the router's transition keeps the last page until the next is in.
 */
function appRoute({ name, load }: AppPage): RouteObject {
  const { path } = ROUTE_ACCESS[name];
  const guard = requireRoute(name);
  // A page the user may open starts loading with the route's guard, beside the shell and the layout,
  // not after them: its chunk is in (or on its way) when AppLayout first renders it. The request goes
  // out in a task of its own: adding a page's preload links to the document (scripts/preload-plugin.ts)
  // would otherwise lengthen the router's first task past the 50 ms a task may last on a phone without
  // blocking input (Total Blocking Time).
  const loader = () => guard() ?? (setTimeout(() => void load().catch(() => undefined), 0), null);
  const guarded = { loader, Component: lazy(load) };
  // The dashboard has the empty path: the index route of /app.
  return path === '' ? { index: true, ...guarded } : { path, ...guarded };
}

export function createRoutes(pages: readonly AppPage[] = APP_PAGES): RouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      lazy: lazyPage(() => import('./RootShell')),
      HydrateFallback: BootScreen,
      ErrorBoundary: RouteError,
      children: [
        // The login route (tabs Cliente PLAC and Sefaz); a signed-in user goes on to the dashboard.
        { index: true, loader: redirectSignedIn, lazy: lazyPage(() => import('../features/access/LoginPage')) },
        // The issuer's certificate-only login.
        { path: 'emissor/login', loader: redirectSignedIn, lazy: lazyPage(() => import('../features/access/IssuerLoginPage')) },
        // The link of the password-reset e-mail.
        { path: 'password/reset/:token', lazy: lazyPage(() => import('../features/access/PasswordResetPage')) },
        // The link of the e-mail-change confirmation (a new login e-mail proves it is the user's).
        { path: 'perfil/confirmar-email/:token', lazy: lazyPage(() => import('../features/access/EmailConfirmationPage')) },
        // Title and body as route parameters or as ?title=&body= (messagePath()).
        { path: 'message/:title?/:body?', lazy: lazyPage(() => import('../features/access/MessagePage')) },
        // The public client registration and its success page.
        { path: 'cliente/new', lazy: lazyPage(() => import('../features/clientes/ClienteRegisterPage')) },
        { path: 'cliente/cadastroRealizado', lazy: lazyPage(() => import('../features/clientes/CadastroRealizadoPage')) },
        // The trial area (degustação) under its own layout: registration, its success page, authorisation
        // by e-mail + token, and the trial look-up (which sends to autorizacao without a trial session).
        { path: 'degustacao', loader: () => redirect('/degustacao/autorizacao') },
        {
          // A layout without a path of its own: each page's full path stays readable here.
          lazy: lazyPage(() => import('../features/degustacao/DegustacaoLayout')),
          children: [
            { path: 'degustacao/cliente', lazy: lazyPage(() => import('../features/degustacao/ClienteTestePage')) },
            { path: 'degustacao/cadastroTeste', lazy: lazyPage(() => import('../features/degustacao/CadastroTestePage')) },
            { path: 'degustacao/autorizacao', lazy: lazyPage(() => import('../features/degustacao/AutorizacaoPage')) },
            { path: 'degustacao/consulta', lazy: lazyPage(() => import('../features/degustacao/ConsultaPage')) },
          ],
        },
        {
          path: 'app',
          loader: requireSignIn,
          // Run the sign-in check on every navigation inside /app, not only on entering it.
          shouldRevalidate: () => true,
          lazy: lazyPage(() => import('./AppLayout')),
          children: [
            ...pages.map(appRoute),
            { path: '*', lazy: lazyPage(() => import('../features/access/NotFoundPage')) },
          ],
        },
        { path: '*', lazy: lazyPage(() => import('../features/access/NotFoundPage')) },
      ],
    },
  ];
}
