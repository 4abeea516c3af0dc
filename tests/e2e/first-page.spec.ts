import { expect, test, type Page } from '@playwright/test';
import { signIn } from './session';

/**
 * Issue 29 item 3, a first page that paints at once: what the production build sends a phone's first
 * visit (the scores themselves are the bench's: bench/lighthouse.ts). The twin serves web/dist as
 * CloudFront does (compressed, the SPA rewrite to index.html for '/' and spa.html elsewhere).
 */

/** Bytes on the wire (compressed) of each response of a page's first load, by path. */
async function firstLoad(page: Page, path: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then((s) => {
        sizes.set(new URL(request.url()).pathname, s.responseBodySize);
      }),
    );
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  return sizes;
}

const kib = (sizes: Map<string, number>, test: (path: string) => boolean) =>
  Math.round([...sizes].filter(([path]) => test(path)).reduce((sum, [, bytes]) => sum + bytes, 0) / 1024);

test.describe('the first page', () => {
  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test("has the login page's text in its HTML, laid out, with the font preloaded", async ({ page }) => {
      const response = await page.goto('/');
      expect(response?.headers()['content-encoding']).toMatch(/^(br|gzip)$/);
      await expect(page.getByRole('heading', { level: 1, name: 'PLAC Fat-e' })).toBeVisible();
      await expect(page.getByText('Plataforma de consulta e cobrança de dados de faturas eletrônicas das Secretarias da Fazenda.')).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Acesso ao sistema' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Integradores' })).toBeVisible();
      // The card's placeholder until the scripts run; the hero beside it on a wide screen (first-paint.css).
      await expect(page.getByRole('status')).toHaveText('Carregando…');
      const hero = await page.locator('.public-hero').boundingBox();
      const card = await page.locator('.login-card').boundingBox();
      expect(card!.x).toBeGreaterThan(hero!.x + hero!.width - 1);
      await expect(page.locator('link[rel="preload"][as="font"]')).toHaveAttribute('href', /\/assets\/inter-latin-[\w-]+\.woff2$/);
    });

    test('any other page of the portal gets the placeholder page, not the login text', async ({ page }) => {
      await page.goto('/app/fatura/consultarFatura');
      await expect(page.getByText('Carregando…')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'PLAC Fat-e' })).toHaveCount(0);
    });
  });

  test("the login form takes the placeholder's place without moving what is below it, on a phone and a laptop", async ({ browser }) => {
    for (const viewport of [
      { width: 412, height: 823 },
      { width: 1366, height: 768 },
    ]) {
      const topOfCards = async (javaScriptEnabled: boolean) => {
        const context = await browser.newContext({ viewport, javaScriptEnabled });
        const page = await context.newPage();
        await page.goto('/');
        if (javaScriptEnabled) await expect(page.getByRole('tab', { name: 'Cliente PLAC' })).toBeVisible();
        const box = await page.locator('.public-cards').boundingBox();
        await context.close();
        return Math.round(box!.y);
      };
      expect(await topOfCards(true), `at ${viewport.width} px`).toBe(await topOfCards(false));
    }
  });

  test('the login page loads only the PrimeReact it renders, the Latin font and no more than 222 KiB of JavaScript', async ({ page }) => {
    const sizes = await firstLoad(page, '/');
    await expect(page.getByRole('tab', { name: 'Cliente PLAC' })).toBeVisible();
    const paths = [...sizes.keys()];
    // The tables, calendars, dropdowns and charts of the authenticated pages are not fetched.
    expect(paths.filter((p) => /\/(column|datatable|calendar|dropdown|chart|ChartView)[.-]/i.test(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.woff2') && !/inter-latin|primeicons/.test(p))).toEqual([]);
    const js = kib(sizes, (p) => p.endsWith('.js'));
    // 210 KiB on the wire here: React, ReactDOM and the router 92, the API client with zod and
    // react-query 36, PrimeReact's core and the login's components about 50. Before issue 29 the login
    // page fetched the whole PrimeReact chunk (180 KiB alone) and about 360 KiB in all. Issue 39 put the
    // signed-in frame (top bar, side menu, a memory router for their links) in the entry, about 2 KiB,
    // so that a page of /app paints it before the shell: 221 KiB.
    expect(js, `JavaScript of the login page: ${js} KiB`).toBeLessThanOrEqual(222);
  });

  test('a page of the authenticated area paints its frame before the shell and PrimeReact have loaded, and it does not move when they come', async ({ page }) => {
    await signIn(page, { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' });
    // The shell (its script and the theme's CSS) and every PrimeReact component's chunk are held back
    // until the frame has been looked at: it must paint without them.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let heldBack = 0;
    await page.route(/\/assets\/(RootShell-[\w-]+\.(js|css)|\w+\.esm-[\w-]+\.js)$/, async (route) => {
      heldBack++;
      await held;
      await route.continue();
    });
    await page.goto('/app/fatura/consultarFatura');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await expect(menu.getByRole('link', { name: 'Faturas' })).toBeVisible();
    await expect(page.getByText('Administradora Demo')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Carregando…');
    expect(heldBack).toBeGreaterThan(0);
    const before = await menu.boundingBox();
    release();
    await expect(page.getByRole('heading', { level: 1, name: 'Consultar Fatura' })).toBeVisible();
    expect(await menu.boundingBox()).toEqual(before);
  });

  test('a page of the authenticated area draws its frame, then its own code: the old page stays while the next loads', async ({ page }) => {
    await signIn(page, { userId: 'demo-admin', name: 'Administradora Demo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' });
    await page.goto('/app/fatura/consultarFatura');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await expect(page.getByRole('heading', { level: 1, name: 'Consultar Fatura' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Faturas' })).toBeVisible();
    // Moving to a page whose code is not loaded yet: the menu stays, the page arrives, nothing breaks.
    await menu.getByRole('link', { name: 'Faturamento Mensal' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Faturamento Mensal' })).toBeVisible();
    await expect(menu).toBeVisible();
    await expect(page.getByText('Carregando…')).toHaveCount(0);
  });
});
