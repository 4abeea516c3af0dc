import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page } from '@playwright/test';
import { APP_BASE, ROUTE_ACCESS, type Principal, type RouteName } from '@plac/shared/access';
import { DEMO_CLIENTES } from '../../infra/local/demo-data';
import { pick, samplePdf } from './helpers';
import { signIn } from './session';
import { WCAG_21_AA } from './axe';

/**
 * WCAG 2.1 AA in Chromium: axe-core on every screen of the portal (every route of the web router, for
 * the roles that can open it; forms new and edit; the dialogs). The screens come from the router's
 * source, so a new route without a visit here fails the first test.
 */

/**
 * One browser tab per worker for all its screens, so the portal's scripts come from the tab's cache
 * and their compiled code is reused (a fresh context per screen loaded and compiled them every time:
 * 2-6 s of a screen's 4-8 s on 2 cores). Each screen still starts from a full page load, and its
 * storage and cookies are cleared before it, so no screen sees the session of the one before.
 */
const test = base.extend<object, { tab: Page }>({
  tab: [
    async ({ browser }, use, workerInfo) => {
      const { baseURL, locale, timezoneId } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, locale, timezoneId });
      const tab = await context.newPage();
      await use(tab);
      await context.close();
    },
    { scope: 'worker' },
  ],
});
test.beforeEach(async ({ tab }) => {
  await tab.context().clearCookies();
  if (tab.url().startsWith('http')) await tab.evaluate(() => (sessionStorage.clear(), localStorage.clear()));
});

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const GESTOR: Principal = { userId: 'demo-gestor', name: 'Gestor Demo', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };
const CLIENTE: Principal = { userId: 'demo-cliente', name: 'Cliente Demo', tipo: 'C', roles: ['cliente'], clienteId: 'demo-esf' };
const CLIENTE_WEB: Principal = { userId: 'demo-cliente-web', name: 'Cliente Web Demo', tipo: 'C', roles: ['cliente_web'], clienteId: 'demo-esf' };
const IMF: Principal = { userId: 'demo-imf', name: 'Cliente IMF Demo', tipo: 'C', roles: ['cliente_imf'], clienteId: 'demo-imf' };
const EMISSOR: Principal = { userId: 'emissor-55667788000186', name: 'Indústria Emissora Demonstração Ltda.', tipo: 'C', roles: ['emissor'] };


/** A route of the router as written there: '/cliente/new', '/app/user/:id', '/app/*', '*'. */
type RouteKey = string;

