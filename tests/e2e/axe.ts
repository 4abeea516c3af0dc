import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The accessibility level every screen is held to: WCAG 2.1 A and AA. */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The page as it stands passes axe at WCAG 2.1 AA; a failure lists each violation with its nodes.
 * It waits for the network to settle and for PrimeReact's fades and progress bars to finish, so the
 * colours checked are the final ones.
 */
export async function axe(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const found = results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  expect(found, `${what} (${page.url()}):\n${JSON.stringify(found, null, 2)}`).toEqual([]);
}
