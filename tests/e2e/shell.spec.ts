import { expect, test } from '@playwright/test';
import { signIn } from './session';

test.describe('the portal shell', () => {
  test('opens in Portuguese with the product version', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await expect(page.getByRole('heading', { level: 1, name: 'PLAC Fat-e' })).toBeVisible();
    await expect(page.getByText('versão 2.10.0')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Referência da API' })).toHaveAttribute('href', '/api/docs');
  });

  test('the production CSP holds: no script evaluation is refused on the login page or a signed-in form (zod runs without eval)', async ({ page }) => {
    type Violacao = { violatedDirective: string; blockedURI: string };
    type Janela = { __csp: string[]; document: { addEventListener(tipo: string, f: (e: Violacao) => void): void } };
    await page.addInitScript(() => {
      const w = globalThis as unknown as Janela;
      w.__csp = [];
      w.document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const violacoes = () => page.evaluate(() => (globalThis as unknown as Janela).__csp);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'PLAC Fat-e' })).toBeVisible();
    await page.getByRole('tab', { name: 'Sefaz' }).click().catch(() => undefined);
    expect(await violacoes()).toEqual([]);
    await signIn(page, { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' });
    await page.goto('/app/consulta/fate');
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    expect(await violacoes()).toEqual([]);
  });

  test('sends a signed-out visitor of the authenticated area to the start', async ({ page }) => {
    await page.goto('/app');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'PLAC Fat-e' })).toBeVisible();
  });

  test('shows the 404 page for an unknown address', async ({ page }) => {
    await page.goto('/nao/existe');
    await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible();
    await page.getByRole('link', { name: 'Voltar ao início' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('shows the generic message page with its title and body', async ({ page }) => {
    await page.goto('/message?title=Cadastro%20realizado&body=Voc%C3%AA%20receber%C3%A1%20um%20e-mail.');
    await expect(page.getByRole('heading', { name: 'Cadastro realizado' })).toBeVisible();
    await expect(page.getByText('Você receberá um e-mail.')).toBeVisible();
  });

  test('a signed-in manager sees the welcome, the menu of the role and can log out', async ({ page }) => {
    await signIn(page, { userId: 'u-gestor', name: 'Gestora Demo', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' });
    await page.goto('/app');
    await expect(page.getByRole('heading', { name: 'Bem-vindo(a), Gestora Demo' })).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await expect(menu.getByRole('link', { name: 'Clientes' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Gestão de Serviços' })).toHaveCount(0);
    await page.goto('/app/not-authorized');
    await expect(page.getByRole('heading', { name: 'Acesso Negado' })).toBeVisible();
    await expect(page.getByText('Você não tem acesso a esta funcionalidade.')).toBeVisible();
    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Sessão encerrada com sucesso')).toBeVisible();
  });

  test('the portal and the API share one origin', async ({ page }) => {
    await page.goto('/');
    const ufs = await page.evaluate(async () => (await fetch('/api/v1/dominio/uf')).json());
    expect(ufs).toHaveLength(27);
    const cities = await page.evaluate(async () => (await fetch('/api/v1/dominio/cidades/BA/salv')).json());
    expect(cities).toContainEqual({ codigo: 2927408, nome: 'Salvador' });
  });

  test('serves the integrators’ API reference', async ({ page }) => {
    await page.goto('/api/docs');
    await expect(page.getByRole('heading', { name: 'PLAC Fat-e — Referência da API' })).toBeVisible();
    await expect(page.locator('article#dominio\\.cidades')).toContainText('/api/v1/dominio/cidades/{uf}/{text}');
  });
});