/** Every route of web/src/app/routes.tsx: the public ones by their literal path, the app pages by ROUTE_ACCESS. */
function routerRoutes(): RouteKey[] {
  const source = readFileSync(new URL('../../web/src/app/routes.tsx', import.meta.url), 'utf8');
  const create = source.slice(source.indexOf('export function createRoutes'));
  const keys = new Set<RouteKey>();
  // The root's index route is the login.
  if (/\{\s*index:\s*true/.test(create)) keys.add('/');
  for (const [, path] of create.matchAll(/path:\s*'([^']*)'/g)) {
    if (path === '/' || path === 'app') continue;
    keys.add(path === '*' ? '*' : `/${path}`);
  }
  // The pages of the authenticated area, and its own not-found page.
  const pages = source.slice(source.indexOf('export const APP_PAGES'), source.indexOf('];', source.indexOf('export const APP_PAGES')));
  for (const [, name] of pages.matchAll(/page\('([\w-]+)'/g)) keys.add(appRoute(name as RouteName));
  if (/children:\s*\[\s*\.\.\.pages\.map\(appRoute\),\s*\{\s*path:\s*'\*'/.test(create)) keys.add(`${APP_BASE}/*`);
  return [...keys].sort();
}

function appRoute(name: RouteName): RouteKey {
  const path = ROUTE_ACCESS[name].path;
  return path === '' ? APP_BASE : `${APP_BASE}/${path}`;
}

interface Screen {
  /** What the test is called. */
  name: string;
  route: RouteKey;
  /** Signed in as; none for the public pages. */
  as?: Principal;
  /** Gets the screen into the state to check (the page is already signed in). */
  open: (page: Page) => Promise<void>;
}

const heading = (page: Page, name: string | RegExp) => expect(page.getByRole('heading', { name }).first()).toBeVisible();

async function dialog(page: Page, name: string) {
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  // PrimeReact's dialogs fade in: check the final colours.
  await page.waitForTimeout(400);
}

async function openLoginTab(page: Page, tab: 'Cliente PLAC' | 'Sefaz') {
  await page.goto('/');
  await page.getByRole('tab', { name: tab }).click();
}

async function fromList(page: Page, list: string, button: string | RegExp, title: string | RegExp) {
  await page.goto(list);
  await page.getByRole('button', { name: button }).first().click();
  await heading(page, title);
}

/** The institutions of Bahia (the list asks for a filter). */
async function instituicoesDaBahia(page: Page) {
  await page.goto('/app/consulta/instituicaoFinanceira');
  await pick(page, 'filtro-uf', 'BA - Bahia');
  await page.getByRole('button', { name: 'Pesquisar' }).click();
  await expect(page.getByRole('button', { name: /^Editar / }).first()).toBeVisible();
}

/**
 * An authorisation of the demo ESF client for a demo institution, asked for through the API as the
 * client (signed in on `page`), so that the lists have a row and the edit form something to show.
 */
async function ensureAutorizacao(page: Page) {
  const token = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('plac-fate.session') ?? '{}') as { token?: string }).token ?? '');
  const esf = DEMO_CLIENTES.find((c) => c.clienteId === 'demo-esf')!;
  const response = await page.request.post('/api/v1/instituicao-financeira/autorizacao', {
    headers: { authorization: `Bearer ${token}` },
    data: { cliente: esf.cnpj, instituicaoFinanceira: '33445566', arquivo: (await samplePdf()).toString('base64'), nomeArquivo: 'autorizacao.pdf' },
  });
  // 201, or already asked for by an earlier screen of this run.
  expect([201, 409], await response.text()).toContain(response.status());
}

/** The client user's authorisation list, its client fixed. */
async function autorizacoesDoCliente(page: Page) {
  await page.goto('/app/autorizacao-inf-cliente-list');
  await expect(page.locator('.p-dropdown:has(#filtro-cliente)')).toContainText('Banco Demonstração ESF S.A.');
}

