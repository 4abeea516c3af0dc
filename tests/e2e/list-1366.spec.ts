import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { emitirFaturaAberta, gravarCliente, novoClienteE2e } from './faturas-kit';
import { pick } from './helpers';
import { signIn } from './session';

/**
 * Every list screen at 1366×768, the laptop a treasurer works on (issue 28): no column is cut (the
 * table fits its container and no header's text overflows its cell), no amount wraps ('R$ / 236,64'),
 * and the page does not scroll sideways. A screenshot of each goes to test-results/1366/ for review.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const GESTOR: Principal = { userId: 'demo-gestor', name: 'Gestor Demo', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };
const CLIENTE: Principal = { userId: 'demo-cliente', name: 'Cliente Demo', tipo: 'C', roles: ['cliente'], clienteId: 'demo-esf' };
const IMF: Principal = { userId: 'demo-imf', name: 'Cliente IMF Demo', tipo: 'C', roles: ['cliente_imf'], clienteId: 'demo-imf' };

const SHOTS = 'test-results/1366';

interface Screen {
  name: string;
  path: string;
  /** Brings the list on screen (a search, a choice) once the page is open. */
  prepare?: (page: Page) => Promise<void>;
}

const search = (page: Page) => page.getByRole('search').getByRole('button', { name: 'Pesquisar' }).click();

const ADMIN_SCREENS: Screen[] = [
  { name: 'usuarios', path: '/app/user' },
  { name: 'clientes', path: '/app/cliente' },
  {
    name: 'instituicoes-financeiras',
    path: '/app/consulta/instituicaoFinanceira',
    prepare: async (page) => {
      await pick(page, 'filtro-situacao', 'Ativa');
      await search(page);
    },
  },
  {
    name: 'autorizacoes',
    path: '/app/autorizacao-inf-cliente-list',
    prepare: async (page) => {
      await pick(page, 'filtro-cliente', /Banco Demonstração ESF/);
      await search(page);
    },
  },
  { name: 'faturas', path: '/app/fatura/consultarFatura' },
  { name: 'pagamento-de-servicos', path: '/app/consulta/pagamentoServico' },
  { name: 'imprimir-dae', path: '/app/pagamentoAntecipado/imprimir-dae' },
  {
    name: 'conta-corrente-requisicoes',
    path: '/app/pagamentoAntecipado/conta-corrente-requisicoes',
    prepare: (page) => pick(page, 'cc-escriturador', /Fomento Mercantil IMF/),
  },
  { name: 'documentos-com-erro', path: '/app/documentos-erro' },
  { name: 'consumo-por-cliente', path: '/app/consulta/consumoCliente' },
  {
    name: 'consumo-por-uf',
    path: '/app/consulta/consumoUF',
    prepare: async (page) => {
      await pick(page, 'filtro-uf', 'BA - Bahia');
      await pick(page, 'filtro-servico', 'Consulta Fat-e por Chave de Acesso');
      await search(page);
    },
  },
  {
    name: 'fate-nao-encontradas',
    path: '/app/consulta/consumoErroUF',
    prepare: async (page) => {
      await pick(page, 'filtro-uf', 'BA - Bahia');
      await search(page);
    },
  },
  { name: 'monitoramento-webhook', path: '/app/monitoramento-webhook' },
  {
    name: 'monitoramento-documentos',
    path: '/app/monitoramento-documentos',
    prepare: (page) => pick(page, 'monitoramento-cliente', /Banco Demonstração ESF/),
  },
  { name: 'consentimentos-emissores', path: '/app/consulta/emissorConsentimento', prepare: search },
  { name: 'consentimentos-transporte', path: '/app/consulta/emissorConsentimentoTransporte', prepare: search },
  { name: 'faixas-de-cobranca', path: '/app/consulta/faixaCobranca' },
  { name: 'rateio', path: '/app/consulta/beneficiadoRateio' },
  { name: 'bancos', path: '/app/bancos/beneficiadoRateio' },
  { name: 'faturamento-mensal', path: '/app/fatura/faturamentoMensal' },
  { name: 'retorno-bancario', path: '/app/fatura/retornoBancario' },
  { name: 'clientes-em-degustacao', path: '/app/cliente-degustacao' },
  { name: 'processamento', path: '/app/processamento/consultarProcessamento' },
  { name: 'processamento-eventos', path: '/app/processamento/consultarProcEventoFinanceiro' },
];

const GESTOR_SCREENS: Screen[] = [
  { name: 'gestor-pagamento-de-servicos', path: '/app/consulta/pagamentoServico' },
  { name: 'gestor-consumo-por-uf', path: '/app/consulta/consumoUF' },
  { name: 'gestor-clientes', path: '/app/cliente' },
];

