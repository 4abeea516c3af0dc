import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Principal } from '@plac/shared/access';
import { openSession } from '../../functions/platform/auth/sessions';
import { signToken } from '../../functions/platform/auth/tokens';

/**
 * A signed-in browser session without the login screen: a real session and token of the e2e twin,
 * stored where the portal keeps its session. (The login screens have their own tests.)
 */
export async function signIn(page: Page, principal: Principal, ttlSeconds = 600) {
  // The e2e twin's own environment (token secret, DynamoDB endpoint), to open a real session in it.
  Object.assign(process.env, JSON.parse(readFileSync(join(process.env.PLAC_E2E_DATA!, 'twin-env.json'), 'utf8')) as Record<string, string>);
  const sid = await openSession(principal);
  const token = await signToken(principal, sid, ttlSeconds);
  // Any document of the portal's origin holds its session storage: the health answer is one without
  // booting the portal (a screen's first load costs 1-2 s on 2 cores; the test's own goto follows).
  await page.goto('/api/v1/health');
  await page.evaluate(
    ([user, token]) => sessionStorage.setItem('plac-fate.session', JSON.stringify({ user, token, filters: {}, reportProcessing: null })),
    [principal, token] as const,
  );
}