const SCREENS: Screen[] = [
  // Public pages.
  { name: 'login, tab Cliente PLAC', route: '/', open: (page) => openLoginTab(page, 'Cliente PLAC') },
  { name: 'login, tab Sefaz', route: '/', open: (page) => openLoginTab(page, 'Sefaz') },
  {
    name: 'login, forgot-password dialog',
    route: '/',
    open: async (page) => {
      await openLoginTab(page, 'Sefaz');
      await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
      await dialog(page, 'Esqueci minha senha');
    },
  },
  {
    name: 'login, client password dialog',
    route: '/',
    open: async (page) => {
      await openLoginTab(page, 'Cliente PLAC');
      await page.getByRole('form', { name: 'Login de cliente' }).getByLabel('E-mail').fill('cliente@plac.local');
      await page.getByRole('form', { name: 'Login de cliente' }).getByRole('button', { name: 'Entrar' }).click();
      await dialog(page, 'Informe sua senha');
    },
  },
  {
    name: 'login, required messages',
    route: '/',
    open: async (page) => {
      await openLoginTab(page, 'Sefaz');
      await page.getByRole('form', { name: 'Login Sefaz' }).getByRole('button', { name: 'Entrar' }).click();
      await expect(page.getByText('O campo E-mail é obrigatório.')).toBeVisible();
    },
  },
  { name: 'issuer login', route: '/emissor/login', open: async (page) => (await page.goto('/emissor/login'), heading(page, 'Acesso do emissor')) },
  {
    name: 'password reset',
    route: '/password/reset/:token',
    open: async (page) => (await page.goto('/password/reset/abcdefghijklmnopqrstuvwxyz0123456789'), heading(page, 'Redefinir senha')),
  },
  {
    name: 'e-mail change confirmation',
    route: '/perfil/confirmar-email/:token',
    open: async (page) => (await page.goto('/perfil/confirmar-email/abcdefghijklmnopqrstuvwxyz0123456789'), heading(page, 'Confirmar novo e-mail')),
  },
  {
    name: 'message page',
    route: '/message/:title?/:body?',
    open: async (page) => (await page.goto('/message/Cadastro%20realizado/Voc%C3%AA%20receber%C3%A1%20um%20e-mail'), heading(page, 'Cadastro realizado')),
  },
  {
    name: 'client registration',
    route: '/cliente/new',
    open: async (page) => {
      await page.goto('/cliente/new');
      await heading(page, 'Cadastro de Cliente');
      await expect(page.locator('altcha-widget')).toBeVisible();
    },
  },
  {
    name: 'client registration, required messages',
    route: '/cliente/new',
    open: async (page) => {
      await page.goto('/cliente/new');
      await expect(page.locator('altcha-widget')).toBeVisible();
      await page.getByRole('button', { name: 'Cadastrar' }).click();
      await expect(page.getByText('O campo Razão Social é obrigatório.')).toBeVisible();
    },
  },
  {
    name: 'registration done',
    route: '/cliente/cadastroRealizado',
    open: async (page) => (await page.goto('/cliente/cadastroRealizado'), heading(page, /./)),
  },
  { name: 'not found (public)', route: '*', open: async (page) => (await page.goto('/nao/existe'), heading(page, 'Página não encontrada')) },

  // The authenticated area.
  { name: 'faturamento mensal', route: '/app/fatura/faturamentoMensal', as: ADMIN, open: async (page) => (await page.goto('/app/fatura/faturamentoMensal'), heading(page, 'Faturamento Mensal')) },
  { name: 'retorno bancario', route: '/app/fatura/retornoBancario', as: ADMIN, open: async (page) => (await page.goto('/app/fatura/retornoBancario'), heading(page, 'Retorno Bancário')) },
  { name: 'dashboard, administrator', route: '/app', as: ADMIN, open: async (page) => (await page.goto('/app'), heading(page, /Bem-vindo/)) },
  { name: 'dashboard, manager', route: '/app', as: GESTOR, open: async (page) => (await page.goto('/app'), heading(page, /Bem-vindo/)) },
  { name: 'dashboard, client', route: '/app', as: CLIENTE, open: async (page) => (await page.goto('/app'), heading(page, /Bem-vindo/)) },
  { name: 'dashboard, client web', route: '/app', as: CLIENTE_WEB, open: async (page) => (await page.goto('/app'), heading(page, /Bem-vindo/)) },
  {
    name: 'not authorised',
    route: '/app/not-authorized',
    as: CLIENTE,
    open: async (page) => (await page.goto('/app/user'), heading(page, 'Acesso Negado')),
  },
  { name: 'profile, administrator', route: '/app/profile', as: ADMIN, open: async (page) => (await page.goto('/app/profile'), heading(page, 'Meu perfil')) },
  { name: 'profile, client', route: '/app/profile', as: CLIENTE, open: async (page) => (await page.goto('/app/profile'), heading(page, 'Meu perfil')) },
  {
    name: 'user list with results',
    route: '/app/user',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/user');
      await page.getByRole('button', { name: 'Pesquisar' }).click();
      await expect(page.getByRole('cell', { name: 'admin@plac.local' })).toBeVisible();
    },
  },
  {
    name: 'user form, new',
    route: '/app/user/:id',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/user/new');
      await heading(page, 'Novo Usuário');
      await page.getByRole('button', { name: 'Salvar' }).click();
      await expect(page.getByText('O campo Nome é obrigatório.')).toBeVisible();
    },
  },
  {
    name: 'user form, edit',
    route: '/app/user/:id',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/user/demo-cliente');
      await heading(page, 'Editar Usuário');
      await expect(page.getByRole('checkbox').first()).toBeVisible();
    },
  },
  {
    name: 'client list with results',
    route: '/app/cliente',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/cliente');
      await page.getByRole('button', { name: 'Pesquisar' }).click();
      await expect(page.getByRole('cell', { name: /Banco Demonstração ESF/ })).toBeVisible();
    },
  },
  {
    name: 'client list, manager',
    route: '/app/cliente',
    as: GESTOR,
    open: async (page) => (await page.goto('/app/cliente'), heading(page, /Clientes/)),
  },
  {
    name: 'client form (administrator)',
    route: '/app/cliente/:id',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/cliente/demo-esf'), expect(page.getByLabel('Razão Social')).toHaveValue(/Banco/)),
  },
  {
    name: 'client form, Monitoramento tab with the webhook dialog',
    route: '/app/cliente/:id',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/cliente/demo-imf');
      await page.getByRole('tab', { name: 'Monitoramento' }).click();
      await page.getByRole('button', { name: 'Adicionar' }).click();
      await dialog(page, 'Configuração de monitoramento');
      await page.getByRole('dialog').getByRole('button', { name: 'Salvar' }).click();
      await expect(page.getByText('O campo Operação é obrigatório.')).toBeVisible();
    },
  },
  {
    name: 'client form, Monitoramento tab',
    route: '/app/cliente/:id',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/cliente/demo-esf');
      await page.getByRole('tab', { name: 'Monitoramento' }).click();
      await heading(page, 'Configurações de monitoramento');
    },
  },
  {
    name: 'own client data (client)',
    route: '/app/cliente/edit/:id',
    as: CLIENTE,
    open: async (page) => (await page.goto('/app/cliente/edit/demo-esf'), expect(page.getByLabel('Razão Social')).toHaveValue(/Banco/)),
  },
  {
    name: 'institution list with results',
    route: '/app/consulta/instituicaoFinanceira',
    as: ADMIN,
    open: instituicoesDaBahia,
  },
  {
    name: 'institution form, new',
    route: '/app/instituicaoFinanceira',
    as: ADMIN,
    open: async (page) => {
      await fromList(page, '/app/consulta/instituicaoFinanceira', 'Adicionar', /Instituição Financeira/);
      await page.getByRole('button', { name: 'Salvar' }).click();
      await expect(page.getByText(/^O campo .* é obrigatório\.$/).first()).toBeVisible();
    },
  },
  {
    name: 'institution form, edit',
    route: '/app/instituicaoFinanceira',
    as: ADMIN,
    open: async (page) => {
      await instituicoesDaBahia(page);
      await page.getByRole('button', { name: /^Editar / }).first().click();
      await heading(page, 'Editar Instituição Financeira');
    },
  },
  {
    name: 'authorisation list, administrator',
    route: '/app/autorizacao-inf-cliente-list',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/autorizacao-inf-cliente-list'), heading(page, /Autoriza/)),
  },
  {
    name: 'authorisation list, client with results',
    route: '/app/autorizacao-inf-cliente-list',
    as: CLIENTE,
    open: async (page) => {
      await ensureAutorizacao(page);
      await autorizacoesDoCliente(page);
      await page.getByRole('button', { name: 'Pesquisar' }).click();
      await expect(page.getByRole('table')).toBeVisible();
    },
  },
  {
    name: 'authorisation form, new (client)',
    route: '/app/autorizacao-inf-cliente-form',
    as: CLIENTE,
    open: async (page) => {
      await autorizacoesDoCliente(page);
      await page.getByRole('button', { name: 'Nova Autorização' }).click();
      await heading(page, 'Nova Autorização de Instituição Financeira');
      await page.getByRole('button', { name: 'Cadastrar' }).click();
      await expect(page.getByText(/^O campo .* é obrigatório\.$/).first()).toBeVisible();
    },
  },
  {
    name: 'authorisation form, new-institution dialog',
    route: '/app/autorizacao-inf-cliente-form',
    as: CLIENTE,
    open: async (page) => {
      await autorizacoesDoCliente(page);
      await page.getByRole('button', { name: 'Nova Autorização' }).click();
      await page.getByRole('button', { name: 'Nova Instituição' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.waitForTimeout(400);
    },
  },
  {
    name: 'authorisation form, edit (administrator)',
    route: '/app/autorizacao-inf-cliente-form',
    as: CLIENTE,
    open: async (page) => {
      await ensureAutorizacao(page);
      await signIn(page, ADMIN);
      await page.goto('/app/autorizacao-inf-cliente-list');
      await pick(page, 'filtro-cliente', /^Banco Demonstração ESF S\.A\./);
      await page.getByRole('button', { name: 'Pesquisar' }).click();
      await page.getByRole('button', { name: /^Editar / }).first().click();
      await heading(page, 'Editar Autorização de Instituição Financeira');
    },
  },
  {
    name: 'services, with the edit dialog',
    route: '/app/consulta/servicos',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/consulta/servicos');
      await page.getByRole('button', { name: /^Editar / }).first().click();
      await dialog(page, 'Editar Serviço');
    },
  },
  {
    name: 'services',
    route: '/app/consulta/servicos',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/consulta/servicos');
      await expect(page.getByRole('button', { name: /^Editar / }).first()).toBeVisible();
    },
  },
  {
    name: 'error documents, with the error-detail dialog when there is one',
    route: '/app/documentos-erro',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/documentos-erro'), heading(page, 'Documentos com Erro')),
  },
  {
    name: 'error documents of a manager (UF fixed)',
    route: '/app/documentos-erro',
    as: GESTOR,
    open: async (page) => (await page.goto('/app/documentos-erro'), heading(page, 'Documentos com Erro')),
  },
  {
    name: 'batch import',
    route: '/app/processamento/loteProcessamento',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/processamento/loteProcessamento'), heading(page, 'Importação de Lote')),
  },
  {
    name: 'document processing monitoring',
    route: '/app/processamento/consultarProcessamento',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/processamento/consultarProcessamento'), heading(page, 'Processamento de Documentos')),
  },
  {
    name: 'financial-event processing monitoring',
    route: '/app/processamento/consultarProcEventoFinanceiro',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/processamento/consultarProcEventoFinanceiro'), heading(page, 'Processamento de Eventos Financeiros')),
  },
  {
    name: 'band and tariff versions',
    route: '/app/consulta/faixaCobranca',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/faixaCobranca'), expect(page.getByRole('table', { name: 'Faixas de Cobrança' }).getByRole('row').nth(1)).toBeVisible()),
  },
  {
    name: 'band and tariff view, a history row expanded',
    route: '/app/detalhe/faixaCobranca',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/detalhe/faixaCobranca');
      await expect(page.getByRole('table', { name: 'Tarifas vigentes' })).toBeVisible();
      await page.getByRole('tab', { name: 'Histórico' }).click();
      await page.getByRole('button', { name: /Tarifas Iniciais/ }).click();
      await expect(page.getByRole('table', { name: 'Tarifas de Tarifas Iniciais' })).toBeVisible();
    },
  },
  {
    name: 'band and tariff form (or why a new group cannot be made now)',
    route: '/app/cadastro/faixaCobranca',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/cadastro/faixaCobranca'), heading(page, 'Nova Faixa de Cobrança e Tarifação')),
  },
  {
    name: 'band and tariff edit of the draft',
    route: '/app/edicao/faixaCobranca',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/edicao/faixaCobranca'), heading(page, 'Editar Faixa de Cobrança e Tarifação')),
  },
  {
    name: 'service payments, searched, with the repasse dialog',
    route: '/app/consulta/pagamentoServico',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/consulta/pagamentoServico');
      await page.getByRole('button', { name: 'Pesquisar' }).click();
      await expect(page.getByRole('table', { name: 'Pagamentos' })).toBeVisible();
      await page.getByRole('button', { name: 'Previsão de Repasse' }).click();
      await dialog(page, 'Previsão de Repasse');
    },
  },
  {
    name: 'service payment detail',
    route: '/app/consulta/pagamentoServico/detalhe/:idConsumo/:ufConsumo',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/pagamentoServico/detalhe/000000-nenhum/BA'), heading(page, 'Detalhe do Pagamento')),
  },
  {
    name: 'revenue-sharing groups',
    route: '/app/consulta/beneficiadoRateio',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/beneficiadoRateio'), expect(page.getByRole('table', { name: 'Beneficiados' }).getByRole('row').nth(1)).toBeVisible()),
  },
  {
    name: 'revenue-sharing edit of the current group',
    route: '/app/edicao/beneficiadoRateio',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/edicao/beneficiadoRateio'), expect(page.getByRole('table', { name: 'Beneficiados do grupo' }).getByRole('row').nth(1)).toBeVisible()),
  },
  {
    name: 'revenue-sharing new group, the end-month dialog',
    route: '/app/cadastro/beneficiadoRateio',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/cadastro/beneficiadoRateio'), dialog(page, 'Vigência final do grupo atual')),
  },
  {
    name: 'banks of the revenue-sharing beneficiaries',
    route: '/app/bancos/beneficiadoRateio',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/bancos/beneficiadoRateio'), expect(page.getByRole('table', { name: 'Bancos' }).getByRole('row').nth(1)).toBeVisible()),
  },
  {
    name: 'banks, the register dialog',
    route: '/app/bancos/beneficiadoRateio',
    as: ADMIN,
    open: async (page) => {
      await page.goto('/app/bancos/beneficiadoRateio');
      await page.getByRole('button', { name: 'Novo Banco' }).click();
      await dialog(page, 'Cadastrar Banco');
    },
  },
  {
    name: 'issuer terms',
    route: '/app/emissor/termo-aceitacao',
    as: EMISSOR,
    open: async (page) => (await page.goto('/app/emissor/termo-aceitacao'), heading(page, 'Termo de Aceitação')),
  },
  {
    name: 'issuer terms, branches step',
    route: '/app/emissor/termo-aceitacao',
    as: EMISSOR,
    open: async (page) => {
      await page.goto('/app/emissor/termo-aceitacao');
      await page.getByText('Li e aceito os termos de consentimento').click();
      await page.getByRole('button', { name: 'Próximo' }).click();
      await heading(page, 'Filiais');
    },
  },
  {
    name: 'consent issuer list',
    route: '/app/consulta/emissorConsentimento',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/emissorConsentimento'), heading(page, 'Consentimentos de Emissores')),
  },
  {
    name: 'consent issuer detail',
    route: '/app/consulta/emissorConsentimento/detalhamento',
    as: CLIENTE,
    open: async (page) => (await page.goto('/app/consulta/emissorConsentimento/detalhamento'), heading(page, 'Detalhamento do Consentimento')),
  },
  {
    name: 'consent carrier list',
    route: '/app/consulta/emissorConsentimentoTransporte',
    as: CLIENTE,
    open: async (page) => (await page.goto('/app/consulta/emissorConsentimentoTransporte'), heading(page, 'Consentimentos de Transporte')),
  },
  {
    name: 'free Fat-e look-up',
    route: '/app/consulta/fate',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/fate'), heading(page, 'Consulta Fat-e')),
  },
  {
    name: 'carrier quantity report',
    route: '/app/consulta/qtd-fate-transportadora',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/qtd-fate-transportadora'), heading(page, 'Quantidade de Fat-e por Transportadora')),
  },
  ...(
    [
      ['/app/servico/consulta-fate', 'Consulta Fat-e em Lote'],
      ['/app/servico/consulta-fate-chave-composta', 'Consulta Fat-e por Chave Composta'],
      ['/app/servico/recebivel-avaliacao', 'Recebível em Avaliação'],
      ['/app/servico/consulta-faturamento-nfce', 'Consulta Faturamento NFC-e'],
      ['/app/servico/consulta-faturamento-nfe', 'Consulta Faturamento NF-e'],
    ] as const
  ).map(([route, title]) => ({
    name: `CSV batch: ${title}`,
    route,
    as: CLIENTE_WEB,
    open: async (page: Page) => (await page.goto(route), heading(page, title)),
  })),
  {
    name: 'consumption by client',
    route: '/app/consulta/consumoCliente',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/consumoCliente'), heading(page, 'Consumo por Cliente')),
  },
  {
    name: 'consumption by UF of a manager (UF fixed)',
    route: '/app/consulta/consumoUF',
    as: GESTOR,
    open: async (page) => (await page.goto('/app/consulta/consumoUF'), heading(page, 'Consumo por UF')),
  },
  {
    name: 'Fat-e not found by UF',
    route: '/app/consulta/consumoErroUF',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/consulta/consumoErroUF'), heading(page, 'Fat-e não Encontradas por UF')),
  },
  {
    name: 'consumption monitoring by client',
    route: '/app/monitoramento-consumo-cliente',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/monitoramento-consumo-cliente'), heading(page, 'Monitoramento por Cliente')),
  },
  {
    name: 'webhook monitoring (admin)',
    route: '/app/monitoramento-webhook',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/monitoramento-webhook'), heading(page, 'Monitoramento de Webhook')),
  },
  {
    name: 'monitored keys (admin)',
    route: '/app/monitoramento-documentos',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/monitoramento-documentos'), heading(page, 'Monitoramento de Documentos')),
  },
  {
    name: 'prepaid reservation (IMF client)',
    route: '/app/pagamentoAntecipado/cadastro-pagamento-antecipado',
    as: IMF,
    open: async (page) => (await page.goto('/app/pagamentoAntecipado/cadastro-pagamento-antecipado'), heading(page, 'Cadastro de Pagamento Antecipado')),
  },
  {
    name: 'prepaid DAEs (admin)',
    route: '/app/pagamentoAntecipado/imprimir-dae',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/pagamentoAntecipado/imprimir-dae'), heading(page, 'Imprimir DAE')),
  },
  {
    name: 'request account (IMF client)',
    route: '/app/pagamentoAntecipado/conta-corrente-requisicoes',
    as: IMF,
    open: async (page) => (await page.goto('/app/pagamentoAntecipado/conta-corrente-requisicoes'), heading(page, 'Conta Corrente de Requisições')),
  },
  {
    name: 'invoice list (admin)',
    route: '/app/fatura/consultarFatura',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/fatura/consultarFatura'), heading(page, 'Consultar Fatura')),
  },
  {
    name: 'invoice list (client)',
    route: '/app/fatura/consultarFatura',
    as: CLIENTE,
    open: async (page) => (await page.goto('/app/fatura/consultarFatura'), heading(page, 'Consultar Fatura')),
  },
  {
    name: 'invoice detail',
    route: '/app/fatura/detalheFatura',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/fatura/detalheFatura'), heading(page, 'Detalhe da Fatura')),
  },
  {
    name: 'trial clients (staff)',
    route: '/app/cliente-degustacao',
    as: ADMIN,
    open: async (page) => (await page.goto('/app/cliente-degustacao'), heading(page, 'Clientes em Degustação')),
  },
  {
    name: 'trial area: the entry sends to the authorisation',
    route: '/degustacao',
    open: async (page) => (await page.goto('/degustacao'), heading(page, 'Autorização para Testes')),
  },
  {
    name: 'trial registration',
    route: '/degustacao/cliente',
    open: async (page) => (await page.goto('/degustacao/cliente'), heading(page, 'Cadastro para Degustação')),
  },
  {
    name: 'trial registration done',
    route: '/degustacao/cadastroTeste',
    open: async (page) => (await page.goto('/degustacao/cadastroTeste'), heading(page, 'Cadastro para testes realizado')),
  },
  {
    name: 'trial authorisation',
    route: '/degustacao/autorizacao',
    open: async (page) => (await page.goto('/degustacao/autorizacao'), heading(page, 'Autorização para Testes')),
  },
  {
    name: 'trial look-up without a trial session (back to the authorisation)',
    route: '/degustacao/consulta',
    open: async (page) => (await page.goto('/degustacao/consulta'), heading(page, 'Autorização para Testes')),
  },
  {
    name: 'not found (signed in)',
    route: '/app/*',
    as: GESTOR,
    open: async (page) => (await page.goto('/app/nao/existe'), heading(page, 'Página não encontrada')),
  },
];

test('every route of the router has a screen in this accessibility check', () => {
  const covered = new Set(SCREENS.map((s) => s.route));
  const routes = routerRoutes();
  expect(routes.length).toBeGreaterThan(15);
  expect(routes.filter((r) => !covered.has(r)), 'routes without a screen in tests/e2e/accessibility.spec.ts').toEqual([]);
  expect([...covered].filter((r) => !routes.includes(r)), 'screens of routes the router no longer has').toEqual([]);
});

for (const screen of SCREENS) {
  test(`WCAG 2.1 AA: ${screen.name}`, async ({ tab: page }) => {
    if (screen.as) await signIn(page, screen.as);
    await screen.open(page);
    // Let fades and the progress bar finish.
    await page.waitForLoadState('networkidle');
    const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    const found = results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
    expect(found, `${screen.name} (${page.url()}):\n${JSON.stringify(found, null, 2)}`).toEqual([]);
  });
}