const CLIENTE_SCREENS: Screen[] = [
  { name: 'cliente-faturas', path: '/app/fatura/consultarFatura' },
  { name: 'cliente-pagamento-de-servicos', path: '/app/consulta/pagamentoServico' },
  { name: 'cliente-consumo', path: '/app/consulta/consumoCliente' },
];

const IMF_SCREENS: Screen[] = [
  { name: 'imf-imprimir-dae', path: '/app/pagamentoAntecipado/imprimir-dae' },
  { name: 'imf-conta-corrente-requisicoes', path: '/app/pagamentoAntecipado/conta-corrente-requisicoes' },
];

/**
 * What is cut or wrapped on the page, measured in Chromium (a string: the tests' tsconfig has no DOM
 * library). A table wider than its container, a header whose text overflows its cell, an amount cell on
 * more than one line, a page wider than the window.
 */
const MEASURE = `(() => {
  const problems = [];
  let tables = 0, headers = 0, amounts = 0;
  if (document.documentElement.scrollWidth > window.innerWidth + 1) problems.push('page scrolls sideways: ' + document.documentElement.scrollWidth + 'px');
  for (const wrapper of document.querySelectorAll('.p-datatable-wrapper')) {
    if (wrapper.offsetParent === null) continue;
    tables += 1;
    const table = wrapper.querySelector('table');
    const label = (table && table.getAttribute('aria-label')) || wrapper.getAttribute('aria-label') || '?';
    if (wrapper.scrollWidth > wrapper.clientWidth + 1) problems.push(label + ': table ' + wrapper.scrollWidth + 'px in ' + wrapper.clientWidth + 'px');
    for (const th of wrapper.querySelectorAll('thead th')) {
      headers += 1;
      const cells = [th, ...th.querySelectorAll('.p-column-header-content, .p-column-title')];
      if (cells.some((c) => c.scrollWidth > c.clientWidth + 1)) problems.push(label + ": header '" + th.textContent.trim() + "' cut (" + th.scrollWidth + ' > ' + th.clientWidth + ')');
    }
    for (const td of wrapper.querySelectorAll('td.list-money')) {
      if (!td.textContent.trim()) continue;
      amounts += 1;
      const range = document.createRange();
      range.selectNodeContents(td);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) problems.push(label + ": amount '" + td.textContent.trim() + "' on " + lines.size + ' lines');
    }
  }
  return { problems, tables, headers, amounts };
})()`;

interface Measure {
  problems: string[];
  tables: number;
  headers: number;
  amounts: number;
}

async function visit(page: Page, screens: Screen[]): Promise<string[]> {
  const found: string[] = [];
  for (const screen of screens) {
    await page.goto(screen.path);
    await expect(page.locator('.p-datatable').first()).toBeVisible({ timeout: 15_000 });
    if (screen.prepare) await screen.prepare(page);
    await page.waitForLoadState('networkidle');
    // Every list's answer in: no table busy.
    await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
    await page.waitForTimeout(300);
    const m = (await page.evaluate(MEASURE)) as Measure;
    // The picture a reader needs: of a screen with a problem, or of every screen when asked (PLAC_E2E_SHOTS=1).
    // A full-page PNG of every screen on every run was CPU on CI's two cores that checked nothing.
    if (m.problems.length > 0 || process.env.PLAC_E2E_SHOTS) await page.screenshot({ path: `${SHOTS}/${screen.name}.png`, fullPage: true });
    console.log(`1366 ${screen.name}: ${m.tables} table(s), ${m.headers} header(s), ${m.amounts} amount(s) checked`);
    expect(m.tables, `${screen.name}: no table on screen`).toBeGreaterThan(0);
    found.push(...m.problems.map((p) => `${screen.name}: ${p}`));
  }
  return found;
}

test.use({ viewport: { width: 1366, height: 768 } });
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

test('the administrator’s list screens fit 1366 px: no cut column, no wrapped amount', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, ADMIN);
  // An invoice of the previous month with a long name and a large amount: the widest row a list shows.
  const cliente = novoClienteE2e('l1366', 'Companhia Securitizadora de Créditos Financeiros do Nordeste Brasileiro');
  await gravarCliente(cliente);
  const anterior = new Date();
  anterior.setDate(1);
  anterior.setMonth(anterior.getMonth() - 1);
  await emitirFaturaAberta(cliente, `${anterior.getFullYear()}-${String(anterior.getMonth() + 1).padStart(2, '0')}`, 1_234_567_89);
  expect(await visit(page, ADMIN_SCREENS)).toEqual([]);
});

test('the manager’s list screens fit 1366 px', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, GESTOR);
  expect(await visit(page, GESTOR_SCREENS)).toEqual([]);
});

test('the clients’ list screens fit 1366 px', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, CLIENTE);
  const cliente = await visit(page, CLIENTE_SCREENS);
  await signIn(page, IMF);
  expect([...cliente, ...(await visit(page, IMF_SCREENS))]).toEqual([]);
});
