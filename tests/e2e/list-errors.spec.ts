import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Route } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { signIn } from './session';
import { WCAG_21_AA } from './axe';

/**
 * Honest errors (issue 28 item 1): a list whose request fails shows the catalogue's 'Serviço
 * indisponível' with 'Tentar novamente', never 'Nenhum registro encontrado' (which would read as "there
 * is none"); the retry asks again and, once the service answers, shows the list. The login card says
 * the same inline when the e-mail check or the login answers 5xx or gets no answer.
 */

const ADMIN: Principal = { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const INDISPONIVEL = 'Serviço indisponível';
const VAZIO = 'Nenhum registro encontrado';

/** Answers 500 to the API path given (any query), and counts the requests it answered. */
async function fail500(page: Page, path: string): Promise<{ count: number; stop: () => Promise<void> }> {
  const state = { count: 0 };
  const match = (url: URL) => url.pathname === path;
  const handler = (route: Route) => {
    state.count += 1;
    return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'erroInterno' }) });
  };
  await page.route(match, handler);
  return {
    get count() {
      return state.count;
    },
    stop: () => page.unroute(match, handler),
  };
}

/** The list's table region (its error and empty states are rendered inside the table). */
const lista = (page: Page, label: string) => page.getByRole('region', { name: `${label} (rolável)` });

async function expectErrorThenRetry(page: Page, label: string, path: string, open: () => Promise<void>) {
  const falha = await fail500(page, path);
  await open();
  const region = lista(page, label);
  const alerta = region.getByRole('alert');
  await expect(alerta).toContainText(INDISPONIVEL);
  await expect(alerta.getByRole('button', { name: 'Tentar novamente' })).toBeVisible();
  await expect(region.getByText(VAZIO)).toHaveCount(0);
  const pedidos = falha.count;
  expect(pedidos).toBeGreaterThan(0);

  // Still failing: the retry asks again (one more request) and says so again.
  await alerta.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect.poll(() => falha.count).toBeGreaterThan(pedidos);
  await expect(region.getByRole('alert')).toContainText(INDISPONIVEL);

  // The service is back: the retry shows the list.
  await falha.stop();
  await region.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect(region.getByRole('alert')).toHaveCount(0);
  await expect(region.getByRole('table', { name: label })).toHaveAttribute('aria-busy', 'false');
}

test('a 500 on the sharing group shows the error with a retry, not an empty group; the retry shows the group', async ({ page }) => {
  await signIn(page, ADMIN);
  await expectErrorThenRetry(page, 'Beneficiados', '/api/v1/grupo-rateio', () => page.goto('/app/consulta/beneficiadoRateio').then(() => undefined));
  // The group's beneficiaries are listed once the groups answer.
  await expect(lista(page, 'Beneficiados').locator('tbody tr').first()).toBeVisible();
});

test('a 500 on Faturas shows the error with a retry; axe finds nothing in the error state', async ({ page }) => {
  await signIn(page, ADMIN);
  const falha = await fail500(page, '/api/v1/fatura');
  await page.goto('/app/fatura/consultarFatura');
  const region = lista(page, 'Faturas');
  await expect(region.getByRole('alert')).toContainText(INDISPONIVEL);
  await expect(region.getByText(VAZIO)).toHaveCount(0);
  // Neither the paginator of a list it does not have.
  await expect(page.getByRole('navigation', { name: 'Paginação de faturas' })).toHaveCount(0);
  await page.waitForTimeout(400);
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await falha.stop();
  await region.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect(region.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Paginação de faturas' })).toBeVisible();
});

test('a 500 on the users list shows the error with a retry; the retry lists the users', async ({ page }) => {
  await signIn(page, ADMIN);
  await expectErrorThenRetry(page, 'Usuários', '/api/v1/users', () => page.goto('/app/user').then(() => undefined));
  await expect(lista(page, 'Usuários').getByRole('row', { name: /Administradora Demo/ })).toBeVisible();
});

test('a 500 on Pagamento de Serviços shows the error with a retry', async ({ page }) => {
  await signIn(page, ADMIN);
  await expectErrorThenRetry(page, 'Pagamentos', '/api/v1/pagamento-servico', () => page.goto('/app/consulta/pagamentoServico').then(() => undefined));
});

test.describe('the login card', () => {
  test("says 'Serviço indisponível' when the client e-mail check answers 503, and when it times out", async ({ page }) => {
    await page.route('**/api/v1/authenticate/client/type', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service Unavailable"}' }));
    await page.goto('/');
    const card = page.getByRole('form', { name: 'Login de cliente' });
    await card.getByLabel('E-mail').fill('cliente@demo.plac');
    await card.getByRole('button', { name: 'Entrar' }).click();
    await expect(card.getByRole('alert')).toContainText(INDISPONIVEL);

    // No answer at all (the request times out): the same, in the card, and no stack trace.
    await page.unroute('**/api/v1/authenticate/client/type');
    await page.route('**/api/v1/authenticate/client/type', (route) => route.abort('timedout'));
    await page.reload();
    const again = page.getByRole('form', { name: 'Login de cliente' });
    await again.getByLabel('E-mail').fill('cliente@demo.plac');
    await again.getByRole('button', { name: 'Entrar' }).click();
    await expect(again.getByRole('alert')).toContainText(INDISPONIVEL);
    await expect(page.getByText(/at \w+ \(|TypeError|stack/)).toHaveCount(0);
  });

  test("says 'Serviço indisponível' when the Sefaz login answers 500", async ({ page }) => {
    await page.route('**/api/v1/authenticate/sefaz', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"erroInterno"}' }));
    await page.goto('/');
    await page.getByRole('tab', { name: 'Sefaz' }).click();
    const card = page.getByRole('form', { name: 'Login Sefaz' });
    await card.getByLabel('E-mail').fill('admin@demo.plac');
    await card.getByLabel('Senha', { exact: true }).fill('x');
    await card.getByRole('button', { name: 'Entrar' }).click();
    await expect(card.getByRole('alert')).toContainText(INDISPONIVEL);
  });
});
